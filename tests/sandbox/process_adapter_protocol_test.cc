// The process adapter against workers that lie, crash or stall (a /bin/sh script plays the
// worker; tests/support/fake_worker.h). Every case must end as the documented outcome, promptly,
// with the fake worker killed and reaped.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "support/executor_fixture.h"
#include "support/fake_worker.h"
#include "support/process_support.h"
#include "support/timing.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;
using testing::confined_frame;
using testing::printf_frame;
using testing::result_frame;
using testing::tool_call_frame;

struct FakeRun {
  CodeExecutionOutcome outcome;
  int broker_calls = 0;
  std::chrono::milliseconds elapsed{0};
};

FakeRun run_fake(const std::string& script,
                 const CodeProgram& program = testing::javascript_calculate_program(),
                 std::stop_token stop = {}) {
  const testing::Counted counting = testing::counting_broker();
  auto mode = CodeMode::create(
                  {.adapter = testing::fake_worker_adapter(script), .invoke_tool = counting.broker})
                  .value();
  ExecuteOptions options = testing::execute_options();
  options.stop_token = stop;
  const auto start = std::chrono::steady_clock::now();
  FakeRun run{mode->execute(program, {{"value", 1}}, options)};
  run.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::steady_clock::now() - start);
  run.broker_calls = *counting.calls;
  EXPECT_TRUE(testing::child_pids_but_fork_servers().empty()) << "a fake worker was left behind";
  return run;
}

constexpr const char* kProtocolError = "worker_protocol_error";
constexpr const char* kStartFailed = "worker_start_failed";
constexpr const char* kExited = "worker_exited";

// A failure of the sandbox itself, named by its fault (sandbox.h), found before the wall deadline.
void expect_fault(const FakeRun& run, const std::string& rule) {
  EXPECT_EQ(run.outcome.status, OutcomeStatus::kFailed);
  ASSERT_TRUE(run.outcome.error.has_value());
  EXPECT_EQ(run.outcome.error->code, ErrorCode::kToolFailed);
  EXPECT_EQ(run.outcome.error->rule, rule);
  EXPECT_FALSE(run.outcome.program_error.has_value());
  EXPECT_LT(run.elapsed, testing::slack(900ms))
      << "the wall deadline (1 s) should not be what ended it";
}

TEST(ProcessAdapterProtocol, AcceptsTheDocumentedSequence) {
  const FakeRun run = run_fake(confined_frame() + result_frame({{"value", 7}}));
  ASSERT_TRUE(run.outcome.ok()) << to_json(run.outcome);
  EXPECT_EQ(*run.outcome.output, Json({{"value", 7}}));
}

TEST(ProcessAdapterProtocol, RelaysAToolCallAndWritesItsResult) {
  // The fake does not read its answer; the pipe holds it until the worker is killed.
  const std::string script = confined_frame() + tool_call_frame(1, {{"value", 4}}) + "sleep 0.3; " +
                             result_frame({{"value", 8}});
  const FakeRun run = run_fake(script);
  ASSERT_TRUE(run.outcome.ok()) << to_json(run.outcome);
  EXPECT_EQ(run.broker_calls, 1);
  EXPECT_EQ(run.outcome.usage.tool_calls, 1);
}

TEST(ProcessAdapterProtocol, WorkerThatExitsAtOnceNeverStarted) {
  expect_fault(run_fake("exit 1"), kStartFailed);
}

TEST(ProcessAdapterProtocol, GarbageInsteadOfFrames) {
  expect_fault(run_fake(testing::printf_bytes("garbage, not a frame") + "sleep 5"), kProtocolError);
}

TEST(ProcessAdapterProtocol, FirstFrameIsNotConfined) {
  expect_fault(run_fake(result_frame({{"value", 7}}) + "sleep 5"), kProtocolError);
}

// A worker built without one of the layers says so in its confined frame; it never gets to run
// the program, even if it would answer correctly.
TEST(ProcessAdapterProtocol, ConfinedFrameWithoutEveryLayer) {
  const Json layers{"engine", "fds", "process", "seccomp"};  // no rlimits
  const FakeRun run =
      run_fake(printf_frame(Json{{"type", "confined"}, {"version", 1}, {"layers", layers}}) +
               result_frame({{"value", 7}}) + "sleep 5");
  expect_fault(run, kProtocolError);
}

TEST(ProcessAdapterProtocol, EndOfStreamAfterConfined) {
  expect_fault(run_fake(confined_frame()), kExited);
}

TEST(ProcessAdapterProtocol, WorkerClosesStdoutButKeepsRunning) {
  expect_fault(run_fake(confined_frame() + "exec 1>&-; sleep 5"), kExited);
}

TEST(ProcessAdapterProtocol, TruncatedFrame) {
  const std::string body = R"({"type":"result","status":"succeeded","hasOutput":true,"output":1})";
  expect_fault(run_fake(confined_frame() + printf_frame(body, body.size() + 10)), kProtocolError);
}

TEST(ProcessAdapterProtocol, OversizedLengthPrefix) {
  // reference_limits() allow frames of max(maxOutputBytes 4096, maxToolInputBytes 2048) + 64 KiB.
  expect_fault(
      run_fake(confined_frame() + printf_frame(std::string("{}"), 4096 + 65536 + 1) + "sleep 5"),
      kProtocolError);
}

TEST(ProcessAdapterProtocol, CallIdThatSkips) {
  const FakeRun run = run_fake(confined_frame() + tool_call_frame(2, {{"value", 1}}) + "sleep 5");
  expect_fault(run, kProtocolError);
  EXPECT_EQ(run.broker_calls, 0);
}

TEST(ProcessAdapterProtocol, DuplicateCallId) {
  const FakeRun run = run_fake(confined_frame() + tool_call_frame(1, {{"value", 1}}) +
                               tool_call_frame(1, {{"value", 1}}) + "sleep 5");
  expect_fault(run, kProtocolError);
  EXPECT_LE(run.broker_calls, 1);
}

TEST(ProcessAdapterProtocol, MoreCallsThanMaxToolCalls) {
  std::string script = confined_frame();
  for (int id = 1; id <= 5; ++id) script += tool_call_frame(id, {{"value", id}});
  const FakeRun run = run_fake(script + "sleep 5");  // maxToolCalls is 4
  expect_fault(run, kProtocolError);
  EXPECT_LE(run.broker_calls, 4);
}

TEST(ProcessAdapterProtocol, WorkerThatNeverReadsCannotGrowTheParentsQueue) {
  // 40 calls whose ~1 MB answers the worker never reads: past the outbound cap (16 MiB plus four
  // result frames) the parent stops queueing and ends the execution instead of holding ~40 MB.
  CodeLimits limits = testing::reference_limits();
  limits.max_output_bytes = 1 << 20;
  limits.max_tool_calls = 40;
  limits.max_tool_concurrency = 40;
  // Generous: the wall time must not be what ends it, and under the sanitizer build on a loaded
  // machine making the 40 answers takes about 5 s.
  limits.wall_time_millis = 25'000;
  const CodeProgram program = testing::javascript_calculate_program(limits);
  std::string script = confined_frame();
  for (int id = 1; id <= 40; ++id) script += tool_call_frame(id, {{"value", id}});
  auto calls = std::make_shared<std::atomic<int>>(0);
  auto mode =
      CodeMode::create({.adapter = testing::fake_worker_adapter(script + "sleep 60"),
                        .invoke_tool =
                            [calls](const Tool& tool, const Json&, const BrokerContext& context) {
                              ++*calls;
                              return ToolOutcome::succeeded(
                                  Json{{"value", 1}, {"pad", std::string(1'000'000, 'x')}},
                                  testing::receipt_for(context, tool, ExecutionState::kSucceeded,
                                                       Disclosure::kReleased));
                            }})
          .value();
  const auto start = std::chrono::steady_clock::now();
  CodeExecutionOutcome outcome = mode->execute(program, {{"value", 1}}, testing::execute_options());
  EXPECT_LT(std::chrono::steady_clock::now() - start, testing::slack(30s));
  EXPECT_GT(*calls, 20);  // the answers really were produced, and piled up
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->rule, kProtocolError);
  EXPECT_TRUE(testing::child_pids_but_fork_servers().empty());
}

TEST(ProcessAdapterProtocol, ForgedFailureReason) {
  expect_fault(run_fake(confined_frame() +
                        printf_frame(Json{
                            {"type", "result"}, {"status", "failed"}, {"reason", "root_shell"}})),
               kProtocolError);
}

TEST(ProcessAdapterProtocol, SucceededResultWithoutPresenceBit) {
  expect_fault(
      run_fake(confined_frame() +
               printf_frame(Json{{"type", "result"}, {"status", "succeeded"}, {"output", 1}})),
      kProtocolError);
}

TEST(ProcessAdapterProtocol, ProgramErrorPassesOnlyWithProgramErrorReason) {
  const FakeRun run =
      run_fake(confined_frame() +
               printf_frame(Json{{"type", "result"},
                                 {"status", "failed"},
                                 {"reason", "program_error"},
                                 {"programError", {{"name", "TypeError"}, {"message", "bad"}}}}));
  ASSERT_TRUE(run.outcome.error.has_value());
  EXPECT_EQ(run.outcome.error->rule, "program_error");
  EXPECT_EQ(run.outcome.program_error, (ProgramError{"TypeError", "bad"}));
}

TEST(ProcessAdapterProtocol, StderrIsDrainedAndNeverShown) {
  // However much the worker writes there, the execution goes on and none of it is shown.
  const FakeRun run = run_fake(confined_frame() + "head -c 1000000 /dev/zero | tr '\\0' s >&2; " +
                               result_frame({{"value", 1}}));
  ASSERT_TRUE(run.outcome.ok()) << to_json(run.outcome);
  EXPECT_EQ(to_json(run.outcome).dump().find("sss"), std::string::npos);
}

TEST(ProcessAdapterProtocol, TruncatedFrameAtExitIsAProtocolError) {
  const std::string body = R"({"type":"toolCall","callId":1,"toolId":"number.double"})";
  expect_fault(run_fake(confined_frame() + printf_frame(body, body.size() + 40) + "exit 0"),
               kProtocolError);
}

TEST(ProcessAdapterProtocol, BytesAfterTheResultAreAProtocolError) {
  // A second result, or any byte after the first, while the parent waits for the end of stdout.
  expect_fault(run_fake(confined_frame() + result_frame({{"value", 1}}) +
                        result_frame({{"value", 2}}) + "sleep 5"),
               kProtocolError);
  expect_fault(run_fake(confined_frame() + result_frame({{"value", 1}}) + "sleep 0.05; " +
                        testing::printf_bytes("x") + "sleep 5"),
               kProtocolError);
}

TEST(ProcessAdapterProtocol, WorkerKilledBySigsysExitedWithoutAResult) {
  expect_fault(run_fake(confined_frame() + "kill -SYS $$"), kExited);
}

// SIGXCPU (or exit status 5) with almost no CPU used is not the RLIMIT_CPU backstop: a crash or an
// escaped worker can end that way. Only the CPU time wait4 reports proves the CPU limit.
TEST(ProcessAdapterProtocol, WorkerKilledBySigxcpuWithoutUsingItsCpuExitedWithoutAResult) {
  expect_fault(run_fake(confined_frame() + "kill -XCPU $$"), kExited);
  expect_fault(run_fake(confined_frame() + "exit 5"), kExited);
}

TEST(ProcessAdapterProtocol, ResultIsFinalEvenIfTheWorkerLingers) {
  // A wall time far above the bound, so a parent that waited for the worker to end fails it
  // whatever the time scale.
  CodeLimits limits = testing::reference_limits();
  limits.wall_time_millis = 20'000;
  const FakeRun run = run_fake(confined_frame() + result_frame({{"value", 3}}) + "sleep 30",
                               testing::javascript_calculate_program(limits));
  ASSERT_TRUE(run.outcome.ok()) << to_json(run.outcome);
  EXPECT_LT(run.elapsed, testing::slack(900ms));
}

TEST(ProcessAdapterProtocol, SilentWorkerIsKilledAtTheWallDeadline) {
  CodeLimits limits = testing::reference_limits();
  limits.wall_time_millis = 200;
  const FakeRun run =
      run_fake(confined_frame() + "sleep 30", testing::javascript_calculate_program(limits));
  ASSERT_TRUE(run.outcome.error.has_value()) << to_json(run.outcome);
  EXPECT_EQ(run.outcome.error->code, ErrorCode::kTimeout);
  EXPECT_EQ(run.outcome.error->rule, "wall_time_limit");
  EXPECT_LT(run.elapsed, testing::slack(2s));
}

TEST(ProcessAdapterProtocol, CancellationKillsTheWorker) {
  std::stop_source caller;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(100ms);
    caller.request_stop();
  });
  const FakeRun run = run_fake(confined_frame() + "sleep 30",
                               testing::javascript_calculate_program(), caller.get_token());
  EXPECT_EQ(run.outcome.status, OutcomeStatus::kCancelled);
  ASSERT_TRUE(run.outcome.error.has_value()) << to_json(run.outcome);
  EXPECT_EQ(run.outcome.error->code, ErrorCode::kCancelled);
  EXPECT_LT(run.elapsed, testing::slack(900ms));
}

TEST(ProcessAdapterProtocol, UnsupportedProgramsNeverLaunchAWorker) {
  auto launches = std::make_shared<std::atomic<int>>(0);
  auto mode = CodeMode::create({.adapter = testing::fake_worker_adapter("exit 1", launches),
                                .invoke_tool = testing::doubling_broker()})
                  .value();
  // TypeScript runs (its types erased in the worker); no built-in sandbox resolves imports.
  CodeProgramOptions imports = testing::calculate_options();
  CodeProgramOptions typescript_imports = testing::calculate_options();  // language typescript
  imports.language = ProgramLanguage::kJavaScript;
  imports.approved_imports = {"lodash"};
  typescript_imports.approved_imports = {"lodash"};
  int n = 0;
  for (const CodeProgramOptions& options : {imports, typescript_imports}) {
    const CodeExecutionOutcome outcome =
        mode->execute(define_code_program(options).value(), {{"value", 1}},
                      testing::execute_options("e-" + std::to_string(++n)));
    ASSERT_TRUE(outcome.error.has_value());
    EXPECT_EQ(outcome.error->code, ErrorCode::kUnsupportedProfile);
    EXPECT_EQ(outcome.error->rule, "unsupported_program");
  }
  EXPECT_EQ(*launches, 0);
}

TEST(ProcessAdapterProtocol, AdapterIsProductionCodemodeProcess) {
  auto adapter = testing::fake_worker_adapter("exit 1");
  EXPECT_EQ(adapter->id(), "codemode.process");
  EXPECT_EQ(adapter->version(), "1.0.0");
  EXPECT_EQ(adapter->qualification(), AdapterQualification::kProduction);
}

}  // namespace
}  // namespace codemode
