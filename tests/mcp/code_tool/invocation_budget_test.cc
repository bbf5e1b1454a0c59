// The per-invocation budgets codemode's broker counts in code mode: quota units (before dispatch,
// all or none, never given back) and host-result bytes (per call, then cumulative, charged only
// when delivered).
#include "mcp/code_tool/invocation_budget.h"

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "mcp/catalog/tool_results.h"

namespace codemode::mcp {
namespace {

Json text_of(std::size_t characters) { return Json{{"text", std::string(characters, 'x')}}; }

std::string rule_of(const Status& status) { return status.ok() ? "ok" : status.error().rule; }

TEST(InvocationBudgetTest, TheContainmentExampleStopsAtTheThirdResult) {
  // docs/mcp.md's example: per call 1,024, cumulative 2,048, results of 911 bytes.
  McpPolicy policy{.host_result_bytes = 1024, .cumulative_host_result_bytes = 2048};
  InvocationBudget budget(policy);
  ASSERT_EQ(json_text(text_of(900)).size(), 911u);
  EXPECT_EQ(rule_of(budget.charge_result(text_of(900))), "ok");
  EXPECT_EQ(rule_of(budget.charge_result(text_of(900))), "ok");
  const Status third = budget.charge_result(text_of(900));
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(third.error().rule, "cumulative_host_bytes_limit");
  EXPECT_EQ(third.error().message, "cumulative host-result byte budget exhausted");
  EXPECT_EQ(budget.delivered_bytes(), 1822);  // the refused result was not charged
  EXPECT_EQ(rule_of(budget.charge_result(text_of(200))), "ok");  // what still fits, fits
}

TEST(InvocationBudgetTest, AResultOverThePerCallCapIsNotChargedToTheTotal) {
  McpPolicy policy{.host_result_bytes = 64, .cumulative_host_result_bytes = 64};
  InvocationBudget budget(policy);
  const Status over = budget.charge_result(text_of(100));  // 111 bytes
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error().rule, "host_result_bytes_limit");
  EXPECT_EQ(over.error().message, "host result exceeds the per-call byte budget");
  EXPECT_EQ(budget.delivered_bytes(), 0);
  EXPECT_EQ(rule_of(budget.charge_result(text_of(53))), "ok");  // exactly 64 bytes
  EXPECT_EQ(budget.delivered_bytes(), 64);
}

TEST(InvocationBudgetTest, ConcurrentChargesNeverPassTheCumulativeCap) {
  McpPolicy policy{.host_result_bytes = 1024, .cumulative_host_result_bytes = 10'000};
  InvocationBudget budget(policy);
  std::atomic<int> delivered{0};
  std::vector<std::jthread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 50; ++i) delivered += budget.charge_result(text_of(89)).ok();  // 100 B
    });
  }
  threads.clear();
  EXPECT_EQ(delivered, 100);
  EXPECT_EQ(budget.delivered_bytes(), 10'000);
}

McpPolicy quota_policy() {
  return McpPolicy{.quota_classes = {{.name = "pages", .cap = 2, .tools = {"w.read", "w.list"}},
                                     {.name = "snapshots", .cap = 1, .tools = {"w.open"}},
                                     {.name = "writes", .cap = 3, .tools = {"w.open", "w.save"}}}};
}

TEST(InvocationBudgetTest, EachClassNamingTheToolGivesOneUnitUntilItsCap) {
  const McpPolicy policy = quota_policy();
  InvocationBudget budget(policy);
  EXPECT_EQ(rule_of(budget.reserve_units("w.read")), "ok");
  EXPECT_EQ(rule_of(budget.reserve_units("w.list")), "ok");
  const Status third = budget.reserve_units("w.read");
  ASSERT_FALSE(third.ok());
  EXPECT_EQ(third.error().code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(third.error().rule, "pages_limit");
  EXPECT_EQ(third.error().message, "page budget exhausted");
  EXPECT_EQ(budget.units_used(0), 2);
  EXPECT_EQ(rule_of(budget.reserve_units("w.other")), "ok");  // in no class: never limited
}

TEST(InvocationBudgetTest, AToolInSeveralClassesTakesAUnitOfEachOrNone) {
  const McpPolicy policy = quota_policy();
  InvocationBudget budget(policy);
  EXPECT_EQ(rule_of(budget.reserve_units("w.open")), "ok");
  EXPECT_EQ(budget.units_used(1), 1);
  EXPECT_EQ(budget.units_used(2), 1);
  EXPECT_EQ(rule_of(budget.reserve_units("w.open")), "snapshots_limit");
  EXPECT_EQ(budget.units_used(2), 1);  // refused by snapshots: writes gave nothing
  EXPECT_EQ(rule_of(budget.reserve_units("w.save")), "ok");
  EXPECT_EQ(rule_of(budget.reserve_units("w.save")), "ok");
  EXPECT_EQ(rule_of(budget.reserve_units("w.save")), "writes_limit");
}

TEST(InvocationBudgetTest, EachInvocationHasItsOwnUnitsAndBytes) {
  const McpPolicy policy = quota_policy();
  InvocationBudget first(policy);
  InvocationBudget second(policy);
  EXPECT_EQ(rule_of(first.reserve_units("w.open")), "ok");
  EXPECT_EQ(rule_of(second.reserve_units("w.open")), "ok");
}

}  // namespace
}  // namespace codemode::mcp
