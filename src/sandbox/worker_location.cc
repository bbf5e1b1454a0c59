#include "sandbox/worker_location.h"

#include <algorithm>
#include <system_error>

#include <dlfcn.h>
#include <link.h>

#include "tools/command_path.h"

namespace codemode::internal {

InstallLayout install_layout() {
  return {.worker_from_bindir = CODEMODE_WORKER_FROM_BINDIR,
          .worker_from_libdir = CODEMODE_WORKER_FROM_LIBDIR};
}

std::vector<std::filesystem::path> worker_candidates(const std::filesystem::path& module,
                                                     const InstallLayout& layout) {
  const std::filesystem::path directory = module.parent_path();
  std::vector<std::filesystem::path> candidates;
  for (const std::filesystem::path& relative :
       {std::filesystem::path("codemode-worker"), layout.worker_from_bindir,
        layout.worker_from_libdir}) {
    std::filesystem::path candidate = (directory / relative).lexically_normal();
    if (std::find(candidates.begin(), candidates.end(), candidate) == candidates.end()) {
      candidates.push_back(std::move(candidate));
    }
  }
  return candidates;
}

std::filesystem::path current_module_path() {
  Dl_info info{};
  link_map* map = nullptr;
  // dladdr1 names the object that holds this function; the main program's link map has an empty
  // name, and its dli_fname is only argv[0], so the executable is read from /proc instead.
  if (dladdr1(reinterpret_cast<void*>(&current_module_path), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) != 0 &&
      map != nullptr && map->l_name != nullptr && map->l_name[0] != '\0') {
    std::error_code error;
    std::filesystem::path path = std::filesystem::canonical(map->l_name, error);
    return error ? std::filesystem::path() : path;
  }
  std::error_code error;
  std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  return error || !path.is_absolute() ? std::filesystem::path() : path;
}

std::string find_worker(const std::filesystem::path& module, const InstallLayout& layout) {
  if (module.empty() || !module.is_absolute()) return "";
  const std::vector<std::filesystem::path> candidates = worker_candidates(module, layout);
  for (const std::filesystem::path& candidate : candidates) {
    if (is_executable_file(candidate)) return candidate.string();
  }
  return candidates.back().string();
}

}  // namespace codemode::internal
