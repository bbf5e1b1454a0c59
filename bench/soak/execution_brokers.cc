#include "soak/execution_brokers.h"

#include <utility>

namespace codemode::soak {

ExecutionBrokers::Registration::Registration(Registration&& other) noexcept
    : owner_(std::exchange(other.owner_, nullptr)), execution_id_(std::move(other.execution_id_)) {}

ExecutionBrokers::Registration::~Registration() {
  if (owner_ != nullptr) owner_->remove(execution_id_);
}

ExecutionBrokers::Registration ExecutionBrokers::add(std::string execution_id, ToolBroker broker) {
  std::lock_guard lock(mu_);
  brokers_[execution_id] = std::move(broker);
  return Registration(*this, std::move(execution_id));
}

ToolBroker ExecutionBrokers::router() {
  return [this](const Tool& tool, const Json& input, const BrokerContext& context) {
    return route(tool, input, context);
  };
}

ToolOutcome ExecutionBrokers::route(const Tool& tool, const Json& input,
                                    const BrokerContext& context) {
  ToolBroker broker;
  {
    std::lock_guard lock(mu_);
    auto found = brokers_.find(context.execution_id);
    if (found != brokers_.end()) broker = found->second;
  }
  // Called outside the lock: brokers block (soak.sleep), and calls run concurrently.
  if (broker) return broker(tool, input, context);
  // Unreachable while the REQUIRES above hold; refused before any effect, so the outcome shows it.
  return ToolOutcome::failed(
      Error::invalid_config("soak_unrouted", "The soak has no broker for this execution."));
}

void ExecutionBrokers::remove(const std::string& execution_id) {
  std::lock_guard lock(mu_);
  brokers_.erase(execution_id);
}

}  // namespace codemode::soak
