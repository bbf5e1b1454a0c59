// InvocationBudget: the budgets of one invocation of the code tool that codemode's broker counts
// itself, beside those the executor enforces (hostCalls, hostConcurrency, the program's limits):
//   quota classes               units, reserved before dispatch, never given back
//                               LIMIT_EXCEEDED, rule "<class>_limit"
//   hostResultBytes             each successful output, measured after dispatch
//                               LIMIT_EXCEEDED, rule host_result_bytes_limit
//   cumulativeHostResultBytes   the outputs delivered to the program, in total
//                               LIMIT_EXCEEDED, rule cumulative_host_bytes_limit
// Outputs are measured as compact JSON bytes (check_json), as finalResultBytes is. A refused
// output never reaches the worker; only delivered outputs are charged.
//
// Thread-safety: every method may be called from any thread.
#ifndef CODEMODE_MCP_CODE_TOOL_INVOCATION_BUDGET_H_
#define CODEMODE_MCP_CODE_TOOL_INVOCATION_BUDGET_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

#include "mcp/policy/mcp_policy.h"

namespace codemode::mcp {

// The bound for measuring a value that already passed the broker's own JSON boundary: it only keeps
// the measure finite.
inline constexpr std::size_t kMeasureBytes = 64u << 20;

class InvocationBudget {
 public:
  // Borrows `policy`, which must outlive this.
  explicit InvocationBudget(const McpPolicy& policy);

  // Before dispatch: one unit of every class naming `tool_id`, all or none. Refused by the first
  // such class (in config order) that has no unit left; then nothing is taken.
  Status reserve_units(std::string_view tool_id);

  // After a successful dispatch, before the program sees `output`: the per-call cap, then an
  // atomic charge of the cumulative total, made only when it stays within its cap.
  Status charge_result(const Json& output);

  std::int64_t delivered_bytes() const { return delivered_bytes_.load(); }
  std::int64_t units_used(std::size_t quota_class) const;

 private:
  Status charge_cumulative(std::int64_t bytes);

  const McpPolicy& policy_;
  mutable std::mutex mu_;
  std::vector<std::int64_t> units_;  // per policy_.quota_classes entry
  std::atomic<std::int64_t> delivered_bytes_ = 0;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_INVOCATION_BUDGET_H_
