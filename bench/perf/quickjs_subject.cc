#include "perf/quickjs_subject.h"

#include <filesystem>

#include <sys/wait.h>
#include <unistd.h>

#include "perf/child_process.h"
#include "perf/runner_request.h"

namespace codemode::perf {
namespace {

Error unavailable(const char* reason) {
  return Error::unsupported_profile("baseline_unavailable", reason);
}

ExecutionResult judge_answer(const Workload& workload, const ChildRun& child) {
  if (!WIFEXITED(child.wait_status) || WEXITSTATUS(child.wait_status) != 0) {
    return {.succeeded = false, .failure = "node did not exit 0"};
  }
  Json answer = Json::parse(child.output, nullptr, /*allow_exceptions=*/false);
  if (answer.is_discarded()) {
    return {.succeeded = false, .failure = "runner: " + child.output.substr(0, 300)};
  }
  return judge_runner_answer(workload, answer);
}

}  // namespace

Result<std::unique_ptr<QuickJsSubject>> QuickJsSubject::create(std::string node,
                                                               std::string directory) {
  namespace fs = std::filesystem;
  if (access(node.c_str(), X_OK) != 0) return unavailable("node is not installed");
  const fs::path dir(directory);
  std::error_code error;
  if (!fs::exists(dir / "node_modules" / "quickjs-emscripten" / "package.json", error)) {
    return unavailable("quickjs-emscripten is not installed (run npm ci in bench/perf/quickjs)");
  }
  return std::unique_ptr<QuickJsSubject>(
      new QuickJsSubject(std::move(node), (dir / "runner.mjs").string()));
}

ExecutionResult QuickJsSubject::run(const Workload& workload, std::size_t) {
  Result<ChildRun> child = run_child({node_, runner_}, runner_request(workload).dump());
  if (!child.ok()) return {.succeeded = false, .failure = child.error().message};
  return judge_answer(workload, *child);
}

}  // namespace codemode::perf
