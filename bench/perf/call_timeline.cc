#include "perf/call_timeline.h"

#include <algorithm>
#include <utility>

namespace codemode::perf {

ToolBroker CallTimeline::wrap(ToolBroker inner) {
  return [this, inner = std::move(inner)](const Tool& tool, const Json& input,
                                          const BrokerContext& context) {
    record(context.execution_id);
    return inner(tool, input, context);
  };
}

void CallTimeline::record(const std::string& execution_id) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mu_);
  arrivals_[execution_id].push_back(now);
}

std::optional<double> CallTimeline::take_span_micros(const std::string& execution_id) {
  std::vector<std::chrono::steady_clock::time_point> arrivals;
  {
    std::lock_guard lock(mu_);
    auto it = arrivals_.find(execution_id);
    if (it == arrivals_.end()) return std::nullopt;
    arrivals = std::move(it->second);
    arrivals_.erase(it);
  }
  if (arrivals.size() < 2) return std::nullopt;
  // Concurrent calls may be recorded out of order: the clock is read before the lock is taken.
  const auto [first, last] = std::minmax_element(arrivals.begin(), arrivals.end());
  const std::chrono::duration<double, std::micro> span = *last - *first;
  return span.count() / static_cast<double>(arrivals.size() - 1);
}

}  // namespace codemode::perf
