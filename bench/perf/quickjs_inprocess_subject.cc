#include "perf/quickjs_inprocess_subject.h"

#include <filesystem>

#include <unistd.h>

namespace codemode::perf {

Result<std::unique_ptr<RunnerSubject>> make_quickjs_inprocess_subject(
    const std::string& node, const std::string& directory) {
  namespace fs = std::filesystem;
  if (access(node.c_str(), X_OK) != 0) {
    return Error::unsupported_profile("baseline_unavailable", "node is not installed");
  }
  const fs::path dir(directory);
  std::error_code error;
  if (!fs::exists(dir / "node_modules" / "quickjs-emscripten" / "package.json", error)) {
    return Error::unsupported_profile(
        "baseline_unavailable",
        "quickjs-emscripten is not installed (run npm ci in bench/perf/quickjs)");
  }
  Result<std::unique_ptr<PersistentRunner>> runner =
      PersistentRunner::start({node, (dir / "inprocess_runner.mjs").string()});
  if (!runner.ok()) return runner.error();
  return std::make_unique<RunnerSubject>("quickjs_inprocess", std::move(runner).value());
}

}  // namespace codemode::perf
