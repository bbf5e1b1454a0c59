// The process adapter with the real codemode-worker: the catalog example end to end, the limits a
// program meets on the way (calls, concurrency, bytes, output shape, wall time, cancellation), and
// recovery after a worker dies.
#include "codemode/process_adapter.h"

#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/command_tool.h"

#include "core/sanitizer_build.h"
#include "sandbox/process/process_adapter_impl.h"
#include "sandbox/process/worker_launcher.h"
#include "support/adapter_options.h"
#include "support/catalog_fixture.h"
#include "support/executor_fixture.h"
#include "support/process_support.h"
#include "support/timing.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;
using testing::any_json_program;

std::shared_ptr<SandboxAdapter> real_adapter() {
  return make_process_adapter(testing::adapter_options(testing::worker_binary().value_or("")));
}

CodeExecutionOutcome run(const CodeProgram& program, const Json& input, ToolBroker broker,
                         std::shared_ptr<SandboxAdapter> adapter = real_adapter(),
                         std::stop_token stop = {}) {
  auto mode =
      CodeMode::create({.adapter = std::move(adapter), .invoke_tool = std::move(broker)}).value();
  ExecuteOptions options = testing::execute_options();
  options.stop_token = stop;
  return mode->execute(program, input, options);
}

class ProcessAdapterTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_WORKER(); }
  void TearDown() override {
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty())
        << "a worker or tool process was left behind";
  }
};

TEST_F(ProcessAdapterTest, RunsTheSpecExampleThroughTheCppApi) {
  const CodeExecutionOutcome outcome =
      run(testing::catalog_total_program(), {{"skus", {"ab", "cde"}}}, testing::catalog_broker());
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json({{"totalCents", 500}}));
  EXPECT_EQ(outcome.usage, (CodeExecutionUsage{.tool_calls = 2}));
  ASSERT_EQ(outcome.evidence.size(), 2u);
  EXPECT_EQ(outcome.evidence[0].receipt.execution, ExecutionState::kSucceeded);
}

TEST_F(ProcessAdapterTest, RunsTheSpecExampleWithTheCommandTool) {
  const std::string dir = std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog";
  std::string text;
  {
    std::ifstream file(dir + "/tools.json");
    text.assign(std::istreambuf_iterator<char>(file), {});
  }
  Result<std::vector<Tool>> tools =
      load_command_tools(parse_json(text).value(), {.base_directory = dir});
  ASSERT_TRUE(tools.ok()) << tools.error().message;
  const CodeExecutionOutcome outcome = run(testing::catalog_total_program(*tools),
                                           {{"skus", {"ab", "cde"}}}, testing::catalog_broker());
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json({{"totalCents", 500}}));
  EXPECT_EQ(outcome.usage.tool_calls, 2);
}

TEST_F(ProcessAdapterTest, IsAvailableOnlyWithAnExecutableWorker) {
  EXPECT_TRUE(real_adapter()->is_available());
  EXPECT_FALSE(
      make_process_adapter({.worker_path = "/nonexistent/codemode-worker"})->is_available());
  EXPECT_FALSE(
      make_process_adapter({.worker_path = std::string(CODEMODE_SOURCE_DIR) + "/CMakeLists.txt"})
          ->is_available());
  EXPECT_FALSE(make_process_adapter({.worker_path = CODEMODE_SOURCE_DIR})->is_available());
  // Executable but not a worker that starts (as when the loader cannot find libmozjs-102, which
  // exits 127): the --probe run must succeed.
  EXPECT_FALSE(make_process_adapter({.worker_path = "/bin/false"})->is_available());
}

TEST_F(ProcessAdapterTest, AStackQuotaOutsideItsRangeMakesTheAdapterUnavailable) {
  for (std::int64_t stack : {kMinEngineStackBytes - 1, kMaxEngineStackBytes + 1, std::int64_t{0}}) {
    EXPECT_FALSE(make_process_adapter(
                     {.worker_path = testing::worker_binary().value_or(""), .stack_bytes = stack})
                     ->is_available())
        << stack;
  }
  EXPECT_TRUE(make_process_adapter({.worker_path = testing::worker_binary().value_or(""),
                                    .stack_bytes = kMinEngineStackBytes})
                  ->is_available());
}

TEST_F(ProcessAdapterTest, UnavailableWorkerIsUnsupportedProfile) {
  const CodeExecutionOutcome outcome =
      run(any_json_program("(input) => input"), {{"value", 1}}, testing::doubling_broker(),
          make_process_adapter({.worker_path = "/nonexistent/codemode-worker"}));
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(outcome.error->rule, "adapter_unavailable");
}

TEST_F(ProcessAdapterTest, ProgramErrorComesBackAsProgramError) {
  const CodeExecutionOutcome outcome =
      run(any_json_program("() => { throw new TypeError('bad sku'); }"), nullptr,
          testing::doubling_broker());
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kToolFailed);
  EXPECT_EQ(outcome.error->rule, "program_error");
  EXPECT_EQ(outcome.program_error,
            (ProgramError{
                "TypeError", "bad sku",
                ProgramErrorLocation{.line = 1,
                                     .column = 15,
                                     .source_line = "() => { throw new TypeError('bad sku'); }"}}));
}

void expect_invalid_output(const CodeExecutionOutcome& outcome, std::string_view rule) {
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kInvalidOutput);
  EXPECT_EQ(outcome.error->rule, rule);
}

TEST_F(ProcessAdapterTest, CyclicResultIsInvalidOutput) {
  expect_invalid_output(run(any_json_program("() => { const a = {}; a.self = a; return a; }"),
                            nullptr, testing::doubling_broker()),
                        "output_cycle");
}

TEST_F(ProcessAdapterTest, UndefinedResultIsInvalidOutput) {
  expect_invalid_output(
      run(any_json_program("() => undefined"), nullptr, testing::doubling_broker()),
      "output_not_json");
}

TEST_F(ProcessAdapterTest, OversizedResultIsInvalidOutput) {
  expect_invalid_output(  // maxOutputBytes is 4096
      run(any_json_program("() => 'x'.repeat(5000)"), nullptr, testing::doubling_broker()),
      "max_output_bytes");
}

// Each way a result is not JSON reaches the caller as its own rule, through the frame protocol.
TEST_F(ProcessAdapterTest, EachInvalidOutputHasItsOwnRule) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"() => ({n: 1n})", "output_bigint"},
      {"() => ['\\ud800']", "output_lone_surrogate"},
      {"() => { let a = 1; for (let i = 0; i < 40; i++) a = [a]; return a; }",
       "output_depth_limit"},
      {"() => ({constructor: 1})", "output_reserved_key"},
      {"() => Symbol('s')", "output_not_json"},
  };
  for (const auto& [source, rule] : cases) {
    SCOPED_TRACE(source);
    expect_invalid_output(run(any_json_program(source), nullptr, testing::doubling_broker()), rule);
  }
}

TEST_F(ProcessAdapterTest, OversizedInputIsInvalidInput) {
  const CodeExecutionOutcome outcome =
      run(any_json_program("(input) => input"), std::string(5000, 'x'), testing::doubling_broker());
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kInvalidInput);
  EXPECT_EQ(outcome.error->rule, "max_input_bytes");
}

TEST_F(ProcessAdapterTest, OversizedToolInputNeverReachesTheBroker) {
  testing::Counted counted = testing::counting_broker();
  const CodeExecutionOutcome outcome =
      run(any_json_program("async (input, tools) => (await tools.call('number.double', "
                           "{ value: 1, pad: 'x'.repeat(3000) })).error.code"),
          nullptr, counted.broker);
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, "INVALID_INPUT");  // maxToolInputBytes is 2048
  EXPECT_EQ(*counted.calls, 0);
}

TEST_F(ProcessAdapterTest, CallsPastMaxToolCallsAreRefusedInsideTheSandbox) {
  CodeLimits limits = testing::reference_limits();
  limits.max_tool_calls = 2;
  limits.max_tool_concurrency = 1;
  testing::Counted counted = testing::counting_broker();
  const CodeExecutionOutcome outcome = run(
      any_json_program("async (input, tools) => { const codes = [];"
                       "  for (let i = 0; i < 4; i++) {"
                       "    const r = await tools.call('number.double', { value: i });"
                       "    codes.push(r.status === 'succeeded' ? r.output.value : r.error.code); }"
                       "  return codes; }",
                       limits),
      nullptr, counted.broker);
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json({0, 2, "LIMIT_EXCEEDED", "LIMIT_EXCEEDED"}));
  EXPECT_EQ(*counted.calls, 2);
  EXPECT_EQ(outcome.usage.tool_calls, 2);
}

TEST_F(ProcessAdapterTest, CallsPastMaxToolConcurrencyAreRefusedNotQueued) {
  CodeLimits limits = testing::reference_limits();
  limits.max_tool_concurrency = 1;
  testing::Counted counted = testing::counting_broker(100ms);
  const CodeExecutionOutcome outcome =
      run(any_json_program("async (input, tools) => (await Promise.all([1, 2, 3].map((value) =>"
                           "  tools.call('number.double', { value })))).map((r) =>"
                           "  r.status === 'succeeded' ? r.output.value : r.error.code)",
                           limits),
          nullptr, counted.broker);
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json({2, "LIMIT_EXCEEDED", "LIMIT_EXCEEDED"}));
  EXPECT_EQ(*counted.calls, 1);
}

// number.double declared non_blocking: the broker runs on the thread that reads the worker's
// frames, which for the process adapter is the thread that called execute.
Tool non_blocking_double_tool() {
  ToolOptions options = testing::double_tool_options();
  options.non_blocking = true;
  return define_tool(options).value();
}

TEST_F(ProcessAdapterTest, ANonBlockingToolIsAnsweredOnTheExecutingThread) {
  CodeLimits limits = testing::reference_limits();
  limits.max_tool_calls = 4;
  std::vector<std::thread::id> broker_threads;
  std::mutex mu;
  ToolBroker recording = [&](const Tool& tool, const Json& input, const BrokerContext& context) {
    {
      std::lock_guard lock(mu);
      broker_threads.push_back(std::this_thread::get_id());
    }
    return testing::doubling_broker()(tool, input, context);
  };
  const CodeExecutionOutcome outcome =
      run(any_json_program(
              "async (input, tools) => { let v = 1;"
              "  for (let i = 0; i < 3; i++) {"
              "    v = (await tools.call('number.double', { value: v })).output.value; }"
              "  const both = await Promise.all([tools.call('number.double', { value: v })]);"
              "  return both[0].output.value; }",
              limits, {non_blocking_double_tool()}),
          nullptr, recording);
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json(16));
  EXPECT_EQ(outcome.usage.tool_calls, 4);
  ASSERT_EQ(broker_threads.size(), 4u);
  for (const std::thread::id& id : broker_threads) EXPECT_EQ(id, std::this_thread::get_id());
}

TEST_F(ProcessAdapterTest, ABlockingToolIsAnsweredOnACallThread) {
  std::thread::id broker_thread;
  ToolBroker recording = [&](const Tool& tool, const Json& input, const BrokerContext& context) {
    broker_thread = std::this_thread::get_id();
    return testing::doubling_broker()(tool, input, context);
  };
  const CodeExecutionOutcome outcome =
      run(any_json_program("async (input, tools) =>"
                           "  (await tools.call('number.double', { value: 2 })).output.value"),
          nullptr, recording);
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  EXPECT_EQ(*outcome.output, Json(4));
  EXPECT_NE(broker_thread, std::this_thread::get_id());
}

// A command tool that never answers within the wall time: the execution ends TIMEOUT and the
// tool's process is killed with the worker (TearDown checks no child is left).
Tool sleeping_command_tool(const char* effects) {
  Json file{{"tools",
             {{{"id", "slow.sleep"},
               {"version", "1"},
               {"description", "Sleeps far longer than any test waits."},
               {"effects", effects},
               {"command", {"/bin/sleep", "30"}}}}}};
  return load_command_tools(file).value().at(0);
}

// The wall time of the slow-tool tests: it must fire mid-call, so the worker must have started and
// made its call first. A sanitized JIT worker in scripts/test's lanes, beside the stress test, once
// took longer than 300 ms to get there (CI), so sanitized builds give it two seconds.
constexpr std::int64_t kMidCallWallMillis = internal::kSanitizerBuild ? 2'000 : 300;

TEST_F(ProcessAdapterTest, SlowCommandToolHitsTheWallTime) {
  CodeLimits limits = testing::reference_limits();
  limits.wall_time_millis = kMidCallWallMillis;
  const Tool tool = sleeping_command_tool("none");
  auto budget = Budget::create({.max_cost_micros = 0, .max_calls = 4}).value();
  const auto start = std::chrono::steady_clock::now();
  const CodeExecutionOutcome outcome = run(
      any_json_program("async (input, tools) => tools.call('slow.sleep', {})", limits, {tool}),
      nullptr, standard_broker({.permissions = {.allow = {"tool:slow.sleep"}}, .budget = budget}));
  EXPECT_LT(std::chrono::steady_clock::now() - start, testing::slack(3s));
  EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kTimeout);
  EXPECT_EQ(outcome.error->rule, "wall_time_limit");
}

TEST_F(ProcessAdapterTest, SlowCommandToolWithEffectsLeavesTheOutcomeUnknown) {
  // A read tool stopped mid-call may have acted: the broker reports it unknown, and an unknown
  // call outranks the timeout (code_mode.h).
  CodeLimits limits = testing::reference_limits();
  limits.wall_time_millis = kMidCallWallMillis;
  const Tool tool = sleeping_command_tool("read");
  auto budget = Budget::create({.max_cost_micros = 0, .max_calls = 4}).value();
  const CodeExecutionOutcome outcome =
      run(any_json_program("async (input, tools) => tools.call('slow.sleep', {})", limits, {tool}),
          nullptr,
          standard_broker(
              {.permissions = {.allow = {"tool:slow.sleep", "effect:read"}}, .budget = budget}));
  EXPECT_EQ(outcome.status, OutcomeStatus::kOutcomeUnknown);
  EXPECT_EQ(outcome.usage.unknown_calls, 1);
}

TEST_F(ProcessAdapterTest, CancellationKillsTheWorker) {
  std::stop_source caller;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(200ms);
    caller.request_stop();
  });
  CodeLimits limits = testing::reference_limits();
  limits.cpu_millis = 5'000;
  limits.wall_time_millis = 10'000;
  const auto start = std::chrono::steady_clock::now();
  const CodeExecutionOutcome outcome =
      run(any_json_program("() => { for (;;) {} }", limits), nullptr, testing::doubling_broker(),
          real_adapter(), caller.get_token());
  EXPECT_LT(std::chrono::steady_clock::now() - start, testing::slack(3s));
  EXPECT_EQ(outcome.status, OutcomeStatus::kCancelled);
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kCancelled);
}

TEST_F(ProcessAdapterTest, CpuLimitIsLimitExceeded) {
  const CodeExecutionOutcome outcome =
      run(any_json_program("() => { for (;;) {} }"), nullptr, testing::doubling_broker());
  EXPECT_EQ(outcome.error->code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(outcome.error->rule, "cpu_limit");
}

TEST_F(ProcessAdapterTest, WorkerKilledBySeccompExitedAndTheNextExecutionWorks) {
  const std::optional<std::string> hooks = testing::testhooks_worker_binary();
  if (!hooks) GTEST_SKIP() << "codemode-worker-testhooks is not built in this configuration.";
  auto adapter = make_process_adapter(testing::adapter_options(*hooks));
  auto mode =
      CodeMode::create({.adapter = adapter, .invoke_tool = testing::doubling_broker()}).value();
  const CodeExecutionOutcome killed =
      mode->execute(any_json_program("() => __codemodeTestHook('socket')"), nullptr,
                    testing::execute_options("e-1"));
  ASSERT_TRUE(killed.error.has_value());
  EXPECT_EQ(killed.error->code, ErrorCode::kToolFailed);
  EXPECT_EQ(killed.error->rule, "worker_exited");
  const CodeExecutionOutcome next = mode->execute(any_json_program("(input) => input.value + 1"),
                                                  {{"value", 1}}, testing::execute_options("e-2"));
  ASSERT_TRUE(next.ok()) << to_json(next);
  EXPECT_EQ(*next.output, 2);
}

// In a sanitizer build a bug in the worker ends it with a report on its stderr, which the parent
// drains and discards: the worker exited without a result, like any other crash.
TEST_F(ProcessAdapterTest, SanitizerReportInTheWorkerIsWorkerExited) {
  if (!internal::kSanitizerBuild) GTEST_SKIP() << "sanitizer builds only (CODEMODE_SANITIZE=ON)";
  const std::optional<std::string> hooks = testing::testhooks_worker_binary();
  if (!hooks) GTEST_SKIP() << "codemode-worker-testhooks is not built in this configuration.";
  auto mode = CodeMode::create({.adapter = make_process_adapter(testing::adapter_options(*hooks)),
                                .invoke_tool = testing::doubling_broker()})
                  .value();
  for (const char* hook : {"heap_overflow", "signed_overflow"}) {
    const CodeExecutionOutcome crashed =
        mode->execute(any_json_program(std::string("() => __codemodeTestHook('") + hook + "')"),
                      nullptr, testing::execute_options(std::string("e-") + hook));
    ASSERT_TRUE(crashed.error.has_value()) << hook;
    EXPECT_EQ(crashed.error->rule, "worker_exited") << hook;
    EXPECT_FALSE(crashed.program_error.has_value()) << hook;
  }
}

TEST_F(ProcessAdapterTest, AWorkerThatIsNotAWorkerFailsAndTheRealOneStillWorks) {
  // /bin/false fails the availability probe, so it is launched through an adapter whose probe
  // says yes: the exit before `confined` is a worker that never started, not a hang or a crash.
  const CodeExecutionOutcome crashed =
      run(any_json_program("(input) => input"), {{"value", 1}}, testing::doubling_broker(),
          internal::make_process_adapter_with(internal::make_exec_launcher("/bin/false"),
                                              [] { return true; }));
  ASSERT_TRUE(crashed.error.has_value());
  EXPECT_EQ(crashed.error->rule, "worker_start_failed");
  const CodeExecutionOutcome next = run(any_json_program("(input) => ({ value: input.value + 4 })"),
                                        {{"value", 3}}, testing::doubling_broker());
  ASSERT_TRUE(next.ok()) << to_json(next);
  EXPECT_EQ(*next.output, Json({{"value", 7}}));
}

}  // namespace
}  // namespace codemode
