#include "mcp/downstream/connect_attempt.h"

#include <system_error>
#include <utility>

namespace codemode::mcp {
namespace {

// What a start that could not run gets, as DownstreamConnection::start reports it.
Error start_failed_error() {
  return Error::tool_failed("spawn_failed", "A child process could not be started.");
}

}  // namespace

ConnectAttempt::ConnectAttempt(Connect connect) {
  try {
    thread_ = std::jthread(
        [this, connect = std::move(connect)](std::stop_token abort) { run(abort, connect); });
  } catch (const std::system_error&) {
    outcome_.emplace(start_failed_error());  // no thread yet, so no lock needed
  }
}

void ConnectAttempt::run(std::stop_token abort, const Connect& connect) {
  // A failed start's connection is released here, on this thread: its process is killed and
  // reaped without any waiter paying for it.
  Outcome outcome = start_failed_error();
  try {
    outcome = connect(std::move(abort));
  } catch (...) {
    // Out of threads or memory while starting: an outcome all the same, so no waiter waits on.
  }
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
