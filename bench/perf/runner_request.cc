#include "perf/runner_request.h"

namespace codemode::perf {

Json runner_request(const Workload& workload) {
  return Json{{"source", workload.source},
              {"input", workload.input},
              {"memoryBytes", workload.limits.memory_bytes},
              {"cpuMillis", workload.limits.cpu_millis}};
}

ExecutionResult judge_runner_answer(const Workload& workload, const Json& answer) {
  if (!answer.is_object() || answer.value("status", "") != "succeeded") {
    return {.succeeded = false, .failure = "runner: " + answer.dump().substr(0, 300)};
  }
  ExecutionResult result = judge_output(workload, answer.value("output", Json()));
  const Json span = answer.value("callSpanMicros", Json());
  if (span.is_number()) result.call_span_micros = span.get<double>();
  return result;
}

}  // namespace codemode::perf
