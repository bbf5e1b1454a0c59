#include "mcp/connect_attempt.h"

#include <utility>

namespace codemode::mcp {

ConnectAttempt::ConnectAttempt(Connect connect)
    : thread_(
          [this, connect = std::move(connect)](std::stop_token abort) { run(abort, connect); }) {}

void ConnectAttempt::run(std::stop_token abort, const Connect& connect) {
  // A failed start's connection is released here, on this thread: its process is killed and
  // reaped without any waiter paying for it.
  Outcome outcome = connect(std::move(abort));
  std::lock_guard lock(mu_);
  outcome_.emplace(std::move(outcome));
  finished_.notify_all();
}

ConnectAttempt::Outcome ConnectAttempt::wait(std::stop_token stop) {
  std::unique_lock lock(mu_);
  if (!finished_.wait(lock, stop, [this] { return outcome_.has_value(); })) {
    return call_cancelled_error();
  }
  return *outcome_;
}

bool ConnectAttempt::usable() const {
  std::lock_guard lock(mu_);
  if (!outcome_) return true;
  return outcome_->ok() && (**outcome_)->alive();
}

}  // namespace codemode::mcp
