#include "codemode/budget.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/json.h"

namespace codemode {
namespace {

std::shared_ptr<Budget> make_budget(std::int64_t max_cost, std::int64_t max_calls) {
  auto budget = Budget::create({.max_cost_micros = max_cost, .max_calls = max_calls});
  EXPECT_TRUE(budget.ok());
  return std::move(budget).value();
}

TEST(BudgetTest, CreateRefusesLimitsOutOfRange) {
  for (BudgetLimits limits :
       {BudgetLimits{.max_cost_micros = -1, .max_calls = 1},
        BudgetLimits{.max_cost_micros = kMaxSafeInteger + 1, .max_calls = 1},
        BudgetLimits{.max_cost_micros = 0, .max_calls = 0},
        BudgetLimits{.max_cost_micros = 0, .max_calls = kMaxSafeInteger + 1}}) {
    auto budget = Budget::create(limits);
    ASSERT_FALSE(budget.ok());
    EXPECT_EQ(budget.error().code, ErrorCode::kInvalidConfig);
    EXPECT_EQ(budget.error().rule, "budget");
  }
  EXPECT_TRUE(
      Budget::create({.max_cost_micros = kMaxSafeInteger, .max_calls = kMaxSafeInteger}).ok());
}

TEST(BudgetTest, ReferenceExampleOneCallOfCostOne) {
  auto budget = make_budget(10, 4);
  auto reservation = budget->reserve(1);
  ASSERT_TRUE(reservation.ok());
  ASSERT_TRUE(reservation->settle(1, 0).ok());
  EXPECT_EQ(budget->snapshot(),
            (BudgetSnapshot{.spent_micros = 1, .reserved_micros = 0, .calls = 1}));
}

TEST(BudgetTest, ReserveHoldsTheCostAndCountsTheCall) {
  auto budget = make_budget(10, 4);
  auto reservation = budget->reserve(6);
  ASSERT_TRUE(reservation.ok());
  EXPECT_EQ(reservation->reserved_micros(), 6);
  EXPECT_EQ(budget->snapshot(),
            (BudgetSnapshot{.spent_micros = 0, .reserved_micros = 6, .calls = 1}));
}

TEST(BudgetTest, ZeroCostBudgetAdmitsOnlyZeroCostCalls) {
  auto budget = make_budget(0, 20);
  EXPECT_TRUE(budget->reserve(0).ok());
  auto refused = budget->reserve(1);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kBudgetExceeded);
  EXPECT_EQ(refused.error().rule, "budget_cost");
}

TEST(BudgetTest, EveryAdmissionCountsAgainstMaxCalls) {
  auto budget = make_budget(0, 2);
  { auto released = budget->reserve(0); }  // released unsettled: the call still counts
  EXPECT_TRUE(budget->reserve(0).ok());
  auto refused = budget->reserve(0);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kBudgetExceeded);
  EXPECT_EQ(refused.error().rule, "budget_calls");
  EXPECT_EQ(budget->snapshot().calls, 2);
}

TEST(BudgetTest, MoneyLeftCountsBothSpentAndReserved) {
  auto budget = make_budget(10, 10);
  auto spent = budget->reserve(3);
  ASSERT_TRUE(spent->settle(3, 0).ok());
  auto held = budget->reserve(4);
  ASSERT_TRUE(held.ok());
  EXPECT_EQ(budget->reserve(4).error().rule, "budget_cost");
  EXPECT_TRUE(budget->reserve(3).ok());
}

TEST(BudgetTest, ReserveRefusesANegativeCost) {
  auto budget = make_budget(10, 10);
  auto refused = budget->reserve(-1);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(budget->snapshot().calls, 0);
}

TEST(BudgetTest, UnsettledReservationReleasesItsMoneyWhenDestroyed) {
  auto budget = make_budget(10, 4);
  { auto reservation = budget->reserve(7); }
  EXPECT_EQ(budget->snapshot(),
            (BudgetSnapshot{.spent_micros = 0, .reserved_micros = 0, .calls = 1}));
}

TEST(BudgetTest, SettleSpendsKnownAndKeepsUnknownReserved) {
  auto budget = make_budget(100, 4);
  auto reservation = budget->reserve(10);
  ASSERT_TRUE(reservation->settle(3, 5).ok());
  EXPECT_EQ(budget->snapshot(),
            (BudgetSnapshot{.spent_micros = 3, .reserved_micros = 5, .calls = 1}));
}

TEST(BudgetTest, SettlingMoreThanReservedIsRefusedButRecorded) {
  auto budget = make_budget(100, 4);
  auto reservation = budget->reserve(5);
  Status settled = reservation->settle(4, 3);
  ASSERT_FALSE(settled.ok());
  EXPECT_EQ(settled.error().code, ErrorCode::kBudgetExceeded);
  EXPECT_EQ(settled.error().rule, "budget_settlement");
  EXPECT_EQ(budget->snapshot(),
            (BudgetSnapshot{.spent_micros = 4, .reserved_micros = 3, .calls = 1}));
}

TEST(BudgetTest, SettlingTwiceIsAConflict) {
  auto budget = make_budget(100, 4);
  auto reservation = budget->reserve(5);
  ASSERT_TRUE(reservation->settle(5, 0).ok());
  Status again = reservation->settle(0, 0);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, ErrorCode::kConflict);
  EXPECT_EQ(again.error().rule, "budget_settled_twice");
  EXPECT_EQ(budget->snapshot().spent_micros, 5);
}

TEST(BudgetTest, NegativeSettlementIsRefusedAndLeavesTheReservationOpen) {
  auto budget = make_budget(100, 4);
  auto reservation = budget->reserve(5);
  EXPECT_EQ(reservation->settle(-1, 0).error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(budget->snapshot().reserved_micros, 5);
  EXPECT_TRUE(reservation->settle(2, 0).ok());
}

TEST(BudgetTest, MovedReservationSettlesOnlyThroughItsNewOwner) {
  auto budget = make_budget(100, 4);
  auto first = budget->reserve(5);
  BudgetReservation moved(std::move(*first));
  EXPECT_EQ(first->settle(5, 0).error().rule, "budget_settled_twice");
  ASSERT_TRUE(moved.settle(5, 0).ok());
  EXPECT_EQ(budget->snapshot(),
            (BudgetSnapshot{.spent_micros = 5, .reserved_micros = 0, .calls = 1}));
}

TEST(BudgetTest, MoveAssignmentReleasesTheReplacedReservation) {
  auto budget = make_budget(100, 4);
  auto target = budget->reserve(7);
  auto source = budget->reserve(5);
  *target = std::move(*source);
  EXPECT_EQ(budget->snapshot().reserved_micros, 5);
  ASSERT_TRUE(target->settle(5, 0).ok());
  EXPECT_EQ(budget->snapshot(),
            (BudgetSnapshot{.spent_micros = 5, .reserved_micros = 0, .calls = 2}));
}

TEST(BudgetTest, ReservationKeepsItsBudgetAlive) {
  auto budget = make_budget(100, 4);
  auto reservation = budget->reserve(5);
  std::weak_ptr<Budget> watch = budget;
  budget.reset();
  EXPECT_FALSE(watch.expired());
  EXPECT_TRUE(reservation->settle(5, 0).ok());
}

TEST(BudgetTest, ConcurrentReserveAndSettleKeepAnExactLedger) {
  constexpr int kThreads = 8;
  constexpr int kRounds =
      2000;  // a multiple of 4: each of the four endings happens kRounds / 4 times
  auto budget = make_budget(kMaxSafeInteger, kMaxSafeInteger);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kRounds; ++i) {
        auto reservation = budget->reserve(10);
        if (!reservation.ok()) continue;
        if (i % 4 == 0) (void)reservation->settle(10, 0);
        if (i % 4 == 1) (void)reservation->settle(3, 0);
        if (i % 4 == 2) (void)reservation->settle(0, 10);
        // i % 4 == 3: released by the destructor
      }
    });
  }
  for (auto& thread : threads) thread.join();
  constexpr std::int64_t kEach = kThreads * kRounds / 4;
  EXPECT_EQ(budget->snapshot(), (BudgetSnapshot{.spent_micros = kEach * 13,
                                                .reserved_micros = kEach * 10,
                                                .calls = kThreads * kRounds}));
}

TEST(BudgetTest, ConcurrentReservationsNeverOvershootTheLimit) {
  constexpr int kThreads = 8;
  auto budget = make_budget(100, 1'000'000);
  std::vector<std::vector<BudgetReservation>> held(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        if (auto reservation = budget->reserve(1); reservation.ok()) {
          held[t].push_back(std::move(reservation).value());
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  std::size_t admitted = 0;
  for (const auto& list : held) admitted += list.size();
  EXPECT_EQ(admitted, 100u);
  EXPECT_EQ(budget->snapshot(),
            (BudgetSnapshot{.spent_micros = 0, .reserved_micros = 100, .calls = 100}));
}

}  // namespace
}  // namespace codemode
