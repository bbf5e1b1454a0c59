// The isolated profile ("codemode.isolated"): seen from inside the worker, just before the
// system-call filter goes on (the filter would kill the open and socket calls that look; the
// test-hooks worker records what it saw there, src/worker/test_hooks.h "isolation"), there is no
// file, no network interface but a loopback that is down, and the worker is pid 1. In both spawn
// modes; the CPU backstop still ends an isolated worker that spins in native code; a kernel that
// refuses the namespaces gives UNSUPPORTED_PROFILE and never a run with less.
#include <gtest/gtest.h>

#include "core/sanitizer_build.h"
#include "sandbox/process/process_adapter_impl.h"
#include "support/testhooks_fixture.h"

namespace codemode {
namespace {

using testing::HookedMode;

constexpr long kPidOne = 1;
constexpr long kEmptyRoot = 2;
constexpr long kNoPasswd = 4;
constexpr long kOnlyLoopbackDown = 8;
constexpr long kEverything = kPidOne | kEmptyRoot | kNoPasswd | kOnlyLoopbackDown;

ProcessAdapterOptions hooks_adapter(SpawnMode spawn, IsolationProfile isolation) {
  return {
      .worker_path = *testing::testhooks_worker_binary(), .spawn = spawn, .isolation = isolation};
}

// The worker's "isolation" bits, or nullopt if the run failed.
std::optional<long> observed(HookedMode& mode) {
  const CodeExecutionOutcome outcome =
      mode.run(testing::hook_program("() => __codemodeTestHook('isolation')"));
  EXPECT_TRUE(outcome.ok()) << to_json(outcome);
  if (!outcome.ok() || !outcome.output->is_number_integer()) return std::nullopt;
  return outcome.output->get<long>();
}

class IsolationTest : public ::testing::TestWithParam<SpawnMode> {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_TESTHOOKS_WORKER();
    // Both spawn modes and both profiles are the test's own.
    CODEMODE_SKIP_REPEATED_COMBINATION(testing::runs_in_default_combination());
    if (!make_process_adapter(hooks_adapter(GetParam(), IsolationProfile::kIsolated))
             ->is_available()) {
      GTEST_SKIP() << "this kernel (or its policy) refuses unprivileged user, pid, network, mount, "
                      "IPC or UTS namespaces, so the isolated profile is unavailable here.";
    }
  }
};

TEST_P(IsolationTest, IsolatedWorkerSeesNoFileNoNetworkAndIsPidOne) {
  HookedMode mode({testing::double_tool()}, hooks_adapter(GetParam(), IsolationProfile::kIsolated));
  EXPECT_EQ(observed(mode), kEverything);
  // Twice: in fork-server mode the second child comes from the same server, in a new pid
  // namespace of its own.
  EXPECT_EQ(observed(mode), kEverything);
}

TEST_P(IsolationTest, ProcessProfileWorkerSeesTheHostsFilesAndPids) {
  HookedMode mode({testing::double_tool()}, hooks_adapter(GetParam(), IsolationProfile::kProcess));
  const std::optional<long> bits = observed(mode);
  ASSERT_TRUE(bits.has_value());
  EXPECT_EQ(*bits & (kPidOne | kEmptyRoot), 0) << "the contrast: no namespaces without the profile";
}

INSTANTIATE_TEST_SUITE_P(BothSpawnModes, IsolationTest,
                         ::testing::Values(SpawnMode::kForkServer, SpawnMode::kExec),
                         [](const auto& info) {
                           return info.param == SpawnMode::kExec ? "Exec" : "ForkServer";
                         });

// Native code never checks the engine's interrupt, so only RLIMIT_CPU (cpuMillis rounded up to a
// second, plus kCpuBackstopSeconds: 6 s of CPU) ends it. The worker is pid 1 of its pid namespace,
// which ignores SIGXCPU by default; it must still end, and be reported as the CPU limit, not as a
// crash. One spawn mode only (this test run's, adapter_options.h): the handler is installed the
// same way in both, and each run burns 6 s of CPU.
TEST(IsolationBackstop, CpuBackstopEndsAnIsolatedWorkerSpinningInNativeCode) {
  CODEMODE_REQUIRE_TESTHOOKS_WORKER();
  CODEMODE_SKIP_REPEATED_COMBINATION(testing::runs_for_its_spawn_mode());
  if (internal::kSanitizerBuild) {
    // Six seconds of CPU in uninstrumented native code; the parent's judgement of the backstop is
    // the same code in the release build, which runs this in every spawn mode.
    GTEST_SKIP() << "the release build runs it";
  }
  const ProcessAdapterOptions options =
      hooks_adapter(testing::test_spawn_mode(), IsolationProfile::kIsolated);
  if (!make_process_adapter(options)->is_available()) {
    GTEST_SKIP() << "the isolated profile is unavailable on this kernel.";
  }
  HookedMode mode({testing::double_tool()}, options);
  CodeLimits limits = testing::hook_limits(/*wall_time_millis=*/120'000);
  limits.cpu_millis = 1;
  const CodeExecutionOutcome outcome =
      mode.run(testing::hook_program("() => __codemodeTestHook('spin')", limits));
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kLimitExceeded) << to_json(outcome);
  EXPECT_EQ(outcome.error->rule, "cpu_limit");
}

// The process profile's worker dies of SIGXCPU itself; the parent believes the CPU limit from the
// CPU time wait4 reports (6 s), not from the signal.
TEST(IsolationBackstop, CpuBackstopEndsAProcessProfileWorkerSpinningInNativeCode) {
  CODEMODE_REQUIRE_TESTHOOKS_WORKER();
  CODEMODE_SKIP_REPEATED_COMBINATION(testing::runs_for_its_spawn_mode());
  if (internal::kSanitizerBuild) {
    // Six seconds of CPU in uninstrumented native code; the parent's judgement of the backstop is
    // the same code in the release build, which runs this in every spawn mode.
    GTEST_SKIP() << "the release build runs it";
  }
  HookedMode mode({testing::double_tool()},
                  hooks_adapter(testing::test_spawn_mode(), IsolationProfile::kProcess));
  CodeLimits limits = testing::hook_limits(/*wall_time_millis=*/120'000);
  limits.cpu_millis = 1;
  const CodeExecutionOutcome outcome =
      mode.run(testing::hook_program("() => __codemodeTestHook('spin')", limits));
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kLimitExceeded) << to_json(outcome);
  EXPECT_EQ(outcome.error->rule, "cpu_limit");
}

// Status 5 is what the isolated worker exits with when it catches the backstop's SIGXCPU; a
// worker that exits 5 with little CPU used did not meet the backstop (a crash, an escaped
// worker): worker_exited, never cpu_limit.
TEST(IsolationBackstop, ExitStatusFiveAloneIsNotTheCpuBackstop) {
  CODEMODE_REQUIRE_TESTHOOKS_WORKER();
  CODEMODE_SKIP_REPEATED_COMBINATION(testing::runs_for_its_spawn_mode());
  const ProcessAdapterOptions options =
      hooks_adapter(testing::test_spawn_mode(), IsolationProfile::kIsolated);
  if (!make_process_adapter(options)->is_available()) {
    GTEST_SKIP() << "the isolated profile is unavailable on this kernel.";
  }
  HookedMode mode({testing::double_tool()}, options);
  const CodeExecutionOutcome outcome =
      mode.run(testing::hook_program("() => { __codemodeTestHook('exit', 5); return 1; }"));
  testing::expect_sandbox_fault(outcome, "worker_exited");
}

TEST(IsolationUnavailable, RefusedNamespacesAreUnsupportedProfileNeverLess) {
  CODEMODE_REQUIRE_TESTHOOKS_WORKER();
  // Earlier tests of this binary may keep a fork server of their own.
  const std::vector<pid_t> children_before = testing::child_pids();
  auto adapter = internal::make_process_adapter_probed_by(
      hooks_adapter(SpawnMode::kForkServer, IsolationProfile::kIsolated), [] { return false; });
  EXPECT_EQ(adapter->id(), "codemode.isolated");
  auto mode =
      CodeMode::create({.adapter = adapter, .invoke_tool = testing::doubling_broker()}).value();
  const CodeExecutionOutcome outcome =
      mode->execute(testing::hook_program("() => __codemodeTestHook('isolation')"), Json::object(),
                    testing::execute_options("unsupported"));
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kUnsupportedProfile);
  EXPECT_FALSE(outcome.output.has_value());
  EXPECT_EQ(testing::child_pids(), children_before) << "no worker or server was started";
}

}  // namespace
}  // namespace codemode
