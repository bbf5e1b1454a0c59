// The protocol adapter (include/codemode/protocol_adapter.h) through its public API: its options,
// its qualification, the launch command's argv and environment, the per-execution sandbox name, the
// terminate command (exactly once, however the execution ends), protocol abuse against a scripted
// fake worker (/bin/sh; tests/support/fake_worker.h), and the real worker launched through
// bubblewrap.
#include "codemode/protocol_adapter.h"

#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>

#include "codemode/code_mode.h"

#include "support/bubblewrap.h"
#include "support/executor_fixture.h"
#include "support/fake_worker.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/timing.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;
using testing::confined_frame;
using testing::printf_frame;
using testing::result_frame;
using testing::tool_call_frame;

ProtocolAdapterOptions script_options(const std::string& script) {
  ProtocolAdapterOptions options;
  options.id = "acme.script";
  options.launch = {"/bin/sh", "-c", script};
  options.environment = {"PATH=/usr/bin:/bin"};
  return options;
}

struct LaunchRun {
  CodeExecutionOutcome outcome;
  int broker_calls = 0;
};

LaunchRun run_with(ProtocolAdapterOptions options, std::stop_token stop = {},
                   const CodeProgram& program = testing::javascript_calculate_program()) {
  const testing::Counted counting = testing::counting_broker();
  auto mode = CodeMode::create({.adapter = make_protocol_adapter(std::move(options)).value(),
                                .invoke_tool = counting.broker,
                                .allow_test_adapter = true})
                  .value();
  ExecuteOptions execute = testing::execute_options();
  execute.stop_token = stop;
  LaunchRun run{mode->execute(program, {{"value", 1}}, execute)};
  run.broker_calls = *counting.calls;
  EXPECT_TRUE(testing::child_pids_but_fork_servers().empty()) << "a launched command was left";
  return run;
}

LaunchRun run_script(const std::string& script) { return run_with(script_options(script)); }

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void expect_rule(const LaunchRun& run, ErrorCode code, const std::string& rule) {
  ASSERT_TRUE(run.outcome.error.has_value()) << to_json(run.outcome);
  EXPECT_EQ(run.outcome.error->code, code) << to_json(run.outcome);
  EXPECT_EQ(run.outcome.error->rule, rule) << to_json(run.outcome);
}

TEST(ProtocolAdapter, DefaultsToTheTestQualification) {
  std::shared_ptr<SandboxAdapter> adapter = make_protocol_adapter(script_options("exit 0")).value();
  EXPECT_EQ(adapter->id(), "acme.script");
  EXPECT_EQ(adapter->version(), "1.0.0");
  EXPECT_EQ(adapter->qualification(), AdapterQualification::kTest);
  Result<std::unique_ptr<CodeMode>> refused =
      CodeMode::create({.adapter = adapter, .invoke_tool = testing::doubling_broker()});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_NE(refused.error().message.find("\"acme.script\" is qualified for tests only"),
            std::string::npos)
      << refused.error().message;

  ProtocolAdapterOptions production = script_options("exit 0");
  production.qualification = AdapterQualification::kProduction;
  EXPECT_TRUE(CodeMode::create({.adapter = make_protocol_adapter(production).value(),
                                .invoke_tool = testing::doubling_broker()})
                  .ok());
}

TEST(ProtocolAdapter, RefusesOptionsThatBreakTheirRules) {
  const auto refused = [](const std::function<void(ProtocolAdapterOptions&)>& change,
                          const std::string& words) {
    ProtocolAdapterOptions options = script_options("exit 0");
    change(options);
    Result<std::shared_ptr<SandboxAdapter>> made = make_protocol_adapter(options);
    ASSERT_FALSE(made.ok()) << words;
    EXPECT_EQ(made.error().code, ErrorCode::kInvalidConfig);
    EXPECT_EQ(made.error().rule, "protocol_adapter_options");
    EXPECT_NE(made.error().message.find(words), std::string::npos) << made.error().message;
  };
  refused([](auto& o) { o.id = ""; }, "id");
  refused([](auto& o) { o.id = "1bad"; }, "id");
  refused([](auto& o) { o.version = ""; }, "version");
  refused([](auto& o) { o.version = std::string(129, 'v'); }, "version");
  refused([](auto& o) { o.launch = {}; }, "launch must hold 1 to 256");
  refused([](auto& o) { o.launch = {"sh", "-c", "exit 0"}; }, "absolute path");
  refused([](auto& o) { o.launch = std::vector<std::string>(257, "/bin/true"); }, "1 to 256");
  refused([](auto& o) { o.launch.push_back(std::string("a\0b", 3)); }, "without NUL");
  refused([](auto& o) { o.launch.push_back(std::string(4097, 'a')); }, "4096 bytes");
  refused([](auto& o) { o.terminate = {"docker", "rm"}; }, "terminate[0]");
  refused([](auto& o) { o.environment = {"NO_EQUALS"}; }, "NAME=value");
  refused([](auto& o) { o.environment = {"1X=y"}; }, "NAME=value");
  refused([](auto& o) { o.environment = {"A B=c"}; }, "NAME=value");
  refused([](auto& o) { o.stack_bytes = 1; }, "stack_bytes");
}

TEST(ProtocolAdapter, RunsTheLaunchCommandWithOnlyItsOwnEnvironment) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  ProtocolAdapterOptions options = script_options("env > '" + dir.file("env") + "'; " +
                                                  confined_frame() + result_frame({{"value", 7}}));
  options.environment = {"PATH=/usr/bin:/bin", "ACME_REGION=eu-1"};
  const LaunchRun run = run_with(options);
  ASSERT_TRUE(run.outcome.ok()) << to_json(run.outcome);
  EXPECT_EQ(*run.outcome.output, (Json{{"value", 7}}));
  const std::string env = read_file(dir.file("env"));
  EXPECT_NE(env.find("ACME_REGION=eu-1"), std::string::npos) << env;
  EXPECT_EQ(env.find("HOME="), std::string::npos) << "nothing is inherited: " << env;
}

// Each ending runs the terminate command exactly once, after the launch command, with the same
// sandbox name.
class TerminateOnEveryEnding : public ::testing::Test {
 protected:
  ProtocolAdapterOptions options_for(const std::string& worker) {
    ProtocolAdapterOptions options =
        script_options("echo {sandbox} >> '" + dir_.file("launched") + "'; " + worker);
    options.terminate = {"/bin/sh", "-c", "echo {sandbox} >> '" + dir_.file("terminated") + "'"};
    return options;
  }
  void expect_terminated_once() {
    const std::string launched = read_file(dir_.file("launched"));
    const std::string terminated = read_file(dir_.file("terminated"));
    EXPECT_TRUE(std::regex_match(terminated, std::regex("codemode-[0-9a-f]{32}\n"))) << terminated;
    EXPECT_EQ(launched, terminated);
  }
  testing::ScratchDir dir_;
};

TEST_F(TerminateOnEveryEnding, Success) {
  const LaunchRun run = run_with(options_for(confined_frame() + result_frame({{"value", 2}})));
  EXPECT_TRUE(run.outcome.ok()) << to_json(run.outcome);
  expect_terminated_once();
}

TEST_F(TerminateOnEveryEnding, Cancellation) {
  std::stop_source cancel;
  std::jthread canceller([&cancel] {
    std::this_thread::sleep_for(50ms);
    cancel.request_stop();
  });
  const LaunchRun run = run_with(options_for(confined_frame() + "sleep 30"), cancel.get_token());
  EXPECT_EQ(run.outcome.status, OutcomeStatus::kCancelled) << to_json(run.outcome);
  expect_terminated_once();
}

TEST_F(TerminateOnEveryEnding, WorkerThatExits) {
  const LaunchRun run = run_with(options_for(confined_frame() + "exit 3"));
  expect_rule(run, ErrorCode::kToolFailed, "worker_exited");
  expect_terminated_once();
}

TEST_F(TerminateOnEveryEnding, LaunchThatCannotStart) {
  ProtocolAdapterOptions options = options_for("exit 0");
  options.launch = {dir_.file("no-such-launcher")};
  options.is_available = [] { return true; };
  const LaunchRun run = run_with(options);
  expect_rule(run, ErrorCode::kToolFailed, "worker_start_failed");
  const std::string terminated = read_file(dir_.file("terminated"));
  EXPECT_TRUE(std::regex_match(terminated, std::regex("codemode-[0-9a-f]{32}\n"))) << terminated;
}

TEST(ProtocolAdapter, EachExecutionHasItsOwnSandboxName) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  ProtocolAdapterOptions options =
      script_options("echo {sandbox} >> '" + dir.file("names") + "'; " + confined_frame() +
                     result_frame({{"value", 1}}));
  run_with(options);
  run_with(options);
  const std::string names = read_file(dir.file("names"));
  ASSERT_EQ(names.size(), 2 * (9 + 32 + 1)) << names;
  EXPECT_NE(names.substr(0, 42), names.substr(42));
}

TEST(ProtocolAdapter, IsUnavailableWhenTheLaunchCommandIsNotExecutable) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  ProtocolAdapterOptions options = script_options("exit 0");
  options.launch = {dir.file("absent")};
  const LaunchRun run = run_with(options);
  expect_rule(run, ErrorCode::kUnsupportedProfile, "adapter_unavailable");
  options.is_available = [] { return false; };
  options.launch = {"/bin/sh"};
  expect_rule(run_with(options), ErrorCode::kUnsupportedProfile, "adapter_unavailable");
}

// The failure reasons a worker's result frame may carry (docs/protocol.md), as a launched worker
// reports them; any other reason is a protocol error.
TEST(ProtocolAdapter, MapsTheWorkersFailureReasons) {
  const auto failed = [](const std::string& reason) {
    return confined_frame() +
           printf_frame(Json{{"type", "result"}, {"status", "failed"}, {"reason", reason}});
  };
  expect_rule(run_script(failed("cpu_limit")), ErrorCode::kLimitExceeded, "cpu_limit");
  expect_rule(run_script(failed("memory_limit")), ErrorCode::kLimitExceeded, "memory_limit");
  expect_rule(run_script(confined_frame() + printf_frame(Json{{"type", "result"},
                                                              {"status", "failed"},
                                                              {"reason", "invalid_output"},
                                                              {"rule", "output_cycle"}})),
              ErrorCode::kInvalidOutput, "output_cycle");
  expect_rule(run_script(failed("root_shell")), ErrorCode::kToolFailed, "worker_protocol_error");
  const LaunchRun thrown =
      run_script(confined_frame() +
                 printf_frame(Json{{"type", "result"},
                                   {"status", "failed"},
                                   {"reason", "program_error"},
                                   {"programError", {{"name", "TypeError"}, {"message", "bad"}}}}));
  expect_rule(thrown, ErrorCode::kToolFailed, "program_error");
  EXPECT_EQ(thrown.outcome.program_error, (ProgramError{"TypeError", "bad"}));
  const LaunchRun succeeded = run_script(confined_frame() + result_frame({{"value", 5}}));
  ASSERT_TRUE(succeeded.outcome.ok()) << to_json(succeeded.outcome);
  EXPECT_EQ(*succeeded.outcome.output, (Json{{"value", 5}}));
}

// Protocol abuse: each fails closed, before the wall deadline.
TEST(ProtocolAdapter, FailsClosedOnProtocolAbuse) {
  const LaunchRun duplicate = run_script(confined_frame() + tool_call_frame(1, {{"value", 1}}) +
                                         tool_call_frame(1, {{"value", 1}}) + "sleep 5");
  expect_rule(duplicate, ErrorCode::kToolFailed, "worker_protocol_error");
  EXPECT_LE(duplicate.broker_calls, 1);

  std::string five_calls = confined_frame();
  for (int id = 1; id <= 5; ++id) five_calls += tool_call_frame(id, {{"value", id}});
  CodeLimits two_calls = testing::reference_limits();
  two_calls.max_tool_calls = 2;
  const LaunchRun beyond = run_with(script_options(five_calls + "sleep 5"), {},
                                    testing::javascript_calculate_program(two_calls));
  expect_rule(beyond, ErrorCode::kToolFailed, "worker_protocol_error");
  EXPECT_LE(beyond.broker_calls, 2);

  // A 200,000-byte frame announced, past every cap of these limits.
  expect_rule(run_script(confined_frame() + printf_frame(std::string("{}"), 200'000) + "sleep 5"),
              ErrorCode::kToolFailed, "worker_protocol_error");
  // A confined frame of another protocol version.
  expect_rule(run_script(printf_frame(Json{
                             {"type", "confined"}, {"version", 2}, {"layers", Json::array()}}) +
                         "sleep 5"),
              ErrorCode::kToolFailed, "worker_protocol_error");
}

// A worker's stderr, here 65 KiB, is drained and discarded, never a failure (process_adapter.h;
// docs/architecture.md, "Where codemode differs"): the worker's words never reach anyone, and the
// execution goes on.
TEST(ProtocolAdapter, DrainsStderrAndNeverShowsIt) {
  const LaunchRun run = run_script(confined_frame() + "head -c 66560 /dev/zero | tr '\\0' s >&2; " +
                                   result_frame({{"value", 1}}));
  ASSERT_TRUE(run.outcome.ok()) << to_json(run.outcome);
}

TEST(ProtocolAdapter, RelaysAToolCallAndAnswersItOnce) {
  const LaunchRun run = run_script(confined_frame() + tool_call_frame(1, {{"value", 4}}) +
                                   "sleep 0.3; " + result_frame({{"value", 8}}));
  ASSERT_TRUE(run.outcome.ok()) << to_json(run.outcome);
  EXPECT_EQ(run.broker_calls, 1);
  EXPECT_EQ(run.outcome.usage.tool_calls, 1);
}

// The real worker, launched through bubblewrap (Debian's bubblewrap, which scripts/install-deps
// installs) in new namespaces with a read-only root, runs a program that calls a tool.
TEST(ProtocolAdapter, RunsTheRealWorkerThroughBubblewrap) {
  CODEMODE_REQUIRE_WORKER();
  ASSERT_EQ(access(testing::kBubblewrap, X_OK), 0)
      << "bubblewrap is missing: scripts/install-deps installs it";
  ProtocolAdapterOptions options;
  options.id = "tests.bwrap";
  options.launch = testing::bubblewrap_launch(*testing::worker_binary());
  const LaunchRun run =
      run_with(options, {},
               testing::any_json_program(
                   "async (input, tools) => (await tools.call('number.double', input)).output"));
  ASSERT_TRUE(run.outcome.ok()) << to_json(run.outcome);
  EXPECT_EQ(*run.outcome.output, (Json{{"value", 2}}));
  EXPECT_EQ(run.broker_calls, 1);
}

}  // namespace
}  // namespace codemode
