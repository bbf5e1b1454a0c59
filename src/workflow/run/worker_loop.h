// The worker loop's arithmetic, apart from its waiting: how long after failed passes the next one
// starts, and which failures are news. WorkflowRuntime::work (worker_loop.cc) runs the loop that
// `codemode workflow worker` and the approvals console share.
#ifndef CODEMODE_WORKFLOW_RUN_WORKER_LOOP_H_
#define CODEMODE_WORKFLOW_RUN_WORKER_LOOP_H_

#include <chrono>
#include <cstddef>
#include <optional>

#include "codemode/error.h"

namespace codemode::internal {

// The wait after `failures` failed passes in a row: first x 2^(failures - 1), at most `max`.
// REQUIRES: failures >= 1, first <= max.
std::chrono::milliseconds retry_delay(std::size_t failures, std::chrono::milliseconds first,
                                      std::chrono::milliseconds max);

// Whether a pass's failure is reported: the first of a series (`last_reported` is none), or one
// that fails another way (another code or rule) than the last one reported. Retries that fail
// alike are not news.
bool is_new_failure(const std::optional<Error>& last_reported, const Error& failure);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_WORKER_LOOP_H_
