// Calls to a tool declared non_blocking: through call_inline_if_non_blocking they run the broker on
// the adapter's own thread and answer before the call returns; every other way they go to the
// executor's call pool, as every call did before.
#include <future>
#include <optional>
#include <thread>

#include <gtest/gtest.h>

#include "support/executor_fixture.h"

namespace codemode {
namespace {

using testing::execute_options;

CodeProgram program_with_double_tool(bool non_blocking) {
  CodeProgramOptions options = testing::calculate_options();
  ToolOptions tool = testing::double_tool_options();
  tool.non_blocking = non_blocking;
  options.tools = {define_tool(tool).value()};
  return define_code_program(options).value();
}

struct Observed {
  std::thread::id adapter_thread;
  std::thread::id broker_thread;
  bool answered_before_return = false;
  std::optional<CodeToolOutcome> outcome;
};

// An adapter that calls number.double once through call_inline_if_non_blocking and notes which
// thread the broker ran on and whether the answer came before the call returned.
SandboxResult call_inline_once(Observed& seen, ToolBridge& tools) {
  seen.adapter_thread = std::this_thread::get_id();
  std::promise<CodeToolOutcome> answer;
  bool returned = false;
  tools.call_inline_if_non_blocking("number.double", Json{{"value", 4}},
                                    [&](CodeToolOutcome outcome) {
                                      seen.answered_before_return = !returned;
                                      answer.set_value(std::move(outcome));
                                    });
  returned = true;
  seen.outcome = answer.get_future().get();
  return SandboxResult::success(seen.outcome->ok() ? *seen.outcome->output() : Json(nullptr));
}

std::unique_ptr<CodeMode> mode_observing(Observed& seen, bool run_inline) {
  ToolBroker broker = [&seen](const Tool& tool, const Json& input, const BrokerContext& context) {
    seen.broker_thread = std::this_thread::get_id();
    return testing::doubling_broker()(tool, input, context);
  };
  return CodeMode::create(
             {.adapter = make_test_sandbox_adapter(
                  {.run = [&seen](const SandboxRequest&, ToolBridge& tools,
                                  std::stop_token) { return call_inline_once(seen, tools); }}),
              .invoke_tool = std::move(broker),
              .allow_test_adapter = true,
              .run_non_blocking_tools_inline = run_inline})
      .value();
}

TEST(InlineCall, ANonBlockingToolRunsOnTheAdaptersThreadBeforeTheCallReturns) {
  Observed seen;
  auto mode = mode_observing(seen, true);
  CodeExecutionOutcome outcome =
      mode->execute(program_with_double_tool(true), {{"value", 4}}, execute_options());
  ASSERT_EQ(outcome.status, OutcomeStatus::kSucceeded) << to_json(outcome).dump();
  EXPECT_EQ(*outcome.output, (Json{{"value", 8}}));
  EXPECT_EQ(seen.broker_thread, seen.adapter_thread);
  EXPECT_TRUE(seen.answered_before_return);
  // Accounted as any call: one settled call with its receipt.
  EXPECT_EQ(outcome.usage.tool_calls, 1);
  EXPECT_EQ(outcome.evidence.size(), 1u);
}

TEST(InlineCall, ABlockingToolGoesToThePoolEvenThroughTheInlineEntry) {
  Observed seen;
  auto mode = mode_observing(seen, true);
  CodeExecutionOutcome outcome =
      mode->execute(program_with_double_tool(false), {{"value", 4}}, execute_options());
  ASSERT_EQ(outcome.status, OutcomeStatus::kSucceeded) << to_json(outcome).dump();
  EXPECT_EQ(*outcome.output, (Json{{"value", 8}}));
  EXPECT_NE(seen.broker_thread, seen.adapter_thread);
}

TEST(InlineCall, AHostThatTurnsItOffGetsThePoolForEveryCall) {
  Observed seen;
  auto mode = mode_observing(seen, false);
  CodeExecutionOutcome outcome =
      mode->execute(program_with_double_tool(true), {{"value", 4}}, execute_options());
  ASSERT_EQ(outcome.status, OutcomeStatus::kSucceeded) << to_json(outcome).dump();
  EXPECT_NE(seen.broker_thread, seen.adapter_thread);
}

TEST(InlineCall, TheCapsStillRefuseBeforeTheBroker) {
  // An unlisted tool is refused on the calling thread by the allow-list, as through call().
  Observed seen;
  auto mode = CodeMode::create(
                  {.adapter = make_test_sandbox_adapter(
                       {.run =
                            [&seen](const SandboxRequest&, ToolBridge& tools, std::stop_token) {
                              tools.call_inline_if_non_blocking(
                                  "admin.secret", Json::object(),
                                  [&seen](CodeToolOutcome outcome) { seen.outcome = outcome; });
                              return SandboxResult::success(Json{{"value", 1}});
                            }}),
                   .invoke_tool = testing::doubling_broker(),
                   .allow_test_adapter = true})
                  .value();
  CodeExecutionOutcome outcome =
      mode->execute(program_with_double_tool(true), {{"value", 1}}, execute_options());
  EXPECT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  ASSERT_TRUE(seen.outcome.has_value());
  EXPECT_EQ(seen.outcome->rule(), "tool_not_listed");
  EXPECT_EQ(outcome.usage.tool_calls, 0);
}

TEST(InlineCall, NonBlockingIsNotPartOfTheDigest) {
  EXPECT_EQ(program_with_double_tool(true).digest(), program_with_double_tool(false).digest());
}

}  // namespace
}  // namespace codemode
