// 1,000 mixed executions through the real process adapter, four at a time: successes, tool calls,
// program errors, invalid output, CPU limits, seccomp kills and wall timeouts. Afterwards this
// process holds no more fds than before, has no child (this test is a child subreaper, so an
// orphaned grandchild would be reparented here and seen), and /tmp and /dev/shm are unchanged.
#include <sys/prctl.h>

#include <gtest/gtest.h>

#include <array>
#include <thread>

#include "codemode/process_adapter.h"
#include "support/adapter_options.h"
#include "support/executor_fixture.h"
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
        {ErrorCode::kCancelled, "cancelled", "stopped"},
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

// Entries of `dir` that were not in `before`, except a compiler's temporaries ("cc" + 6 random
// characters + a suffix, as GCC names them): builds run beside the tests on a shared machine.
std::set<std::string> new_entries(const std::string& dir, const std::set<std::string>& before) {
  std::set<std::string> added;
  for (const std::string& name : testing::directory_entries(dir)) {
    const bool compiler_temporary = name.size() > 9 && name.rfind("cc", 0) == 0 && name[8] == '.';
    if (!before.contains(name) && !compiler_temporary) added.insert(name);
  }
  return added;
}

TEST(ProcessAdapterStress, ThousandMixedExecutionsLeaveNoProcessFdOrFile) {
  CODEMODE_REQUIRE_WORKER();
  const std::optional<std::string> hooks = testing::testhooks_worker_binary();
  if (!hooks) GTEST_SKIP() << "codemode-worker-testhooks is not built in this configuration.";
  ASSERT_EQ(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
  auto mode =
      create_code_mode(
          {.adapter = make_process_adapter(testing::adapter_options(*testing::worker_binary())),
           .invoke_tool = mixed_broker()})
          .value();
  auto hooks_mode =
      create_code_mode({.adapter = make_process_adapter(testing::adapter_options(*hooks)),
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
  const auto tmp_before = testing::directory_entries("/tmp");
  const auto shm_before = testing::directory_entries("/dev/shm");

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
  EXPECT_EQ(new_entries("/tmp", tmp_before), std::set<std::string>());
  EXPECT_EQ(new_entries("/dev/shm", shm_before), std::set<std::string>());
}

}  // namespace
}  // namespace codemode
