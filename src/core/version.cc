#include "codemode/version.h"

namespace codemode {

const char* library_version() { return kVersion; }

}  // namespace codemode
