// CallTimeline notes when each tool call of an execution reaches the broker, so the bench can give
// the time from one call to the next: in a program that awaits each call before making the next,
// that gap is one whole round trip (the worker's frame, the parent's checks and broker, the
// answer's frame, the worker's promise job) plus the few statements of the program's loop.
//
// Thread-safety: every method is thread-safe.
#ifndef CODEMODE_BENCH_PERF_CALL_TIMELINE_H_
#define CODEMODE_BENCH_PERF_CALL_TIMELINE_H_

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "codemode/code_mode.h"

namespace codemode::perf {

class CallTimeline {
 public:
  // A broker that records the call's arrival, then calls `inner`. REQUIRES: this outlives it.
  ToolBroker wrap(ToolBroker inner);

  // (last arrival - first arrival) / (calls - 1) for `execution_id`, in microseconds, and forgets
  // the execution; nullopt when it made fewer than two calls.
  std::optional<double> take_span_micros(const std::string& execution_id);

 private:
  void record(const std::string& execution_id);

  std::mutex mu_;
  std::unordered_map<std::string, std::vector<std::chrono::steady_clock::time_point>> arrivals_;
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_CALL_TIMELINE_H_
