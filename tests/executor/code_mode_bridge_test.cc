// The tool bridge as a program sees it: routing through the broker, the allow-list, call and
// concurrency caps, byte caps, fixed messages, receipts, usage and evidence.
#include <algorithm>
#include <atomic>
#include <fstream>
#include <future>
#include <latch>
#include <optional>
#include <semaphore>
#include <thread>

#include <gtest/gtest.h>

#include "codemode/budget.h"

#include "support/executor_fixture.h"

namespace codemode {
namespace {

using testing::execute_options;

TEST(CodeModeBridge, RoutesAPermittedCallThroughTheStandardBroker) {
  auto budget = Budget::create({.max_cost_micros = 10, .max_calls = 4}).value();
  std::optional<BrokerContext> seen;
  ToolBroker standard =
      standard_broker({.permissions = {.allow = {"tool:number.double"}}, .budget = budget});
  ToolBroker recording = [&](const Tool& tool, const Json& input, const BrokerContext& context) {
    seen = context;
    EXPECT_EQ(input, (Json{{"value", 6}}));
    return standard(tool, input, context);
  };
  auto mode = testing::make_mode(testing::call_double, recording);
  CodeProgram program = testing::calculate_program();
  CodeExecutionOutcome outcome = mode->execute(program, {{"value", 6}}, execute_options());
  ASSERT_EQ(outcome.status, OutcomeStatus::kSucceeded) << to_json(outcome).dump();
  EXPECT_EQ(*outcome.output, (Json{{"value", 12}}));
  EXPECT_EQ(outcome.usage, (CodeExecutionUsage{1, 0, 1, 0, 4}));
  ASSERT_EQ(outcome.evidence.size(), 1u);
  EXPECT_EQ(outcome.evidence[0].run_id, "run-1");
  EXPECT_EQ(outcome.evidence[0].receipt,
            (ExecutionReceipt{"execution-1:code:1", "number.double", ExecutionState::kSucceeded,
                              Disclosure::kReleased}));
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->program_digest, program.digest());
  EXPECT_EQ(seen->execution_id, "execution-1");
  EXPECT_EQ(seen->scope, (Scope{"local", "demo"}));
  EXPECT_EQ(budget->snapshot(), (BudgetSnapshot{1, 0, 1}));
}

TEST(CodeModeBridge, DeniesUnlistedToolsAndClosesWhenTheAdapterReturns) {
  std::atomic<int> broker_calls{0};
  ToolBridge* retained = nullptr;
  std::optional<CodeToolOutcome> denied;
  auto mode = testing::make_mode(
      [&](const SandboxRequest&, ToolBridge& tools, std::stop_token) {
        denied = tools.call_and_wait("admin.secret", Json::object());
        retained = &tools;
        return SandboxResult::success(Json{{"value", 1}});
      },
      [&](const Tool&, const Json&, const BrokerContext&) {
        ++broker_calls;
        return ToolOutcome::failed(Error::tool_failed("x", "x"));
      });
  // The bridge outlives the adapter call only inside execute; a call during the adapter's return
  // path is refused. Check the denial and the closed bridge through a second program.
  CodeExecutionOutcome outcome =
      mode->execute(testing::calculate_program(), {{"value", 1}}, execute_options());
  EXPECT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  ASSERT_TRUE(denied.has_value());
  EXPECT_EQ(denied->status(), OutcomeStatus::kBlocked);
  EXPECT_EQ(denied->code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(denied->message(), "The tool call was not permitted.");
  EXPECT_EQ(denied->rule(), "tool_not_listed");
  EXPECT_EQ(broker_calls, 0);
  EXPECT_EQ(outcome.usage.tool_calls, 0);
}

TEST(CodeModeBridge, RefusesCallsAfterTheProgramFinished) {
  // A call admitted before the adapter returned settles afterwards; its callback (still inside
  // execute, which waits for it) tries another call on the now-closed bridge.
  std::optional<CodeToolOutcome> late;
  auto mode = testing::make_mode(
      [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
        tools.call("number.double", request.input, [&tools, &late](CodeToolOutcome) {
          late = tools.call_and_wait("number.double", {{"value", 1}});
        });
        return SandboxResult::success(Json{{"value", 1}});
      },
      [](const Tool& tool, const Json& input, const BrokerContext& context) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return testing::doubling_broker()(tool, input, context);
      });
  CodeExecutionOutcome outcome =
      mode->execute(testing::calculate_program(), {{"value", 1}}, execute_options());
  EXPECT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  EXPECT_EQ(outcome.usage.tool_calls, 1);
  ASSERT_TRUE(late.has_value());
  EXPECT_EQ(late->status(), OutcomeStatus::kFailed);
  EXPECT_EQ(late->code(), ErrorCode::kConflict);
  EXPECT_EQ(late->message(), "The execution has finished; it accepts no more tool calls.");
  EXPECT_EQ(late->rule(), "bridge_closed");
}

TEST(CodeModeBridge, RefusesConcurrentCallsPastTheLimitWithoutQueueing) {
  auto options = testing::calculate_options();
  options.limits.max_tool_calls = 2;  // room for the second call: only concurrency refuses it
  options.limits.max_tool_concurrency = 1;
  CodeProgram program = define_code_program(options).value();
  std::binary_semaphore release{0};
  std::atomic<int> broker_calls{0};
  ToolBroker blocking = [&](const Tool& tool, const Json& input, const BrokerContext& context) {
    ++broker_calls;
    release.acquire();
    return testing::doubling_broker()(tool, input, context);
  };
  std::optional<CodeToolOutcome> second;
  auto mode = testing::make_mode(
      [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
        std::promise<CodeToolOutcome> first;
        tools.call("number.double", request.input,
                   [&](CodeToolOutcome outcome) { first.set_value(std::move(outcome)); });
        second = tools.call_and_wait("number.double", request.input);
        release.release();
        return SandboxResult::success(*first.get_future().get().output());
      },
      blocking);
  CodeExecutionOutcome outcome = mode->execute(program, {{"value", 2}}, execute_options());
  ASSERT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  EXPECT_EQ(*outcome.output, (Json{{"value", 4}}));
  ASSERT_TRUE(second.has_value());
  EXPECT_EQ(second->code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(second->message(),
            "The tool call exceeded a limit, such as the program's maxToolCalls or "
            "maxToolConcurrency.");
  EXPECT_EQ(second->rule(), "max_tool_concurrency");
  EXPECT_EQ(broker_calls, 1);
  EXPECT_EQ(outcome.usage, (CodeExecutionUsage{1, 0, 1, 0, 2}));
}

TEST(CodeModeBridge, RefusesCallsPastMaxToolCalls) {
  std::vector<ErrorCode> codes;
  std::vector<std::string> rules;
  auto mode = testing::make_mode(
      [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
        for (int i = 0; i < 6; ++i) {
          CodeToolOutcome outcome = tools.call_and_wait("number.double", request.input);
          codes.push_back(outcome.ok() ? ErrorCode{} : outcome.code());
          if (!outcome.ok()) rules.push_back(outcome.rule());
        }
        return SandboxResult::success(request.input);
      },
      testing::doubling_broker());
  CodeExecutionOutcome outcome =
      mode->execute(testing::calculate_program(), {{"value", 1}}, execute_options());
  ASSERT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  EXPECT_EQ(codes, (std::vector<ErrorCode>{ErrorCode{}, ErrorCode{}, ErrorCode{}, ErrorCode{},
                                           ErrorCode::kLimitExceeded, ErrorCode::kLimitExceeded}));
  EXPECT_EQ(rules, (std::vector<std::string>{"max_tool_calls", "max_tool_calls"}));
  EXPECT_EQ(outcome.usage.tool_calls, 4);
}

TEST(CodeModeBridge, OversizedToolInputKeepsItsSlotButIsNotCounted) {
  std::atomic<int> broker_calls{0};
  std::optional<CodeToolOutcome> refused;
  auto mode = testing::make_mode(
      [&](const SandboxRequest&, ToolBridge& tools, std::stop_token) {
        refused = tools.call_and_wait("number.double", {{"pad", std::string(10'000, 'x')}});
        return SandboxResult::success(Json{{"value", 1}});
      },
      [&](const Tool& tool, const Json& input, const BrokerContext& context) {
        ++broker_calls;
        return testing::doubling_broker()(tool, input, context);
      });
  CodeExecutionOutcome outcome =
      mode->execute(testing::calculate_program(), {{"value", 1}}, execute_options());
  ASSERT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  ASSERT_TRUE(refused.has_value());
  EXPECT_EQ(refused->code(), ErrorCode::kInvalidInput);
  EXPECT_EQ(refused->rule(), "max_tool_input_bytes");
  EXPECT_EQ(broker_calls, 0);
  EXPECT_EQ(outcome.usage.tool_calls, 0);
}

std::size_t mapping_count() {
  std::ifstream maps("/proc/self/maps");
  std::size_t lines = 0;
  for (std::string line; std::getline(maps, line);) ++lines;
  return lines;
}

TEST(CodeModeBridge, SequentialCallsDoNotLeaveAThreadStackPerCall) {
  // Each thread keeps its stack mapped; 300 calls must not leave 300 stacks behind (the executor's
  // call pool reuses its threads).
  auto options = testing::calculate_options();
  options.limits.max_tool_calls = 300;
  CodeProgram program = define_code_program(options).value();
  std::size_t most_mappings = 0;
  const std::size_t before = mapping_count();
  auto mode = testing::make_mode(
      [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
        for (int i = 0; i < 300; ++i) {
          tools.call_and_wait("number.double", request.input);
          most_mappings = std::max(most_mappings, mapping_count());
        }
        return SandboxResult::success(request.input);
      },
      testing::doubling_broker());
  CodeExecutionOutcome outcome = mode->execute(program, {{"value", 1}}, execute_options());
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(outcome.usage.tool_calls, 300);
  EXPECT_LT(most_mappings, before + 100);
}

TEST(CodeModeBridge, NoBrokerMessageReachesTheProgram) {
  std::optional<CodeToolOutcome> seen;
  auto mode = testing::make_mode(
      [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
        seen = tools.call_and_wait("number.double", request.input);
        return SandboxResult::success(request.input);
      },
      [](const Tool& tool, const Json&, const BrokerContext& context) {
        return ToolOutcome::failed(Error::budget_exceeded("budget_cost", "SECRET provider text"),
                                   testing::receipt_for(context, tool, ExecutionState::kNotStarted,
                                                        Disclosure::kWithheld));
      });
  CodeExecutionOutcome outcome =
      mode->execute(testing::calculate_program(), {{"value", 1}}, execute_options());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->status(), OutcomeStatus::kBlocked);
  EXPECT_EQ(seen->code(), ErrorCode::kBudgetExceeded);
  EXPECT_EQ(seen->message(), "The tool call did not fit the remaining budget.");
  EXPECT_EQ(seen->rule(), "budget_cost");
  EXPECT_EQ(seen->to_json().dump().find("SECRET"), std::string::npos);
  EXPECT_EQ(to_json(outcome).dump().find("SECRET"), std::string::npos);
  EXPECT_EQ(outcome.usage, (CodeExecutionUsage{1, 0, 0, 0, 4}));
}

// An input_schema refusal tells the program where its input failed, in words the bridge writes
// from the tool's own schema: never the broker's text, and the fixed message when the schema
// accepts the input.
TEST(CodeModeBridge, AnInputSchemaRefusalIsExplainedByTheToolsSchema) {
  std::vector<std::string> messages;
  auto mode = testing::make_mode(
      [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
        for (const Json& input : {Json{{"value", "SECRET"}}, Json{{"value", 1}}}) {
          messages.push_back(tools.call_and_wait("number.double", input).message());
        }
        return SandboxResult::success(request.input);
      },
      [](const Tool& tool, const Json&, const BrokerContext& context) {
        return ToolOutcome::failed(Error::invalid_input("input_schema", "SECRET broker text"),
                                   testing::receipt_for(context, tool, ExecutionState::kNotStarted,
                                                        Disclosure::kWithheld));
      });
  CodeExecutionOutcome outcome =
      mode->execute(testing::calculate_program(), {{"value", 1}}, execute_options());
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(messages,
            (std::vector<std::string>{"/value: must be number",
                                      "The tool input was rejected: it is not plain JSON within "
                                      "maxToolInputBytes, or it does not match the tool schema."}));
}

// The broker's rule names the check that failed the call; one that is not a rule name (it could
// carry text) is shown as the code in lower case.
TEST(CodeModeBridge, TheBrokersRuleReachesTheProgramOnlyAsARuleName) {
  std::vector<std::string> rules;
  std::vector<std::string> broker_rules{"host_result_bytes_limit", "Quota: /home/me/secret",
                                        std::string(65, 'a'), ""};
  auto options = testing::calculate_options();
  options.limits.max_tool_calls = 4;
  CodeProgram program = define_code_program(options).value();
  std::atomic<std::size_t> next{0};
  auto mode = testing::make_mode(
      [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
        for (int i = 0; i < 4; ++i) {
          rules.push_back(tools.call_and_wait("number.double", request.input).rule());
        }
        return SandboxResult::success(request.input);
      },
      [&](const Tool& tool, const Json&, const BrokerContext& context) {
        return ToolOutcome::failed(Error::limit_exceeded(broker_rules[next++], "m"),
                                   testing::receipt_for(context, tool, ExecutionState::kNotStarted,
                                                        Disclosure::kWithheld));
      });
  CodeExecutionOutcome outcome = mode->execute(program, {{"value", 1}}, execute_options());
  ASSERT_TRUE(outcome.ok());
  EXPECT_EQ(rules, (std::vector<std::string>{"host_result_bytes_limit", "limit_exceeded",
                                             "limit_exceeded", "limit_exceeded"}));
}

// A tool that failed with its own words (ToolResponder::fail(text)) shows them; the bridge checks
// the bounds again, since a broker may build an outcome by hand, and shows them for a tool
// failure only.
TEST(CodeModeBridge, AToolsOwnWordsReachTheProgramOnlyForAToolFailure) {
  struct Case {
    ErrorCode code;
    std::string rule;
    std::string tool_message;
    std::string shown;
  };
  const std::string fixed = "The tool call failed.";
  const std::vector<Case> cases{
      {ErrorCode::kToolFailed, "tool_failed", "rate limited, retry in 5 s",
       "rate limited, retry in 5 s"},
      {ErrorCode::kToolFailed, "tool_failed", std::string(1030, 'x'), std::string(1024, 'x')},
      {ErrorCode::kToolFailed, "tool_failed", "bad \xff", fixed},
      {ErrorCode::kToolFailed, "tool_failed", "", fixed},
      {ErrorCode::kToolFailed, "tool_refused", "not shown", fixed},
      {ErrorCode::kBudgetExceeded, "budget_cost", "not shown",
       "The tool call did not fit the remaining budget."},
  };
  auto options = testing::calculate_options();
  options.limits.max_tool_calls = static_cast<std::int64_t>(cases.size());
  CodeProgram program = define_code_program(options).value();
  std::vector<std::string> shown;
  std::atomic<std::size_t> next{0};
  auto mode = testing::make_mode(
      [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
          shown.push_back(tools.call_and_wait("number.double", request.input).message());
        }
        return SandboxResult::success(request.input);
      },
      [&](const Tool& tool, const Json&, const BrokerContext& context) {
        const Case& c = cases[next++];
        ToolOutcome outcome = ToolOutcome::failed(
            Error::with_code(c.code, c.rule, "fixed"),
            testing::receipt_for(context, tool, ExecutionState::kFailed, Disclosure::kWithheld));
        outcome.tool_message = c.tool_message;
        return outcome;
      });
  ASSERT_TRUE(mode->execute(program, {{"value", 1}}, execute_options()).ok());
  ASSERT_EQ(shown.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i) EXPECT_EQ(shown[i], cases[i].shown) << i;
}

}  // namespace
}  // namespace codemode
