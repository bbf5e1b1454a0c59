// 1,000 mixed executions through the real process adapter, four at a time: successes, tool calls,
// program errors, invalid output, CPU limits, seccomp kills and wall timeouts. Afterwards this
// process holds no more fds than before, has no child (this test is a child subreaper, so an
// orphaned grandchild would be reparented here and seen), and /tmp and /dev/shm are as they were
// before the adapters existed.
//
// /tmp and /dev/shm are shared with every other test and build on the machine, so the test runs in
// a child process of its own whose /tmp and /dev/shm are empty tmpfs mounts only it (and the
// workers and fork servers it starts) can see (tests/support/private_tmp.h): whatever appears
// there was made by codemode. Where no such child can be made, the fd and process checks still run
// and the test ends skipped, saying the file check did not.
#include <array>
#include <iostream>
#include <thread>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "support/adapter_options.h"
#include "support/executor_fixture.h"
#include "support/private_tmp.h"
#include "support/process_support.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;

constexpr int kExecutions = 1000;
constexpr int kThreads = 4;

CodeProgram js_program(std::string source, std::int64_t cpu_millis = 1000,
                       std::int64_t wall_millis = 10000) {
  CodeProgramOptions options = testing::calculate_options();
  options.language = ProgramLanguage::kJavaScript;
  options.source = std::move(source);
  options.input = Schema::any();
  options.output = Schema::any();
  options.limits.cpu_millis = cpu_millis;
  options.limits.wall_time_millis = wall_millis;
  return define_code_program(options).value();
}

// A broker that doubles, except for inputs with "wait": those wait for the execution's stop and
// end not started (so the wall timeout, not an unknown call, decides the outcome).
ToolBroker mixed_broker() {
  return [](const Tool& tool, const Json& input, const BrokerContext& context) {
    if (!input.contains("wait")) return testing::doubling_broker()(tool, input, context);
    while (!context.stop_token.stop_requested()) std::this_thread::sleep_for(1ms);
    return ToolOutcome::failed(
        Error::cancelled("cancelled", "stopped"),
        testing::receipt_for(context, tool, ExecutionState::kNotStarted, Disclosure::kWithheld));
  };
}

struct Kind {
  CodeProgram program;
  bool use_test_hooks;
  std::optional<std::string> rule;  // nullopt: succeeded
};

std::vector<Kind> kinds() {
  return {
      {js_program("(input) => ({ value: input.value + 1 })"), false, std::nullopt},
      {js_program("async (input, tools) => (await tools.call('number.double', input)).output"),
       false, std::nullopt},
      {js_program("() => { throw new RangeError('no'); }"), false, "program_error"},
      {js_program("() => undefined"), false, "output_not_json"},
      {js_program("() => { for (;;) {} }", 20), false, "cpu_limit"},
      {js_program("() => __codemodeTestHook('socket')"), true, "worker_exited"},
      {js_program("async (input, tools) => tools.call('number.double', { value: 1, wait: 1 })",
                  1000, 50),
       false, "wall_time_limit"},
  };
}

// The stress itself, in this process; /tmp and /dev/shm are checked when `check_files` (they are
// this process's own then).
void run_stress(bool check_files) {
  const std::optional<std::string> hooks = testing::testhooks_worker_binary();
  ASSERT_TRUE(hooks.has_value());
  const testing::SubreaperScope subreaper;
  ASSERT_TRUE(subreaper.active());
  // Before any adapter exists: in the child, these private directories are empty, and must stay so.
  const auto tmp_before = testing::directory_entries("/tmp");
  const auto shm_before = testing::directory_entries("/dev/shm");
  auto mode =
      CodeMode::create(
          {.adapter = make_process_adapter(testing::adapter_options(*testing::worker_binary())),
           .invoke_tool = mixed_broker()})
          .value();
  auto hooks_mode =
      CodeMode::create({.adapter = make_process_adapter(testing::adapter_options(*hooks)),
                        .invoke_tool = mixed_broker()})
          .value();
  const std::vector<Kind> all = kinds();
  // Warm up once so lazily created process-wide state (the deadline timer thread, each adapter's
  // fork server and its socket) is not counted.
  ASSERT_TRUE(mode->execute(all[0].program, {{"value", 1}}, testing::execute_options("warm")).ok());
  ASSERT_TRUE(
      hooks_mode->execute(all[0].program, {{"value", 1}}, testing::execute_options("warm")).ok());
  const std::size_t fds_before = testing::open_fd_count();
  const std::vector<pid_t> children_before = testing::child_pids();  // the fork servers, if any

  std::atomic<int> mismatches{0};
  std::vector<std::jthread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = t; i < kExecutions; i += kThreads) {
        const Kind& kind = all[i % all.size()];
        CodeMode& runner = kind.use_test_hooks ? *hooks_mode : *mode;
        const CodeExecutionOutcome outcome = runner.execute(
            kind.program, {{"value", i}}, testing::execute_options("e-" + std::to_string(i)));
        const bool expected =
            kind.rule ? outcome.error && outcome.error->rule == *kind.rule : outcome.ok();
        if (!expected) {
          ++mismatches;
          ADD_FAILURE() << "execution " << i << ": " << to_json(outcome);
        }
      }
    });
  }
  threads.clear();

  EXPECT_EQ(mismatches, 0);
  EXPECT_EQ(testing::open_fd_count(), fds_before);
  EXPECT_EQ(testing::child_pids(), children_before);
  if (check_files) {
    EXPECT_EQ(testing::directory_entries("/tmp"), tmp_before);
    EXPECT_EQ(testing::directory_entries("/dev/shm"), shm_before);
  }
}

TEST(ProcessAdapterStress, ThousandMixedExecutionsLeaveNoProcessFdOrFile) {
  CODEMODE_REQUIRE_WORKER();
  if (!testing::testhooks_worker_binary()) {
    GTEST_SKIP() << "codemode-worker-testhooks is not built in this configuration.";
  }
  if (testing::in_private_tmp()) {  // the child: /tmp and /dev/shm are its own
    run_stress(/*check_files=*/true);
    return;
  }
  // A build under /tmp or /dev/shm (a clone made with mktemp -d) would vanish under the private
  // mounts, worker and all: then only fds and processes are checked, as below.
  const std::string build_dir = CODEMODE_BINARY_DIR;
  const bool build_in_tmp = build_dir.starts_with("/tmp/") || build_dir.starts_with("/dev/shm/");
  const testing::PrivateTmpRun run =
      build_in_tmp ? testing::PrivateTmpRun{.unavailable = "the build directory is under /tmp"}
                   : testing::run_current_test_in_private_tmp();
  if (run.unavailable.empty()) {
    std::cout << run.output;
    EXPECT_TRUE(run.passed()) << "the run with a private /tmp and /dev/shm failed (exit "
                              << (run.exit_code ? std::to_string(*run.exit_code) : "none")
                              << ", signal " << run.signal << "); its output is above";
    return;
  }
  run_stress(/*check_files=*/false);
  if (HasFailure()) return;
  GTEST_SKIP() << "fds and processes were checked, but not /tmp and /dev/shm: no private ones "
                  "could be made ("
               << run.unavailable << "), and the shared ones change under other tests";
}

}  // namespace
}  // namespace codemode
