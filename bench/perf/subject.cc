#include "perf/subject.h"

namespace codemode::perf {

ExecutionResult judge_output(const Workload& workload, const Json& output) {
  if (output == workload.expected_output) return {.succeeded = true};
  return {.succeeded = false, .failure = "unexpected output " + output.dump().substr(0, 200)};
}

}  // namespace codemode::perf
