// WorkflowRuntime's worker loop: passes of run_due and reissue until stopped, backing off while
// passes fail (docs/workflows.md, "The worker loop" and "Store outages").
#include "workflow/run/worker_loop.h"

#include <condition_variable>
#include <mutex>

#include "codemode/workflow_runtime.h"

namespace codemode {
namespace internal {

std::chrono::milliseconds retry_delay(std::size_t failures, std::chrono::milliseconds first,
                                      std::chrono::milliseconds max) {
  std::chrono::milliseconds delay = first;
  for (std::size_t i = 1; i < failures && delay < max; ++i) delay *= 2;
  return std::min(delay, max);
}

bool is_new_failure(const std::optional<Error>& last_reported, const Error& failure) {
  return !last_reported || last_reported->code != failure.code ||
         last_reported->rule != failure.rule;
}

}  // namespace internal

namespace {

using Clock = std::chrono::steady_clock;

Status check_loop_options(const WorkerLoopOptions& options) {
  const auto in_range = [](std::chrono::milliseconds interval) {
    return interval >= std::chrono::milliseconds(1) && interval <= std::chrono::hours(1);
  };
  if (!in_range(options.poll_interval) || !in_range(options.first_retry) ||
      !in_range(options.max_retry) || !in_range(options.reissue_interval) ||
      options.first_retry > options.max_retry) {
    return Error::invalid_config("workflow_runtime",
                                 "The worker loop's intervals must be 1 ms .. 1 hour, and "
                                 "first_retry at most max_retry.");
  }
  return {};
}

// Waits `interval`, or less when `stop` is requested first.
void wait_unless_stopped(const std::stop_token& stop, std::chrono::milliseconds interval) {
  std::mutex idle;
  std::unique_lock lock(idle);
  std::condition_variable_any().wait_for(lock, stop, interval, [] { return false; });
}

std::chrono::milliseconds since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

}  // namespace

Result<std::size_t> WorkflowRuntime::work_once(WorkerDuty duty) {
  std::size_t executed = 0;
  if (duty == WorkerDuty::kReissueAndExecute) {
    Result<std::size_t> ran = run_due();
    if (!ran.ok()) return std::move(ran).error();
    executed = *ran;
  }
  if (Result<std::size_t> reissued = reissue(); !reissued.ok()) {
    return std::move(reissued).error();
  }
  return executed;
}

Result<std::size_t> WorkflowRuntime::work(std::stop_token stop, const WorkerLoopOptions& options) {
  if (Status valid = check_loop_options(options); !valid.ok()) return std::move(valid).error();
  std::size_t executed = 0;
  std::size_t failures = 0;
  std::optional<Error> reported;
  Clock::time_point failing_since;
  Clock::time_point next_reissue = Clock::now();
  while (!stop.stop_requested()) {
    std::size_t ran = 0;
    Status pass;
    if (options.duty == WorkerDuty::kReissueAndExecute) {
      Result<std::size_t> due = run_due();
      if (due.ok()) ran = *due;
      if (!due.ok()) pass = std::move(due).error();
    }
    if (pass.ok() && Clock::now() >= next_reissue) {
      Result<std::size_t> reissued = reissue();
      if (reissued.ok()) next_reissue = Clock::now() + options.reissue_interval;
      if (!reissued.ok()) pass = std::move(reissued).error();
    }
    executed += ran;
    if (pass.ok()) {
      if (failures > 0 && options.report) {
        options.report(WorkerEvent{.kind = WorkerEvent::Kind::kRecovered,
                                   .failed_passes = failures,
                                   .failing_for = since(failing_since)});
      }
      failures = 0;
      reported.reset();
      if (ran == 0) wait_unless_stopped(stop, options.poll_interval);
      continue;
    }
    if (failures++ == 0) failing_since = Clock::now();
    const std::chrono::milliseconds delay =
        internal::retry_delay(failures, options.first_retry, options.max_retry);
    // Once per way of failing, not once per retry: a store that is down for a minute is one line.
    if (internal::is_new_failure(reported, pass.error())) {
      reported = pass.error();
      if (options.report) {
        options.report(WorkerEvent{
            .kind = WorkerEvent::Kind::kFailing, .error = pass.error(), .retry_in = delay});
      }
    }
    wait_unless_stopped(stop, delay);
  }
  return executed;
}

}  // namespace codemode
