// ExecutionAbort is one execution's internal stop signal. The caller's stop_token (CANCELLED) and
// the wall timer (TIMEOUT) both feed it; whichever fires first decides the code. The adapter and
// every broker call of the execution watch its token.
//
// Thread-safety: abort and the accessors are thread-safe.
#ifndef CODEMODE_EXECUTOR_EXECUTION_ABORT_H_
#define CODEMODE_EXECUTOR_EXECUTION_ABORT_H_

#include <atomic>
#include <optional>
#include <stop_token>

#include "codemode/error.h"

namespace codemode::internal {

class ExecutionAbort {
 public:
  // Records `code` if nothing was recorded yet, then requests stop. Later calls change nothing.
  void abort(ErrorCode code) {
    int expected = 0;
    code_.compare_exchange_strong(expected, static_cast<int>(code));
    source_.request_stop();
  }

  // Stops the adapter after the execution ended, without recording an abort code.
  void stop() { source_.request_stop(); }

  std::optional<ErrorCode> code() const {
    const int code = code_.load();
    if (code == 0) return std::nullopt;
    return static_cast<ErrorCode>(code);
  }

  std::stop_token token() const { return source_.get_token(); }

 private:
  std::stop_source source_;
  std::atomic<int> code_{0};
};

}  // namespace codemode::internal

#endif  // CODEMODE_EXECUTOR_EXECUTION_ABORT_H_
