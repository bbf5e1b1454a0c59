#include "mcp/code_tool/invocation_budget.h"

#include <algorithm>
#include <utility>

namespace codemode::mcp {
namespace {

bool names_tool(const QuotaClass& quota, std::string_view tool_id) {
  return std::find(quota.tools.begin(), quota.tools.end(), tool_id) != quota.tools.end();
}

Error limit_error(std::string rule, std::string message) {
  return Error::limit_exceeded(std::move(rule), std::move(message));
}

}  // namespace

InvocationBudget::InvocationBudget(const McpPolicy& policy)
    : policy_(policy), units_(policy.quota_classes.size(), 0) {}

Status InvocationBudget::reserve_units(std::string_view tool_id) {
  const std::vector<QuotaClass>& classes = policy_.quota_classes;
  std::lock_guard lock(mu_);
  for (std::size_t i = 0; i < classes.size(); ++i) {
    if (names_tool(classes[i], tool_id) && units_[i] >= classes[i].cap) {
      return limit_error(classes[i].name + "_limit", quota_exhausted_message(classes[i].name));
    }
  }
  for (std::size_t i = 0; i < classes.size(); ++i) {
    if (names_tool(classes[i], tool_id)) ++units_[i];
  }
  return {};
}

Status InvocationBudget::charge_result(const Json& output) {
  Result<std::size_t> bytes = check_json(output, {.max_bytes = kMeasureBytes});
  if (!bytes.ok() || static_cast<std::int64_t>(*bytes) > policy_.host_result_bytes) {
    return limit_error("host_result_bytes_limit", "host result exceeds the per-call byte budget");
  }
  return charge_cumulative(static_cast<std::int64_t>(*bytes));
}

Status InvocationBudget::charge_cumulative(std::int64_t bytes) {
  std::int64_t total = delivered_bytes_.load();
  do {
    if (total + bytes > policy_.cumulative_host_result_bytes) {
      return limit_error("cumulative_host_bytes_limit",
                         "cumulative host-result byte budget exhausted");
    }
  } while (!delivered_bytes_.compare_exchange_weak(total, total + bytes));
  return {};
}

std::int64_t InvocationBudget::units_used(std::size_t quota_class) const {
  std::lock_guard lock(mu_);
  return quota_class < units_.size() ? units_[quota_class] : 0;
}

}  // namespace codemode::mcp
