#include "perf/stats.h"

#include <algorithm>
#include <cmath>

namespace codemode::perf {
namespace {

double nearest_rank(const std::vector<double>& sorted, double fraction) {
  const double rank = std::ceil(fraction * static_cast<double>(sorted.size()));
  const std::size_t index = rank < 1 ? 0 : static_cast<std::size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

}  // namespace

std::optional<Distribution> distribution(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  return Distribution{.count = values.size(),
                      .median = nearest_rank(values, 0.5),
                      .p90 = nearest_rank(values, 0.9),
                      .max = values.back()};
}

std::optional<double> ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b || *b <= 0) return std::nullopt;
  return *a / *b;
}

}  // namespace codemode::perf
