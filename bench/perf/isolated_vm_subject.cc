#include "perf/isolated_vm_subject.h"

#include <filesystem>

#include <unistd.h>

namespace codemode::perf {

Result<std::unique_ptr<RunnerSubject>> make_isolated_vm_subject(const std::string& node,
                                                                const std::string& directory) {
  namespace fs = std::filesystem;
  if (access(node.c_str(), X_OK) != 0) {
    return Error::unsupported_profile("baseline_unavailable", "node is not installed");
  }
  const fs::path dir(directory);
  std::error_code error;
  // The native addon npm ci builds; the package without it cannot load.
  if (!fs::exists(dir / "node_modules" / "isolated-vm" / "out" / "isolated_vm.node", error)) {
    return Error::unsupported_profile(
        "baseline_unavailable",
        "isolated-vm is not installed (run npm ci --nodedir=/usr in bench/perf/isolated_vm)");
  }
  Result<std::unique_ptr<PersistentRunner>> runner =
      PersistentRunner::start({node, (dir / "runner.mjs").string()});
  if (!runner.ok()) return runner.error();
  return std::make_unique<RunnerSubject>("isolated_vm", std::move(runner).value());
}

}  // namespace codemode::perf
