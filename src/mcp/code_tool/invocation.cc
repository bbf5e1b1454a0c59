#include "mcp/code_tool/invocation.h"

namespace codemode::mcp {

InvocationRegistry::Registration::~Registration() {
  if (!registry_) return;
  std::lock_guard lock(registry_->mu_);
  registry_->invocations_.erase(execution_id_);
}

InvocationRegistry::Registration InvocationRegistry::add(std::string execution_id,
                                                         std::shared_ptr<Invocation> invocation) {
  std::lock_guard lock(mu_);
  invocations_[execution_id] = std::move(invocation);
  return Registration(*this, std::move(execution_id));
}

std::shared_ptr<Invocation> InvocationRegistry::find(std::string_view execution_id) const {
  std::lock_guard lock(mu_);
  const auto found = invocations_.find(execution_id);
  return found == invocations_.end() ? nullptr : found->second;
}

}  // namespace codemode::mcp
