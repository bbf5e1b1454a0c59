// The real process adapter over codemode-worker-testhooks, for tests that make a confined worker
// misbehave from native code while its program runs (src/worker/test_hooks.h): a CodeMode that
// counts broker calls, programs that call __codemodeTestHook, the bytes of hand-made frames, and
// what this process can see of the worker in /proc.
// A HookedMode owns its CodeMode; it is not thread-safe (run counts and times one execution at a
// time).
#ifndef CODEMODE_TESTS_SUPPORT_TESTHOOKS_FIXTURE_H_
#define CODEMODE_TESTS_SUPPORT_TESTHOOKS_FIXTURE_H_

#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "codemode/budget.h"
#include "codemode/code_mode.h"
#include "codemode/process_adapter.h"

#include "support/adapter_options.h"
#include "support/executor_fixture.h"
#include "support/process_support.h"
#include "support/program_fixture.h"

namespace codemode::testing {

// Skips the test, with the reason printed, when the test-hooks worker was not built.
#define CODEMODE_REQUIRE_TESTHOOKS_WORKER()                                                \
  if (!::codemode::testing::testhooks_worker_binary()) {                                   \
    GTEST_SKIP() << "codemode-worker-testhooks is not built in this configuration, so no " \
                    "worker can be made to misbehave from native code.";                   \
  }

// A JavaScript string literal whose code units are `bytes`, one each (the hooks read them back
// as bytes).
inline std::string js_bytes(std::string_view bytes) {
  std::string literal = "'";
  char escape[8];
  for (unsigned char byte : bytes) {
    std::snprintf(escape, sizeof escape, "\\x%02x", byte);
    literal += escape;
  }
  return literal + "'";
}

// A frame as the worker would write it: a 4-byte big-endian `length`, then `body`.
inline std::string frame_bytes(std::string_view body, std::size_t length) {
  std::string frame(4, '\0');
  for (int i = 0; i < 4; ++i) frame[3 - i] = static_cast<char>((length >> (8 * i)) & 0xFF);
  return frame.append(body);
}
inline std::string frame_bytes(std::string_view body) { return frame_bytes(body, body.size()); }
inline std::string json_frame(const Json& message) { return frame_bytes(message.dump()); }

// Limits for hook programs: small and quick, with room for a few calls.
inline CodeLimits hook_limits(std::int64_t wall_time_millis = 3'000) {
  CodeLimits limits = reference_limits();
  limits.cpu_millis = 1'000;
  limits.wall_time_millis = wall_time_millis;
  return limits;
}

// A JavaScript program with any input and output, calling `tools` (number.double by default).
inline CodeProgram hook_program(std::string source, CodeLimits limits = hook_limits(),
                                std::vector<Tool> tools = {double_tool()}) {
  return any_json_program(std::move(source), limits, std::move(tools));
}

// One CodeMode on the test-hooks worker with the standard broker (every tool and effect granted),
// counting the calls that reach the broker. Each run gets a new execution id and is timed.
class HookedMode {
 public:
  // `adapter`: the process adapter's options; by default the test-hooks worker in this test run's
  // spawn mode and isolation profile (adapter_options.h).
  explicit HookedMode(std::vector<Tool> tools = {double_tool()},
                      std::optional<ProcessAdapterOptions> adapter = std::nullopt)
      : broker_calls_(std::make_shared<std::atomic<int>>(0)) {
    StandardBrokerOptions options{
        .budget = Budget::create({.max_cost_micros = 1'000'000, .max_calls = 1'000}).value()};
    for (const Tool& tool : tools) options.permissions.allow.push_back("tool:" + tool.id());
    options.permissions.allow.insert(options.permissions.allow.end(),
                                     {"effect:read", "effect:write", "effect:host"});
    ToolBroker inner = standard_broker(std::move(options));
    mode_ =
        CodeMode::create({.adapter = make_process_adapter(
                              adapter.value_or(adapter_options(*testhooks_worker_binary()))),
                          .invoke_tool =
                              [calls = broker_calls_, inner](const Tool& tool, const Json& input,
                                                             const BrokerContext& context) {
                                ++*calls;
                                return inner(tool, input, context);
                              }})
            .value();
  }

  CodeExecutionOutcome run(const CodeProgram& program, const Json& input = Json::object()) {
    const auto start = std::chrono::steady_clock::now();
    CodeExecutionOutcome outcome =
        mode_->execute(program, input, execute_options("hooked-" + std::to_string(++runs_)));
    elapsed_ = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start);
    return outcome;
  }

  // The last run's duration.
  std::chrono::milliseconds elapsed() const { return elapsed_; }
  int broker_calls() const { return *broker_calls_; }

  // A plain program on the same CodeMode must still work (a fresh worker, nothing inherited).
  void expect_next_execution_works() {
    const CodeExecutionOutcome next =
        run(hook_program("(input) => ({ value: input.value + 1 })"), {{"value", 41}});
    ASSERT_TRUE(next.ok()) << to_json(next);
    EXPECT_EQ(*next.output, Json({{"value", 42}}));
  }

 private:
  std::unique_ptr<CodeMode> mode_;
  std::shared_ptr<std::atomic<int>> broker_calls_;
  int runs_ = 0;
  std::chrono::milliseconds elapsed_{0};
};

// The execution failed because the sandbox did: TOOL_FAILED with `rule` (a SandboxFault's name)
// and nothing of what the worker wrote.
inline void expect_sandbox_fault(const CodeExecutionOutcome& outcome, std::string_view rule) {
  EXPECT_EQ(outcome.status, OutcomeStatus::kFailed) << to_json(outcome);
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kToolFailed);
  EXPECT_EQ(outcome.error->rule, rule);
  EXPECT_FALSE(outcome.output.has_value());
  EXPECT_FALSE(outcome.program_error.has_value());
}

// Children of this process running the test-hooks worker that are still alive (a zombie has no
// /proc/<pid>/exe to read), fork servers aside.
inline std::vector<pid_t> live_testhooks_workers() {
  std::vector<pid_t> workers;
  const std::filesystem::path binary = *testhooks_worker_binary();
  for (pid_t pid : child_pids_but_fork_servers()) {
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/" + std::to_string(pid) + "/exe", error);
    if (!error && std::filesystem::equivalent(exe, binary, error)) workers.push_back(pid);
  }
  return workers;
}

// Polls `done` every millisecond until it holds or `timeout` passes; whether it held.
inline bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_TESTHOOKS_FIXTURE_H_
