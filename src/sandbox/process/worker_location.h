// Where the process adapter finds codemode-worker when the host names none
// (default_worker_path() in include/codemode/process_adapter.h): relative to the file holding
// libcodemode's code, never by a path of the tree that built it, so an installed copy is found
// wherever it was installed (docs/install.md, "Where the worker is found").
#ifndef CODEMODE_SANDBOX_PROCESS_WORKER_LOCATION_H_
#define CODEMODE_SANDBOX_PROCESS_WORKER_LOCATION_H_

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace codemode::internal {

// The worker's path relative to the directory of an installed executable (bin/) and of the
// installed shared library (lib/), from the install layout CMake was configured with.
struct InstallLayout {
  std::filesystem::path worker_from_bindir;  // e.g. "../libexec/codemode/0.1/codemode-worker"
  std::filesystem::path worker_from_libdir;  // e.g. "../libexec/codemode/0.1/codemode-worker"
};

// This build's layout.
InstallLayout install_layout();

// The file holding libcodemode's code: an absolute path, and whether it is the shared library
// (else the executable, libcodemode linked statically).
struct CodeModule {
  std::filesystem::path path;
  bool is_shared_library = false;
};

// The module of this process's libcodemode; nullopt when it cannot be told for certain.
std::optional<CodeModule> current_module();

// The module for a loaded object's name as the loader recorded it (its link map's l_name): "" is
// the executable, read from /proc/self/exe; an absolute name is the shared library. A relative
// name (a library found through LD_LIBRARY_PATH=. or a relative RUNPATH) gives nullopt: it would
// be resolved against the current directory at the time of asking, which anybody who can change
// it could point at a planted worker.
std::optional<CodeModule> module_from_loaded_name(const char* loaded_name);

// The places a worker is looked for, in order: beside the module (a build tree, or a host that
// ships the worker beside the executable or library holding libcodemode), then the install
// layout's libexec directory relative to it, as an executable or as a library. Lexically normal.
std::vector<std::filesystem::path> worker_candidates(const CodeModule& module,
                                                     const InstallLayout& layout);

// The first candidate that is an executable regular file; else the installed location, so that a
// message names where the worker was expected; "" without a module (the adapter is then
// unavailable: there is no guessing).
std::string find_worker(const std::optional<CodeModule>& module, const InstallLayout& layout);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_WORKER_LOCATION_H_
