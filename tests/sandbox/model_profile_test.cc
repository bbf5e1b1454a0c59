// The model profile through the process adapter and the real worker: what it adds to a program's
// world (console, timers, the web globals), fan-out that waits for a free slot, errors located in
// the program's own text, and that the standard profile keeps none of it.
#include <chrono>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "codemode/code_mode.h"
#include "codemode/process_adapter.h"
#include "codemode/program.h"

#include "support/adapter_options.h"
#include "support/executor_fixture.h"
#include "support/process_support.h"
#include "support/program_fixture.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;

CodeProgram program(std::string source, ProgramProfile profile = ProgramProfile::kModel,
                    CodeLimits limits = testing::reference_limits(),
                    ProgramLanguage language = ProgramLanguage::kJavaScript) {
  CodeProgramOptions options = testing::calculate_options();
  options.language = language;
  options.profile = profile;
  options.source = std::move(source);
  options.input = Schema::any();
  options.output = Schema::any();
  options.limits = limits;
  return define_code_program(options).value();
}

CodeExecutionOutcome run(const CodeProgram& program,
                         ToolBroker broker = testing::doubling_broker()) {
  auto mode = CodeMode::create({.adapter = make_process_adapter(testing::adapter_options(
                                    testing::worker_binary().value_or(""))),
                                .invoke_tool = std::move(broker)})
                  .value();
  return mode->execute(program, nullptr, testing::execute_options());
}

class ModelProfileTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_WORKER(); }
  void TearDown() override {
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty())
        << "a worker or tool process was left behind";
  }
};

TEST_F(ModelProfileTest, TheManifestNamesTheModelProfileOnly) {
  EXPECT_EQ(program("() => 1").manifest().at("profile"), "model");
  EXPECT_FALSE(program("() => 1", ProgramProfile::kStandard).manifest().contains("profile"));
  EXPECT_NE(program("() => 1").digest(), program("() => 1", ProgramProfile::kStandard).digest());
}

TEST_F(ModelProfileTest, ConsoleLinesComeBackInTheOutcome) {
  const CodeExecutionOutcome outcome =
      run(program("() => { console.log('total', 3, {a: 1}); console.warn('careful'); return 1; }"));
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  ASSERT_TRUE(outcome.logs.has_value());
  EXPECT_EQ(outcome.logs->lines, (std::vector<std::string>{"total 3 {\"a\":1}", "[warn] careful"}));
  EXPECT_EQ(outcome.logs->dropped, 0u);
  EXPECT_EQ(to_json(outcome).at("logs"), Json({"total 3 {\"a\":1}", "[warn] careful"}));
}

TEST_F(ModelProfileTest, ConsoleLinesSurviveAFailureAndStopAtTheirCap) {
  const CodeExecutionOutcome outcome = run(program(
      "() => { for (let i = 0; i < 5000; i++) console.log('line ' + i); throw new Error('no'); }"));
  ASSERT_FALSE(outcome.ok());
  ASSERT_TRUE(outcome.logs.has_value());
  EXPECT_EQ(outcome.logs->lines.front(), "line 0");
  EXPECT_GT(outcome.logs->dropped, 0u);
  EXPECT_EQ(outcome.logs->lines.size() + outcome.logs->dropped, 5000u);
  EXPECT_LE(Json(outcome.logs->lines).dump().size(), 16u << 10);
}

TEST_F(ModelProfileTest, TheStandardProfileHasNoneOfIt) {
  const CodeExecutionOutcome outcome = run(
      program("() => ['console', 'setTimeout', 'clearTimeout', 'setInterval', 'queueMicrotask', "
              "'__codemodeCompileCode'].filter((n) => typeof globalThis[n] !== 'undefined')",
              ProgramProfile::kStandard));
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json::array());
  EXPECT_FALSE(outcome.logs.has_value());
}

TEST_F(ModelProfileTest, TimersFireInDueOrderAndCanBeCleared) {
  const CodeExecutionOutcome outcome = run(program(
      "async () => { const seen = []; setTimeout(() => seen.push('b'), 20); "
      "setTimeout(() => seen.push('a'), 1); const gone = setTimeout(() => seen.push('x'), 5); "
      "clearTimeout(gone); queueMicrotask(() => seen.push('micro')); "
      "let ticks = 0; await new Promise((resolve) => { const id = setInterval(() => { "
      "if (++ticks === 3) { clearInterval(id); resolve(); } }, 2); }); "
      "await new Promise((resolve) => setTimeout(resolve, 30)); return [seen, ticks]; }"));
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json::parse(R"([["micro","a","b"],3])"));
}

TEST_F(ModelProfileTest, ATimerWaitsWhileAToolCallIsInFlight) {
  testing::Counted counted = testing::counting_broker(50ms);
  const CodeExecutionOutcome outcome = run(
      program("async (input, tools) => { let fired = false; setTimeout(() => { fired = true; }, 5);"
              " const r = await tools.call('number.double', {value: 2}); "
              "return [r.output.value, fired]; }"),
      counted.broker);
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json::parse("[4,true]"));
}

TEST_F(ModelProfileTest, AProgramWaitingOnlyForATimerPastItsWallTimeTimesOut) {
  CodeLimits limits = testing::reference_limits();
  limits.wall_time_millis = 300;
  const CodeExecutionOutcome outcome =
      run(program("() => new Promise((resolve) => setTimeout(resolve, 60000))",
                  ProgramProfile::kModel, limits));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.error->code, ErrorCode::kTimeout) << to_json(outcome);
}

TEST_F(ModelProfileTest, AThrowingTimerCallbackEndsTheProgramWithItsError) {
  const CodeExecutionOutcome outcome = run(program(
      "() => new Promise(() => { setTimeout(() => { throw new RangeError('late'); }, 1); })"));
  ASSERT_FALSE(outcome.ok());
  ASSERT_TRUE(outcome.program_error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.program_error->name, "RangeError");
  EXPECT_EQ(outcome.program_error->message, "late");
}

TEST_F(ModelProfileTest, FanOutPastTheConcurrencyLimitWaitsForASlot) {
  CodeLimits limits = testing::reference_limits();
  limits.max_tool_calls = 8;
  limits.max_tool_concurrency = 2;
  testing::Counted counted = testing::counting_broker(20ms);
  const CodeExecutionOutcome outcome =
      run(program("async (input, tools) => (await Promise.all([1, 2, 3, 4, 5, 6].map((value) =>"
                  "  tools.call('number.double', { value })))).map((r) =>"
                  "  r.status === 'succeeded' ? r.output.value : r.error.code)",
                  ProgramProfile::kModel, limits),
          counted.broker);
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json({2, 4, 6, 8, 10, 12}));
  EXPECT_EQ(*counted.calls, 6);
}

TEST_F(ModelProfileTest, CallsPastMaxToolCallsAreStillRefusedAtOnce) {
  CodeLimits limits = testing::reference_limits();  // 4 calls, 2 at once
  testing::Counted counted = testing::counting_broker(10ms);
  const CodeExecutionOutcome outcome =
      run(program("async (input, tools) => (await Promise.all([1, 2, 3, 4, 5].map((value) =>"
                  "  tools.call('number.double', { value })))).map((r) =>"
                  "  r.status === 'succeeded' ? r.output.value : r.error.code)",
                  ProgramProfile::kModel, limits),
          counted.broker);
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json({2, 4, 6, 8, "LIMIT_EXCEEDED"}));
  EXPECT_EQ(*counted.calls, 4);
}

TEST_F(ModelProfileTest, AnUncaughtErrorIsLocatedInTheProgramsText) {
  const CodeExecutionOutcome outcome =
      run(program("() => {\n  const a = 1;\n  return a + missing;\n}"));
  ASSERT_TRUE(outcome.program_error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.program_error->name, "ReferenceError");
  ASSERT_TRUE(outcome.program_error->location.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.program_error->location->line, 3);
  EXPECT_EQ(outcome.program_error->location->source_line, "  return a + missing;");
  const Json json = to_json(outcome).at("programError");
  EXPECT_EQ(json.at("line"), 3);
  EXPECT_TRUE(json.contains("column"));
}

TEST_F(ModelProfileTest, ASyntaxErrorIsLocatedInTheProgramsText) {
  const CodeExecutionOutcome outcome = run(program("() => {\n  let x = 1;\n  return (x + ;\n}"));
  ASSERT_TRUE(outcome.program_error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.program_error->name, "SyntaxError");
  ASSERT_TRUE(outcome.program_error->location.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.program_error->location->line, 3);
  EXPECT_EQ(outcome.program_error->location->column, 15);
  EXPECT_EQ(outcome.program_error->location->source_line, "  return (x + ;");
}

TEST_F(ModelProfileTest, AReferenceToAnotherRuntimesGlobalSaysWhatToUseInstead) {
  const CodeExecutionOutcome outcome =
      run(program("async () => (await fetch('https://x.test')).json()"));
  ASSERT_TRUE(outcome.program_error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.program_error->name, "ReferenceError");
  EXPECT_TRUE(outcome.program_error->message.starts_with(
      "fetch is not defined. The sandbox has no network"))
      << outcome.program_error->message;
  const CodeExecutionOutcome standard = run(program("() => fetch('x')", ProgramProfile::kStandard));
  ASSERT_TRUE(standard.program_error.has_value());
  EXPECT_EQ(standard.program_error->message, "fetch is not defined");
}

}  // namespace
}  // namespace codemode
