// The process adapter's engine profiles with the real codemode-worker, whatever
// CODEMODE_TEST_ENGINE says: the JIT profile shows in the adapter id, runs compiled programs in
// both spawn modes, and has a fork server of its own started with --jit; the parent accepts only
// a worker of the engine profile it asked for, in either direction.
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "sandbox/process/fork_server_launcher.h"
#include "sandbox/process/process_adapter_impl.h"
#include "sandbox/process/worker_launcher.h"
#include "support/executor_fixture.h"
#include "support/process_support.h"
#include "support/program_fixture.h"

namespace codemode {
namespace {

constexpr EngineProfile kJit = EngineProfile::kJit;
constexpr EngineProfile kInterpreter = EngineProfile::kInterpreter;

CodeExecutionOutcome run(std::shared_ptr<SandboxAdapter> adapter, std::string source) {
  auto mode =
      CodeMode::create({.adapter = std::move(adapter), .invoke_tool = testing::doubling_broker()})
          .value();
  return mode->execute(testing::any_json_program(std::move(source)), nullptr,
                       testing::execute_options());
}

// The NUL-separated arguments of a process, as one string with spaces.
std::string command_line(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/cmdline");
  std::string text(std::istreambuf_iterator<char>(file), {});
  for (char& c : text) c = c == '\0' ? ' ' : c;
  return text;
}

constexpr char kSieve[] =
    "() => { const n = 2000000; const a = new Uint8Array(n + 1); let c = 0;"
    "for (let i = 2; i <= n; i++) { if (!a[i]) { c++; for (let j = 2 * i; j <= n; j += i) "
    "a[j] = 1; } } return c; }";

class ProcessAdapterEngineTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_WORKER(); }
  void TearDown() override {
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty()) << "a worker was left behind";
  }
};

TEST_F(ProcessAdapterEngineTest, AdapterIdNamesTheJitEngineProfile) {
  const std::string worker = *testing::worker_binary();
  EXPECT_EQ(make_process_adapter({.worker_path = worker})->id(), "codemode.process");
  EXPECT_EQ(make_process_adapter({.worker_path = worker, .engine = kJit})->id(),
            "codemode.process.jit");
  EXPECT_EQ(make_process_adapter(
                {.worker_path = worker, .isolation = IsolationProfile::kIsolated, .engine = kJit})
                ->id(),
            "codemode.isolated.jit");
}

TEST_F(ProcessAdapterEngineTest, JitAdapterRunsACompiledProgramInBothSpawnModes) {
  for (SpawnMode spawn : {SpawnMode::kForkServer, SpawnMode::kExec}) {
    SCOPED_TRACE(spawn == SpawnMode::kExec ? "exec" : "fork_server");
    auto adapter = make_process_adapter(
        {.worker_path = *testing::worker_binary(), .spawn = spawn, .engine = kJit});
    ASSERT_TRUE(adapter->is_available());
    const CodeExecutionOutcome outcome = run(adapter, kSieve);
    ASSERT_TRUE(outcome.ok()) << to_json(outcome);
    EXPECT_EQ(*outcome.output, 148933);
  }
}

// A launcher's fork server has exactly its engine profile: the JIT one is started with --jit, the
// default one never is.
TEST_F(ProcessAdapterEngineTest, EachEngineProfileHasAForkServerOfItsOwn) {
  for (EngineProfile engine : {kInterpreter, kJit}) {
    std::unique_ptr<internal::WorkerLauncher> launcher = internal::make_fork_server_launcher(
        *testing::worker_binary(), IsolationProfile::kProcess, engine);
    Result<internal::WorkerProcess> worker = launcher->launch();
    ASSERT_TRUE(worker.ok());
    const std::string arguments = command_line(internal::fork_server_pid(*launcher));
    EXPECT_NE(arguments.find("--fork-server"), std::string::npos) << arguments;
    EXPECT_EQ(arguments.find("--jit") != std::string::npos, engine == kJit) << arguments;
  }
}

// The parent checks the confined frame's layers against the profile it asked for, so a worker of
// the other engine profile never gets the program: a default adapter never runs a JIT worker,
// and a JIT adapter never runs an interpreter worker that lacks the layers it expects.
TEST_F(ProcessAdapterEngineTest, AdapterRefusesAWorkerOfTheOtherEngineProfile) {
  for (EngineProfile launched : {kJit, kInterpreter}) {
    const EngineProfile asked = launched == kJit ? kInterpreter : kJit;
    SCOPED_TRACE(launched == kJit ? "jit worker, interpreter adapter"
                                  : "interpreter worker, jit adapter");
    auto adapter = internal::make_process_adapter_with(
        internal::make_exec_launcher(*testing::worker_binary(), IsolationProfile::kProcess,
                                     launched),
        [] { return true; }, IsolationProfile::kProcess, asked);
    const CodeExecutionOutcome outcome = run(adapter, "() => 'ran'");
    EXPECT_FALSE(outcome.ok());
    ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
    EXPECT_EQ(outcome.error->rule, "worker_protocol_error");
    EXPECT_FALSE(outcome.output.has_value());
  }
}

}  // namespace
}  // namespace codemode
