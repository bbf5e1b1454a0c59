// Test doubles and helpers shared by the broker tests: a tool whose behaviour each test supplies,
// options that grant exactly what it needs, and a place for the threads asynchronous tools start.
#ifndef CODEMODE_TESTS_TOOLS_BROKER_TEST_SUPPORT_H_
#define CODEMODE_TESTS_TOOLS_BROKER_TEST_SUPPORT_H_

#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/broker.h"

namespace codemode::testing {

inline constexpr std::int64_t kCost = 5;
inline constexpr char kToolId[] = "test.tool";
inline constexpr char kCallId[] = "call-1";

inline constexpr char kInputSchema[] = R"({"type": "object", "required": ["n"],
    "properties": {"n": {"type": "integer"}, "note": {"type": "string"}}})";
inline constexpr char kOutputSchema[] = R"({"type": "object", "required": ["value"],
    "properties": {"value": {"type": "integer"}}})";

inline ToolOptions tool_options(ToolEffects effects, ToolExecuteFn execute) {
  return ToolOptions{.id = kToolId,
                     .version = "1",
                     .description = "A tool whose behaviour the test supplies.",
                     .input = Schema::compile(Json::parse(kInputSchema)).value(),
                     .output = Schema::compile(Json::parse(kOutputSchema)).value(),
                     .effects = effects,
                     .capabilities = {"cap.a", "cap.b"},
                     .cost_micros = kCost,
                     .timeout = std::chrono::milliseconds(5000),
                     .execute = std::move(execute)};
}

inline Tool make_tool(ToolOptions options) { return define_tool(std::move(options)).value(); }

inline Tool make_tool(ToolEffects effects, ToolExecuteFn execute) {
  return make_tool(tool_options(effects, std::move(execute)));
}

inline ToolExecuteFn succeed_with(Json output) {
  return
      [output](const Json&, const ToolContext&, ToolResponder respond) { respond.succeed(output); };
}

inline std::shared_ptr<Budget> make_budget(std::int64_t max_cost = 1000,
                                           std::int64_t max_calls = 100) {
  return Budget::create({.max_cost_micros = max_cost, .max_calls = max_calls}).value();
}

inline InvokeOptions invoke_options(const Tool& tool, std::shared_ptr<Budget> budget) {
  return InvokeOptions{.run_id = "run-1",
                       .call_id = kCallId,
                       .scope = {.principal_id = "alice", .project_id = "demo"},
                       .permissions = {.allow = required_grants(tool)},
                       .budget = std::move(budget)};
}

inline const Json& valid_input() {
  static const Json input = Json{{"n", 1}};
  return input;
}

inline ExecutionReceipt receipt(ExecutionState execution,
                                Disclosure disclosure = Disclosure::kWithheld) {
  return ExecutionReceipt{
      .call_id = kCallId, .tool_id = kToolId, .execution = execution, .disclosure = disclosure};
}

inline BudgetSnapshot ledger(std::int64_t spent, std::int64_t reserved, std::int64_t calls) {
  return BudgetSnapshot{.spent_micros = spent, .reserved_micros = reserved, .calls = calls};
}

inline void expect_refusal(const ToolOutcome& outcome, OutcomeStatus status, ErrorCode code,
                           std::string_view rule) {
  EXPECT_EQ(outcome.status, status);
  EXPECT_FALSE(outcome.output.has_value());
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, code);
  EXPECT_EQ(outcome.error->rule, rule);
  EXPECT_FALSE(outcome.error->message.empty());
}

inline constexpr char kUnknownMessage[] =
    "The external operation may have occurred. Reconcile its outcome before retrying.";

// Threads an asynchronous test tool starts; joined when the test ends so none outlives its state.
class ToolThreads {
 public:
  ~ToolThreads() {
    std::lock_guard lock(mu_);
    for (auto& thread : threads_) thread.join();
  }
  void start(std::function<void()> body) {
    std::lock_guard lock(mu_);
    threads_.emplace_back(std::move(body));
  }

 private:
  std::mutex mu_;
  std::vector<std::thread> threads_;
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_TOOLS_BROKER_TEST_SUPPORT_H_
