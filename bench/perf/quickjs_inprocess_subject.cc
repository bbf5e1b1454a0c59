#include "perf/quickjs_inprocess_subject.h"

#include <filesystem>

namespace codemode::perf {

Result<std::unique_ptr<RunnerSubject>> make_quickjs_inprocess_subject(
    const std::string& node, const std::string& directory) {
  const std::filesystem::path dir(directory);
  return start_runner_subject(
      {.name = "quickjs_inprocess",
       .node = node,
       .script = (dir / "inprocess_runner.mjs").string(),
       .required_file = (dir / "node_modules" / "quickjs-emscripten" / "package.json").string(),
       .install_hint = "quickjs-emscripten is not installed (run npm ci in bench/perf/quickjs)"});
}

}  // namespace codemode::perf
