#include "soak/cancellation.h"

#include <utility>

namespace codemode::soak {

DelayedStop::DelayedStop(std::stop_source target, std::chrono::milliseconds delay)
    : target_(std::move(target)),
      delay_(delay),
      thread_([this](std::stop_token own) { wait_then_stop(std::move(own)); }) {}

DelayedStop::~DelayedStop() {
  thread_.request_stop();
  thread_.join();
}

void DelayedStop::arm() {
  std::lock_guard lock(mu_);
  armed_ = true;
  armed_changed_.notify_all();
}

void DelayedStop::wait_then_stop(std::stop_token own) {
  std::unique_lock lock(mu_);
  if (!armed_changed_.wait(lock, own, [this] { return armed_; })) return;
  armed_changed_.wait_for(lock, own, delay_, [] { return false; });
  if (own.stop_requested()) return;
  lock.unlock();  // the stop runs the executor's stop callbacks; hold nothing of ours
  target_.request_stop();
}

ToolBroker cancelling_broker(Cancellation when, ToolBroker inner, DelayedStop& stop) {
  switch (when) {
    case Cancellation::kNone:
      return inner;
    case Cancellation::kDuringToolCall:
      return [inner = std::move(inner), &stop](const Tool& tool, const Json& input,
                                               const BrokerContext& context) {
        stop.arm();
        return inner(tool, input, context);
      };
    case Cancellation::kAfterToolCall:
      return [inner = std::move(inner), &stop](const Tool& tool, const Json& input,
                                               const BrokerContext& context) {
        ToolOutcome outcome = inner(tool, input, context);
        stop.arm();
        return outcome;
      };
  }
  return inner;
}

}  // namespace codemode::soak
