// Workers that die mid-execution, through the real process adapter: a crash inside the worker
// (SIGSEGV from native code) and a kill from outside (SIGKILL), each while one of its tool calls
// is in flight at the host; a worker that just exits; a worker that hangs in native code, out of
// reach of its own watchdog. Each must end as the documented outcome with the worker reaped, the
// in-flight call accounted as the executor always accounts it, and the next execution working.
//
// The executor's semantics for a call in flight when the worker dies (code_mode.h): the call was
// admitted, so the bridge lets it run to its end (it is not stopped: the execution has not timed
// out or been cancelled), accounts it from its receipt, and only then reports the sandbox failure.
// A pure tool and a tool with effects are therefore accounted alike: a known call, charged, with
// its receipt in the evidence, so a host can see the write that happened although the program
// never learnt of it.
#include <atomic>
#include <chrono>
#include <memory>
#include <ostream>

#include <signal.h>

#include <gtest/gtest.h>

#include "support/testhooks_fixture.h"
#include "support/timing.h"
#include "worker/watchdog.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;
using testing::HookedMode;

constexpr std::int64_t kProbeCost = 5;

// What a probe tool saw while its call was in flight.
struct ProbeLog {
  std::atomic<int> calls{0};
  std::atomic<int> workers_seen{-1};         // live test-hooks workers when the call started
  std::atomic<bool> outlived_worker{false};  // the worker was gone before the call answered
};

// Waits until no test-hooks worker is alive, as the call's last act before it answers.
void await_worker_death(ProbeLog& log) {
  log.outlived_worker = testing::wait_until(
      [] { return testing::live_testhooks_workers().empty(); }, testing::slack(3s));
}

Tool probe_tool(std::string id, ToolEffects effects, std::shared_ptr<ProbeLog> log,
                bool kill_worker) {
  return define_tool(
             {.id = std::move(id),
              .version = "1",
              .description = "Watches (or kills) the worker while its own call is in flight.",
              .input = Schema::any(),
              .output = Schema::any(),
              .effects = effects,
              .cost_micros = kProbeCost,
              .execute =
                  [log, kill_worker](const Json&, const ToolContext&, ToolResponder respond) {
                    ++log->calls;
                    const std::vector<pid_t> workers = testing::live_testhooks_workers();
                    log->workers_seen = static_cast<int>(workers.size());
                    if (kill_worker && workers.size() == 1) ::kill(workers[0], SIGKILL);
                    await_worker_death(*log);
                    respond.succeed({{"answered", true}});
                  }})
      .value();
}

// The in-flight call's tool: pure, or with effects.
struct EffectsCase {
  ToolEffects effects;
  const char* name;
};

void PrintTo(const EffectsCase& c, std::ostream* out) { *out << c.name; }

class CrashRestartTest : public ::testing::TestWithParam<EffectsCase> {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_TESTHOOKS_WORKER(); }

  // The call was brokered once, ran to its end after the worker died, and is accounted as known.
  void expect_in_flight_call_accounted(const CodeExecutionOutcome& outcome, const ProbeLog& log,
                                       const std::string& tool_id) {
    EXPECT_EQ(log.calls, 1);
    EXPECT_TRUE(log.outlived_worker) << "the worker was still alive when the call answered";
    EXPECT_EQ(outcome.usage, (CodeExecutionUsage{.tool_calls = 1,
                                                 .unknown_calls = 0,
                                                 .known_cost_micros = kProbeCost,
                                                 .unknown_cost_micros = 0,
                                                 .maximum_cost_micros = kProbeCost * 4}));
    ASSERT_EQ(outcome.evidence.size(), 1u);
    EXPECT_EQ(outcome.evidence[0].receipt.tool_id, tool_id);
    EXPECT_EQ(outcome.evidence[0].receipt.execution, ExecutionState::kSucceeded);
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty())
        << "the worker was left behind, or a zombie";
  }
};

TEST_P(CrashRestartTest, SegfaultWhileAToolCallIsInFlight) {
  auto log = std::make_shared<ProbeLog>();
  const Tool probe = probe_tool("probe.outlive", GetParam().effects, log, false);
  HookedMode mode({probe});
  const CodeExecutionOutcome outcome = mode.run(testing::hook_program(
      "async (input, tools) => { const pending = tools.call('probe.outlive', {});"
      "  __codemodeTestHook('segfault'); return await pending; }",
      testing::hook_limits(), {probe}));
  testing::expect_sandbox_fault(outcome, "worker_exited");
  expect_in_flight_call_accounted(outcome, *log, "probe.outlive");
  EXPECT_LT(mode.elapsed(), testing::slack(2s));
  mode.expect_next_execution_works();
}

TEST_P(CrashRestartTest, SigkillWhileAToolCallIsInFlight) {
  auto log = std::make_shared<ProbeLog>();
  const Tool probe = probe_tool("probe.kill", GetParam().effects, log, true);
  HookedMode mode({probe});
  const CodeExecutionOutcome outcome = mode.run(
      testing::hook_program("async (input, tools) => (await tools.call('probe.kill', {})).status",
                            testing::hook_limits(), {probe}));
  EXPECT_EQ(log->workers_seen, 1) << "the tool did not find exactly one worker to kill";
  testing::expect_sandbox_fault(outcome, "worker_exited");
  expect_in_flight_call_accounted(outcome, *log, "probe.kill");
  EXPECT_LT(mode.elapsed(), testing::slack(2s));
  mode.expect_next_execution_works();
}

INSTANTIATE_TEST_SUITE_P(Effects, CrashRestartTest,
                         ::testing::Values(EffectsCase{ToolEffects::kNone, "PureTool"},
                                           EffectsCase{ToolEffects::kWrite, "WriteTool"}),
                         [](const ::testing::TestParamInfo<EffectsCase>& info) {
                           return std::string(info.param.name);
                         });

class WorkerEndTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_TESTHOOKS_WORKER(); }
  void TearDown() override {
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty())
        << "the worker was left behind, or a zombie";
  }
};

TEST_F(WorkerEndTest, SegfaultWithNoCallInFlight) {
  HookedMode mode;
  const CodeExecutionOutcome outcome =
      mode.run(testing::hook_program("() => { __codemodeTestHook('segfault'); return 1; }"));
  ASSERT_NO_FATAL_FAILURE(testing::expect_sandbox_fault(outcome, "worker_exited"));
  EXPECT_EQ(outcome.error->message,
            "The sandbox worker ended before returning a result; its details are withheld.");
  EXPECT_EQ(outcome.usage.tool_calls, 0);
  mode.expect_next_execution_works();
}

// Status 5 included: the isolated worker's own exit on SIGXCPU, which a crash or an escaped
// worker can claim too. Only the worker's CPU time, as wait4 reports it, proves the CPU limit.
TEST_F(WorkerEndTest, ExitWithoutAResultWhateverTheStatus) {
  HookedMode mode;
  for (int status : {0, 1, 5, 86}) {
    SCOPED_TRACE(status);
    const CodeExecutionOutcome outcome = mode.run(testing::hook_program(
        "() => { __codemodeTestHook('exit', " + std::to_string(status) + "); return 1; }"));
    testing::expect_sandbox_fault(outcome, "worker_exited");
  }
  mode.expect_next_execution_works();
}

// clock_nanosleep in native code uses no CPU and runs no JavaScript, so neither the CPU watchdog
// nor the engine's interrupt can end it; the worker's own wall backstop comes 1 s after the
// deadline. The parent's wall deadline ends it: TIMEOUT, worker killed.
TEST_F(WorkerEndTest, HangInNativeCodeEndsAtTheParentsWallDeadline) {
  HookedMode mode;
  const CodeExecutionOutcome outcome = mode.run(testing::hook_program(
      "() => { __codemodeTestHook('hang'); return 1; }", testing::hook_limits(200)));
  EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kTimeout);
  EXPECT_EQ(outcome.error->rule, "wall_time_limit");
  EXPECT_GE(mode.elapsed(), 200ms);
  // Not slack(): this bound tells the parent's kill from the worker's own backstop, which comes
  // Watchdog::kWallGrace after the deadline, so it stays below that whatever the time scale.
  EXPECT_LT(mode.elapsed(), 200ms + worker::Watchdog::kWallGrace)
      << "the worker's own backstop, not the parent, ended it";
  mode.expect_next_execution_works();
}

// A tool call in flight when the worker hangs: the deadline stops the call too, and a pure tool
// stopped mid-call is failed, not unknown (docs/architecture.md, Decisions).
TEST_F(WorkerEndTest, HangWhileAPureToolCallIsInFlight) {
  std::vector<Tool> tools = {testing::double_tool()};
  ToolOptions waiting = testing::double_tool_options();
  waiting.id = "probe.wait";
  waiting.input = Schema::any();
  waiting.execute = [](const Json&, const ToolContext& context, ToolResponder respond) {
    // Far longer than the bound below: a call the deadline did not stop fails that bound.
    testing::wait_until([&] { return context.stop_token.stop_requested(); }, 10s);
    respond.succeed({{"value", 0}});
  };
  tools.push_back(define_tool(waiting).value());
  HookedMode mode(tools);
  const CodeExecutionOutcome outcome = mode.run(testing::hook_program(
      "async (input, tools) => { const pending = tools.call('probe.wait', {});"
      "  __codemodeTestHook('hang'); return await pending; }",
      testing::hook_limits(200), tools));
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kTimeout);
  EXPECT_EQ(outcome.usage.tool_calls, 1);
  EXPECT_EQ(outcome.usage.unknown_calls, 0);
  EXPECT_LT(mode.elapsed(), testing::slack(1000ms));
  mode.expect_next_execution_works();
}

}  // namespace
}  // namespace codemode
