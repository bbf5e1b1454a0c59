#include "perf/isolated_vm_subject.h"

#include <filesystem>

namespace codemode::perf {

Result<std::unique_ptr<RunnerSubject>> make_isolated_vm_subject(const std::string& node,
                                                                const std::string& directory) {
  const std::filesystem::path dir(directory);
  // The native addon npm ci builds; the package without it cannot load.
  return start_runner_subject(
      {.name = "isolated_vm",
       .node = node,
       .script = (dir / "runner.mjs").string(),
       .required_file =
           (dir / "node_modules" / "isolated-vm" / "out" / "isolated_vm.node").string(),
       .install_hint =
           "isolated-vm is not installed (run npm ci --nodedir=/usr in bench/perf/isolated_vm)"});
}

}  // namespace codemode::perf
