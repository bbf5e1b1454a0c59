#include "soak/plan.h"

#include <random>

namespace codemode::soak {
namespace {

// The kind whose cumulative weight first exceeds `draw`. REQUIRES: draw < sum of weights.
std::size_t kind_at(const std::vector<SoakKind>& kinds, std::uint64_t draw) {
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const auto weight = static_cast<std::uint64_t>(kinds[i].weight);
    if (draw < weight) return i;
    draw -= weight;
  }
  return kinds.size() - 1;
}

}  // namespace

std::vector<std::size_t> make_plan(const std::vector<SoakKind>& kinds, std::size_t executions,
                                   std::uint64_t seed) {
  std::uint64_t total_weight = 0;
  for (const SoakKind& kind : kinds) total_weight += static_cast<std::uint64_t>(kind.weight);
  std::mt19937_64 random(seed);
  std::vector<std::size_t> plan;
  plan.reserve(executions);
  for (std::size_t i = 0; i < executions; ++i) {
    // A modulo draw, not std::uniform_int_distribution, whose algorithm the standard leaves to
    // each library; the bias over a 64-bit range is far below anything a soak could notice.
    plan.push_back(i < kinds.size() ? i : kind_at(kinds, random() % total_weight));
  }
  return plan;
}

std::vector<std::size_t> planned_counts(const std::vector<std::size_t>& plan, std::size_t kinds) {
  std::vector<std::size_t> counts(kinds, 0);
  for (std::size_t kind : plan) ++counts[kind];
  return counts;
}

}  // namespace codemode::soak
