// The content of a file an approval binds (ToolBinding::files in tool.h), as a short text that
// changes whenever the file does: "sha256:<64 hex>" for a regular file, "absent", "unreadable" or
// "not_regular" otherwise. A file is read whole, once per change: digests are kept by the file's
// identity and change times (device, inode, size, mtime, ctime), and ctime moves on every write,
// rename onto the path or attribute change, whoever makes it.
// Thread-safety: may be called from several threads at once.
#ifndef CODEMODE_WORKFLOW_DEFINITION_BOUND_FILE_H_
#define CODEMODE_WORKFLOW_DEFINITION_BOUND_FILE_H_

#include <string>

namespace codemode::internal {

std::string bound_file_state(const std::string& path);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_DEFINITION_BOUND_FILE_H_
