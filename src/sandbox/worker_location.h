// Where the process adapter finds codemode-worker when the host names none
// (default_worker_path() in include/codemode/process_adapter.h): relative to the code that asks,
// never by a path of the tree that built it, so an installed copy is found wherever it was
// installed (docs/install.md, "Where the worker is found").
#ifndef CODEMODE_SANDBOX_WORKER_LOCATION_H_
#define CODEMODE_SANDBOX_WORKER_LOCATION_H_

#include <filesystem>
#include <string>
#include <vector>

namespace codemode::internal {

// The worker's path relative to the directory of an installed executable (bin/) and of the
// installed shared library (lib/), from the install layout CMake was configured with.
struct InstallLayout {
  std::filesystem::path worker_from_bindir;  // e.g. "../libexec/codemode/codemode-worker"
  std::filesystem::path worker_from_libdir;  // e.g. "../libexec/codemode/codemode-worker"
};

// This build's layout.
InstallLayout install_layout();

// The places a worker is looked for, in order, for code loaded from `module` (an absolute path:
// the executable or the shared library holding libcodemode):
//   1. next to the module (a build tree, or a host that ships the worker beside its binary);
//   2. the install layout's libexec directory, relative to the module as an executable;
//   3. the same, relative to the module as the shared library.
// Lexically normal paths, duplicates removed.
std::vector<std::filesystem::path> worker_candidates(const std::filesystem::path& module,
                                                     const InstallLayout& layout);

// The file holding the code of this function: the shared library when libcodemode is one, else
// the executable (/proc/self/exe). Empty when neither can be told.
std::filesystem::path current_module_path();

// The first candidate that is an executable regular file; else the last candidate, so a message
// names where the installed worker was expected; "" when the module is unknown (the adapter is
// then unavailable: there is no guessing).
std::string find_worker(const std::filesystem::path& module, const InstallLayout& layout);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_WORKER_LOCATION_H_
