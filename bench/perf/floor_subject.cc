#include "perf/floor_subject.h"

#include <sys/wait.h>

#include "perf/child_process.h"

namespace codemode::perf {

ExecutionResult FloorSubject::run(const Workload&, std::size_t) {
  Result<ChildRun> child = run_child({program_}, {});
  if (!child.ok()) return {.succeeded = false, .failure = child.error().message};
  const bool exited_zero = WIFEXITED(child->wait_status) && WEXITSTATUS(child->wait_status) == 0;
  if (!exited_zero) return {.succeeded = false, .failure = "the floor program did not exit 0"};
  return {.succeeded = true};
}

}  // namespace codemode::perf
