// The soak's plan is a pure function of its seed, starts with every kind once, and follows the
// kinds' weights.
#include "soak/plan.h"

#include <gtest/gtest.h>

#include "soak/tools.h"

namespace codemode::soak {
namespace {

std::vector<SoakKind> kinds() { return soak_kinds(make_soak_tools().value()).value(); }

TEST(SoakPlan, SameSeedGivesTheSamePlan) {
  const auto all = kinds();
  EXPECT_EQ(make_plan(all, 1000, 7), make_plan(all, 1000, 7));
}

TEST(SoakPlan, DifferentSeedsGiveDifferentPlans) {
  const auto all = kinds();
  EXPECT_NE(make_plan(all, 1000, 7), make_plan(all, 1000, 8));
}

TEST(SoakPlan, OpensWithEveryKindOnceInOrder) {
  const auto all = kinds();
  const auto plan = make_plan(all, 500, 1);
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(plan[i], i);
}

TEST(SoakPlan, SharesFollowTheWeights) {
  const auto all = kinds();
  int total_weight = 0;
  for (const SoakKind& kind : all) total_weight += kind.weight;
  constexpr std::size_t kExecutions = 200'000;
  const auto counts = planned_counts(make_plan(all, kExecutions, 3), all.size());
  for (std::size_t k = 0; k < all.size(); ++k) {
    const double share = static_cast<double>(counts[k]) / kExecutions;
    EXPECT_NEAR(share, static_cast<double>(all[k].weight) / total_weight, 0.005) << all[k].name;
  }
}

TEST(SoakPlan, ShorterThanTheKindListStillHasTheRequestedLength) {
  EXPECT_EQ(make_plan(kinds(), 3, 1).size(), 3u);
}

}  // namespace
}  // namespace codemode::soak
