// This process's build identity: the GNU build ids of the worker binary and of libmozjs, in load
// order. A self-hosted stencil is valid only for the
// identical binary and libraries, so the cache file and SpiderMonkey's build-id op both use it.
#ifndef CODEMODE_WORKER_BUILD_ID_H_
#define CODEMODE_WORKER_BUILD_ID_H_

#include <string>

namespace codemode::worker {

// Hex digits of each object's NT_GNU_BUILD_ID note, joined with '.'; computed once, from memory
// (dl_iterate_phdr), without opening a file.
const std::string& process_build_id();

// The worker binary's own build id (hex), as `codemode-worker --version` prints it; "" if the
// linker wrote none.
std::string executable_build_id();

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_BUILD_ID_H_
