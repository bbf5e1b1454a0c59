#include "perf/stats.h"

#include <gtest/gtest.h>

namespace codemode::perf {
namespace {

TEST(DistributionTest, NearestRankMedianAndP90) {
  const std::optional<Distribution> d = distribution({10, 1, 9, 2, 8, 3, 7, 4, 6, 5});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->count, 10u);
  EXPECT_EQ(d->median, 5);
  EXPECT_EQ(d->p90, 9);
  EXPECT_EQ(d->max, 10);
}

TEST(DistributionTest, EmptySampleHasNone) { EXPECT_FALSE(distribution({})); }

TEST(RatioTest, MissingOrNonPositiveDenominatorHasNone) {
  EXPECT_EQ(ratio(3.0, 2.0), 1.5);
  EXPECT_FALSE(ratio(3.0, 0.0));
  EXPECT_FALSE(ratio(std::nullopt, 2.0));
}

}  // namespace
}  // namespace codemode::perf
