// invoke_tool, step by step (see broker.h): each refusal's status, code, rule and receipt, and the
// budget afterwards. Timing (asynchronous answers, timeouts, cancellation) is in
// broker_timing_test.cc.
#include "codemode/broker.h"

#include <atomic>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tools/broker_test_support.h"

namespace codemode::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(InvokeToolTest, SucceedsWithOutputReleasedReceiptAndSettledCost) {
  Tool tool = make_tool(ToolEffects::kRead, succeed_with(Json{{"value", 7}}));
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  EXPECT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  EXPECT_EQ(outcome.output, (Json{{"value", 7}}));
  EXPECT_FALSE(outcome.error.has_value());
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kSucceeded, Disclosure::kReleased));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

TEST(InvokeToolTest, ExecuteAndGuardsSeeTheCallsIdentity) {
  std::vector<ToolContext> seen;
  std::atomic<int> stoppable{0};  // checked during the call: the call's stop_source ends with it
  ToolOptions options = tool_options(
      ToolEffects::kNone, [&](const Json&, const ToolContext& context, ToolResponder respond) {
        seen.push_back(context);
        if (context.stop_token.stop_possible() && !context.stop_token.stop_requested()) {
          stoppable += 1;
        }
        respond.succeed(Json{{"value", 1}});
      });
  options.guards.input = [&](const Json&, const ToolContext& context) {
    seen.push_back(context);
    if (context.stop_token.stop_possible() && !context.stop_token.stop_requested()) stoppable += 1;
    return GuardVerdict::kAllow;
  };
  options.guards.output = options.guards.input;
  Tool tool = make_tool(std::move(options));
  ASSERT_TRUE(invoke_tool(tool, valid_input(), invoke_options(tool, make_budget())).ok());
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(stoppable, 3);
  for (const ToolContext& context : seen) {
    EXPECT_EQ(context.run_id, "run-1");
    EXPECT_EQ(context.call_id, kCallId);
    EXPECT_EQ(context.scope, (Scope{.principal_id = "alice", .project_id = "demo"}));
  }
}

struct OptionCase {
  std::string name;
  std::function<void(InvokeOptions&)> spoil;
  std::string rule = "invoke_options";
};

// Names the case in test listings (gtest would otherwise dump its bytes).
void PrintTo(const OptionCase& c, std::ostream* out) { *out << c.name; }

class InvokeToolOptionsTest : public ::testing::TestWithParam<OptionCase> {};

TEST_P(InvokeToolOptionsTest, BadOptionIsInvalidConfigWithoutReceiptOrExecution) {
  std::atomic<int> executed{0};
  Tool tool = make_tool(ToolEffects::kNone, [&](const Json&, const ToolContext&, ToolResponder r) {
    executed += 1;
    r.succeed(Json{{"value", 1}});
  });
  auto budget = make_budget();
  InvokeOptions options = invoke_options(tool, budget);
  GetParam().spoil(options);
  ToolOutcome outcome = invoke_tool(tool, valid_input(), options);
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kInvalidConfig, GetParam().rule);
  EXPECT_FALSE(outcome.receipt.has_value());
  EXPECT_EQ(executed, 0);
  EXPECT_EQ(budget->snapshot(), ledger(0, 0, 0));
}

INSTANTIATE_TEST_SUITE_P(
    Options, InvokeToolOptionsTest,
    ::testing::Values(
        OptionCase{"EmptyRunId", [](InvokeOptions& o) { o.run_id = ""; }},
        OptionCase{"BlankRunId", [](InvokeOptions& o) { o.run_id = " \xC2\xA0 "; }},
        OptionCase{"RunIdOf257", [](InvokeOptions& o) { o.run_id = std::string(257, 'r'); }},
        OptionCase{"EmptyCallId", [](InvokeOptions& o) { o.call_id = ""; }},
        OptionCase{"BlankCallId", [](InvokeOptions& o) { o.call_id = "\t"; }},
        OptionCase{"CallIdOf257", [](InvokeOptions& o) { o.call_id = std::string(257, 'c'); }},
        OptionCase{"EmptyPrincipal", [](InvokeOptions& o) { o.scope.principal_id = ""; }},
        OptionCase{"ProjectOf257",
                   [](InvokeOptions& o) { o.scope.project_id = std::string(257, 'p'); }},
        OptionCase{"NoBudget", [](InvokeOptions& o) { o.budget = nullptr; }},
        OptionCase{"ZeroMaxInputBytes", [](InvokeOptions& o) { o.max_input_bytes = 0; }},
        OptionCase{"ZeroMaxOutputBytes", [](InvokeOptions& o) { o.max_output_bytes = 0; }},
        OptionCase{"EmptyGrant", [](InvokeOptions& o) { o.permissions.allow.push_back(""); },
                   "permissions"},
        OptionCase{"TooManyGrants",
                   [](InvokeOptions& o) { o.permissions.allow.resize(4097, "grant"); },
                   "permissions"}),
    [](const ::testing::TestParamInfo<OptionCase>& info) { return info.param.name; });

TEST(InvokeToolTest, AcceptsIdentitiesAtTheirLimits) {
  Tool tool = make_tool(ToolEffects::kNone, succeed_with(Json{{"value", 1}}));
  InvokeOptions options = invoke_options(tool, make_budget());
  options.run_id = std::string(256, 'r');
  options.call_id = std::string(256, 'c');
  options.scope = {.principal_id = std::string(256, 'a'), .project_id = " "};
  EXPECT_TRUE(invoke_tool(tool, valid_input(), options).ok());
}

TEST(InvokeToolTest, MovedFromToolIsInvalidConfig) {
  Tool tool = make_tool(ToolEffects::kNone, succeed_with(Json{{"value", 1}}));
  InvokeOptions options = invoke_options(tool, make_budget());
  Tool taken = std::move(tool);
  ToolOutcome outcome =
      invoke_tool(tool, valid_input(), options);  // NOLINT(bugprone-use-after-move)
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kInvalidConfig, "invoke_options");
}

TEST(InvokeToolTest, MissingOneCapabilityIsBlockedBeforeAnythingRuns) {
  std::atomic<int> ran{0};
  ToolOptions options =
      tool_options(ToolEffects::kWrite, [&](const Json&, const ToolContext&, ToolResponder r) {
        ran += 1;
        r.succeed(Json{{"value", 1}});
      });
  options.guards.input = [&](const Json&, const ToolContext&) {
    ran += 1;
    return GuardVerdict::kAllow;
  };
  Tool tool = make_tool(std::move(options));
  auto budget = make_budget();
  InvokeOptions invoke = invoke_options(tool, budget);
  std::erase(invoke.permissions.allow, "cap.b");
  // Even an input the schema would refuse gets the same answer: permissions come first.
  for (const Json& input : {valid_input(), Json("not an object")}) {
    ToolOutcome outcome = invoke_tool(tool, input, invoke);
    expect_refusal(outcome, OutcomeStatus::kBlocked, ErrorCode::kPermissionDenied, "permission");
    EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kNotStarted));
  }
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(budget->snapshot(), ledger(0, 0, 0));
}

TEST(InvokeToolTest, InputOverMaxInputBytesIsInvalidInput) {
  Tool tool = make_tool(ToolEffects::kNone, succeed_with(Json{{"value", 1}}));
  auto budget = make_budget();
  InvokeOptions options = invoke_options(tool, budget);
  options.max_input_bytes = 7;  // {"n":1} is exactly 7 bytes
  EXPECT_TRUE(invoke_tool(tool, valid_input(), options).ok());
  ToolOutcome outcome = invoke_tool(tool, Json{{"n", 10}}, options);
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kInvalidInput, "tool_input_bytes");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kNotStarted));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

TEST(InvokeToolTest, InputThatIsNotPlainJsonIsInvalidInput) {
  Tool tool = make_tool(ToolEffects::kNone, succeed_with(Json{{"value", 1}}));
  auto budget = make_budget();
  ToolOutcome outcome =
      invoke_tool(tool, Json{{"n", 1}, {"x", std::nan("")}}, invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kInvalidInput, "tool_input_bytes");
  EXPECT_EQ(budget->snapshot(), ledger(0, 0, 0));
}

TEST(InvokeToolTest, InputFailingTheSchemaIsInvalidInput) {
  Tool tool = make_tool(ToolEffects::kNone, succeed_with(Json{{"value", 1}}));
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, Json{{"n", "one"}}, invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kInvalidInput, "input_schema");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kNotStarted));
  EXPECT_EQ(budget->snapshot(), ledger(0, 0, 0));
}

// The caller is told where and why, so it can fix the call; the value it sent is never repeated.
TEST(InvokeToolTest, InputSchemaRefusalNamesTheArgumentAndTheRule) {
  Tool tool = make_tool(ToolEffects::kNone, succeed_with(Json{{"value", 1}}));
  const InvokeOptions options = invoke_options(tool, make_budget());
  const auto message = [&](const Json& input) {
    ToolOutcome outcome = invoke_tool(tool, input, options);
    return outcome.error ? outcome.error->message : "(succeeded)";
  };
  EXPECT_EQ(message(Json{{"n", "SECRET-7f3a"}}), "/n: must be integer");
  EXPECT_EQ(message(Json{{"n", 1}, {"note", 2}}), "/note: must be string");
  EXPECT_EQ(message(Json{{"note", "SECRET-7f3a"}}), R"((root): missing required property "n")");
  EXPECT_EQ(message(Json::array()), "(root): must be object");
}

struct GuardCase {
  std::string name;
  ToolGuard guard;
  ErrorCode code;
};

const std::vector<GuardCase>& guard_cases() {
  static const std::vector<GuardCase> cases = {
      {"Blocks", [](const Json&, const ToolContext&) { return GuardVerdict::kBlock; },
       ErrorCode::kGuardBlocked},
      {"Throws",
       [](const Json&, const ToolContext&) -> GuardVerdict { throw std::runtime_error("down"); },
       ErrorCode::kGuardUnavailable},
      {"BadVerdict", [](const Json&, const ToolContext&) { return static_cast<GuardVerdict>(7); },
       ErrorCode::kGuardUnavailable},
  };
  return cases;
}

TEST(InvokeToolTest, InputGuardRefusalIsBlockedBeforeTheBudget) {
  for (const GuardCase& test : guard_cases()) {
    SCOPED_TRACE(test.name);
    std::atomic<int> executed{0};
    ToolOptions options = tool_options(ToolEffects::kWrite, [&](const Json&, const ToolContext&,
                                                                ToolResponder) { executed += 1; });
    options.guards.input = test.guard;
    Tool tool = make_tool(std::move(options));
    auto budget = make_budget();
    ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
    expect_refusal(outcome, OutcomeStatus::kBlocked, test.code, "input_guard");
    EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kNotStarted));
    EXPECT_EQ(executed, 0);
    EXPECT_EQ(budget->snapshot(), ledger(0, 0, 0));
  }
}

TEST(InvokeToolTest, OutputGuardRefusalWithholdsASucceededCall) {
  for (const GuardCase& test : guard_cases()) {
    SCOPED_TRACE(test.name);
    ToolOptions options = tool_options(ToolEffects::kWrite, succeed_with(Json{{"value", 1}}));
    options.guards.output = test.guard;
    Tool tool = make_tool(std::move(options));
    auto budget = make_budget();
    ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
    expect_refusal(outcome, OutcomeStatus::kBlocked, test.code, "output_guard");
    EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kSucceeded));
    EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
  }
}

TEST(InvokeToolTest, CostAboveTheMoneyLeftIsBlockedWithTheBudgetsRule) {
  std::atomic<int> executed{0};
  Tool tool = make_tool(ToolEffects::kNone,
                        [&](const Json&, const ToolContext&, ToolResponder) { executed += 1; });
  auto budget = make_budget(kCost - 1, 10);
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kBlocked, ErrorCode::kBudgetExceeded, "budget_cost");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kNotStarted));
  EXPECT_EQ(executed, 0);
  EXPECT_EQ(budget->snapshot(), ledger(0, 0, 0));
}

TEST(InvokeToolTest, NoCallsLeftIsBlockedWithTheBudgetsRule) {
  Tool tool = make_tool(ToolEffects::kNone, succeed_with(Json{{"value", 1}}));
  auto budget = make_budget(1000, 1);
  ASSERT_TRUE(invoke_tool(tool, valid_input(), invoke_options(tool, budget)).ok());
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kBlocked, ErrorCode::kBudgetExceeded, "budget_calls");
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

TEST(InvokeToolTest, FailIsToolFailedChargedItsCost) {
  Tool tool = make_tool(ToolEffects::kWrite,
                        [](const Json&, const ToolContext&, ToolResponder r) { r.fail(); });
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kToolFailed, "tool_failed");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kFailed));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

TEST(InvokeToolTest, FailWithTextCarriesItBesideTheFixedMessage) {
  Tool tool = make_tool(ToolEffects::kWrite, [](const Json&, const ToolContext&, ToolResponder r) {
    r.fail("upstream said: rate limited");
  });
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  ASSERT_NO_FATAL_FAILURE(
      expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kToolFailed, "tool_failed"));
  EXPECT_EQ(outcome.error->message.find("rate limited"), std::string::npos);
  EXPECT_EQ(outcome.tool_message, "upstream said: rate limited");
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

TEST(InvokeToolTest, OnlyAFailureCarriesToolWords) {
  Tool tool = make_tool(ToolEffects::kWrite, [](const Json&, const ToolContext&, ToolResponder r) {
    r.refuse();
    r.fail("too late");
  });
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, make_budget()));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kToolFailed, "tool_refused");
  EXPECT_FALSE(outcome.tool_message.has_value());
}

TEST(InvokeToolTest, RefuseIsToolFailedNotStartedAndFree) {
  Tool tool = make_tool(ToolEffects::kWrite,
                        [](const Json&, const ToolContext&, ToolResponder r) { r.refuse(); });
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kToolFailed, "tool_refused");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kNotStarted));
  EXPECT_EQ(budget->snapshot(), ledger(0, 0, 1));
}

ToolExecuteFn throws() {
  return [](const Json&, const ToolContext&, ToolResponder) -> void {
    throw std::runtime_error("boom");
  };
}

ToolExecuteFn returns_without_answering() {
  return [](const Json&, const ToolContext&, ToolResponder) {};
}

TEST(InvokeToolTest, ThrowingToolWithoutEffectsFailedAndIsCharged) {
  Tool tool = make_tool(ToolEffects::kNone, throws());
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kToolFailed, "tool_failed");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kFailed));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

// A tool with any effects, read included, that throws may have acted before it threw: its call is
// outcome_unknown with its cost held, as for a timeout (only a tool whose effects are none simply
// failed; docs/architecture.md, "Decisions").
TEST(InvokeToolTest, ThrowingToolWithEffectsIsOutcomeUnknownWithItsCostHeld) {
  for (ToolEffects effects : {ToolEffects::kRead, ToolEffects::kWrite, ToolEffects::kHost}) {
    SCOPED_TRACE(std::string(to_string(effects)));
    Tool tool = make_tool(effects, throws());
    auto budget = make_budget();
    ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
    ASSERT_NO_FATAL_FAILURE(expect_refusal(outcome, OutcomeStatus::kOutcomeUnknown,
                                           ErrorCode::kOutcomeUnknown, "tool_failed"));
    EXPECT_EQ(outcome.error->message, kUnknownMessage);
    EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kUnknown));
    EXPECT_EQ(budget->snapshot(), ledger(0, kCost, 1));
  }
}

TEST(InvokeToolTest, UnansweredToolIsFailedWithoutEffectsAndUnknownWithThem) {
  Tool pure = make_tool(ToolEffects::kNone, returns_without_answering());
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(pure, valid_input(), invoke_options(pure, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kToolFailed, "tool_failed");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kFailed));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));

  Tool writer = make_tool(ToolEffects::kWrite, returns_without_answering());
  outcome = invoke_tool(writer, valid_input(), invoke_options(writer, budget));
  expect_refusal(outcome, OutcomeStatus::kOutcomeUnknown, ErrorCode::kOutcomeUnknown,
                 "tool_failed");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kUnknown));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, kCost, 2));
}

TEST(InvokeToolTest, AnAnswerGivenBeforeAThrowStands) {
  Tool tool = make_tool(ToolEffects::kWrite, [](const Json&, const ToolContext&, ToolResponder r) {
    r.succeed(Json{{"value", 3}});
    throw std::runtime_error("after the answer");
  });
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, make_budget()));
  EXPECT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  EXPECT_EQ(outcome.output, (Json{{"value", 3}}));
}

TEST(InvokeToolTest, OutputOverMaxOutputBytesIsInvalidOutputWithheld) {
  Tool tool = make_tool(ToolEffects::kRead, succeed_with(Json{{"value", 12345}}));
  auto budget = make_budget();
  InvokeOptions options = invoke_options(tool, budget);
  options.max_output_bytes = 14;  // {"value":12345} is 15 bytes
  ToolOutcome outcome = invoke_tool(tool, valid_input(), options);
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kInvalidOutput, "tool_output_bytes");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kSucceeded));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
  options.max_output_bytes = 15;
  EXPECT_TRUE(invoke_tool(tool, valid_input(), options).ok());
}

TEST(InvokeToolTest, OutputFailingTheSchemaIsInvalidOutputWithheld) {
  Tool tool = make_tool(ToolEffects::kRead, succeed_with(Json{{"value", "seven"}}));
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kInvalidOutput, "output_schema");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kSucceeded));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

TEST(InvokeToolTest, NoMessageEchoesTheInputOrWhatTheToolSaid) {
  const std::string secret = "SECRET-7f3a";
  std::vector<ToolOptions> tools = {
      tool_options(ToolEffects::kWrite,
                   [&](const Json&, const ToolContext&, ToolResponder) -> void {
                     throw std::runtime_error(secret);
                   }),
      tool_options(ToolEffects::kNone, succeed_with(Json{{"value", secret}})),
      tool_options(ToolEffects::kNone, succeed_with(Json{{"value", 1}, {"note", secret}})),
      tool_options(ToolEffects::kNone, succeed_with(Json{{"value", 1}})),
  };
  tools[2].guards.output = [](const Json&, const ToolContext&) { return GuardVerdict::kBlock; };
  std::vector<ToolOutcome> outcomes;
  for (ToolOptions& options : tools) {
    Tool tool = make_tool(std::move(options));
    InvokeOptions invoke = invoke_options(tool, make_budget());
    outcomes.push_back(invoke_tool(tool, Json{{"n", 1}, {"note", secret}}, invoke));
    outcomes.push_back(invoke_tool(tool, Json{{"n", secret}}, invoke));
    invoke.max_input_bytes = 4;
    outcomes.push_back(invoke_tool(tool, Json{{"n", secret}}, invoke));
  }
  int refusals = 0;
  for (const ToolOutcome& outcome : outcomes) {
    if (!outcome.error) continue;
    ++refusals;
    EXPECT_THAT(outcome.error->message, Not(HasSubstr(secret)));
    EXPECT_THAT(outcome.error->rule, Not(HasSubstr(secret)));
  }
  EXPECT_EQ(refusals, 11);  // all but the plain tool's first call
}

TEST(InvokeToolTest, ConcurrentCallsShareOneBudgetExactly) {
  Tool tool = make_tool(ToolEffects::kRead, succeed_with(Json{{"value", 1}}));
  auto budget = make_budget(kMaxSafeInteger, 1000);
  std::atomic<int> succeeded{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        InvokeOptions options = invoke_options(tool, budget);
        options.call_id = "call-" + std::to_string(t) + "-" + std::to_string(i);
        if (invoke_tool(tool, valid_input(), options).ok()) succeeded += 1;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(succeeded, 200);
  EXPECT_EQ(budget->snapshot(), ledger(200 * kCost, 0, 200));
}

}  // namespace
}  // namespace codemode::testing
