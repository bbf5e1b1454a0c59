#include "sandbox/process/worker_location.h"

#include <system_error>

#include <dlfcn.h>
#include <link.h>

#include "core/process/command_path.h"

namespace codemode::internal {

InstallLayout install_layout() {
  return {.worker_from_bindir = CODEMODE_WORKER_FROM_BINDIR,
          .worker_from_libdir = CODEMODE_WORKER_FROM_LIBDIR};
}

std::optional<CodeModule> module_from_loaded_name(const char* loaded_name) {
  std::error_code error;
  if (loaded_name == nullptr || loaded_name[0] == '\0') {
    // The main program: its link map has no name, and dladdr's dli_fname is only argv[0].
    std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error || !path.is_absolute()) return std::nullopt;
    return CodeModule{.path = std::move(path), .is_shared_library = false};
  }
  const std::filesystem::path name(loaded_name);
  if (!name.is_absolute()) return std::nullopt;
  std::filesystem::path path = std::filesystem::canonical(name, error);
  if (error) return std::nullopt;
  return CodeModule{.path = std::move(path), .is_shared_library = true};
}

std::optional<CodeModule> current_module() {
  Dl_info info{};
  link_map* map = nullptr;
  // dladdr1 names the loaded object that holds this very function.
  if (dladdr1(reinterpret_cast<void*>(&current_module), &info, reinterpret_cast<void**>(&map),
              RTLD_DL_LINKMAP) == 0 ||
      map == nullptr) {
    return std::nullopt;
  }
  return module_from_loaded_name(map->l_name);
}

std::vector<std::filesystem::path> worker_candidates(const CodeModule& module,
                                                     const InstallLayout& layout) {
  const std::filesystem::path directory = module.path.parent_path();
  return {(directory / "codemode-worker").lexically_normal(),
          (directory /
           (module.is_shared_library ? layout.worker_from_libdir : layout.worker_from_bindir))
              .lexically_normal()};
}

std::string find_worker(const std::optional<CodeModule>& module, const InstallLayout& layout) {
  if (!module || !module->path.is_absolute()) return "";
  const std::vector<std::filesystem::path> candidates = worker_candidates(*module, layout);
  for (const std::filesystem::path& candidate : candidates) {
    if (is_executable_file(candidate)) return candidate.string();
  }
  return candidates.back().string();
}

}  // namespace codemode::internal
