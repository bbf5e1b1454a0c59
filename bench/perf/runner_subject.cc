#include "perf/runner_subject.h"

#include <filesystem>

#include <unistd.h>

#include "perf/runner_request.h"

namespace codemode::perf {

Result<std::unique_ptr<RunnerSubject>> start_runner_subject(const RunnerBaseline& baseline) {
  if (access(baseline.node.c_str(), X_OK) != 0) {
    return Error::unsupported_profile("baseline_unavailable", "node is not installed");
  }
  std::error_code error;
  if (!std::filesystem::exists(baseline.required_file, error)) {
    return Error::unsupported_profile("baseline_unavailable", baseline.install_hint);
  }
  Result<std::unique_ptr<PersistentRunner>> runner =
      PersistentRunner::start({baseline.node, baseline.script});
  if (!runner.ok()) return runner.error();
  return std::make_unique<RunnerSubject>(baseline.name, std::move(runner).value());
}

ExecutionResult RunnerSubject::run(const Workload& workload, std::size_t) {
  Result<Json> answer = runner_->call(runner_request(workload));
  if (!answer.ok()) return {.succeeded = false, .failure = answer.error().message};
  return judge_runner_answer(workload, *answer);
}

}  // namespace codemode::perf
