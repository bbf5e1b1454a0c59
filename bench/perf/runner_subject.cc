#include "perf/runner_subject.h"

#include "perf/runner_request.h"

namespace codemode::perf {

ExecutionResult RunnerSubject::run(const Workload& workload, std::size_t) {
  Result<Json> answer = runner_->call(runner_request(workload));
  if (!answer.ok()) return {.succeeded = false, .failure = answer.error().message};
  return judge_runner_answer(workload, *answer);
}

}  // namespace codemode::perf
