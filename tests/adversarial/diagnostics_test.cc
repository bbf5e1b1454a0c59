// What a worker writes to stderr, through the real process adapter: the parent drains it
// continuously (a full pipe would stall the worker), keeps none of it, and never lets any of it
// into an outcome, its error or its JSON, however much there is and however the execution ends.
// It only counts it: the outcome's diagnostics hold the bytes seen, up to 64 KiB, and whether
// there were more.
#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "support/testhooks_fixture.h"
#include "support/timing.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;
using testing::HookedMode;
using testing::js_bytes;

constexpr const char* kMarker = "codemode-diagnostic-marker-5d1e";
constexpr const char* kToken = "ghp_9Qx2LmZr7TfWcA04secretTOKEN";

// One line of the flood: the marker and a token-shaped secret, as a leaky engine might print.
std::string diagnostic_line() {
  return std::string(kMarker) + " GITHUB_TOKEN=" + kToken + " /home/host/.config/secret\n";
}

void expect_no_trace_of_stderr(const CodeExecutionOutcome& outcome) {
  const std::string json = to_json(outcome).dump();
  for (const char* needle : {kMarker, kToken, "GITHUB_TOKEN", "/home/host", "codemode-diag"}) {
    EXPECT_EQ(json.find(needle), std::string::npos) << needle << " leaked into " << json;
  }
}

class DiagnosticsTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_TESTHOOKS_WORKER(); }
  void TearDown() override {
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty()) << "the worker was left behind";
  }
};

TEST_F(DiagnosticsTest, HundredMegabytesOfStderrAreDrainedAndNeverShown) {
  const std::string line = diagnostic_line();
  const std::int64_t lines = (100 << 20) / static_cast<std::int64_t>(line.size()) + 1;
  CodeLimits limits = testing::hook_limits(20'000);
  limits.cpu_millis = 10'000;
  HookedMode mode;
  const CodeExecutionOutcome outcome =
      mode.run(testing::hook_program("() => ({ written: __codemodeTestHook('write_stderr', " +
                                         js_bytes(line) + ", " + std::to_string(lines) + ") })",
                                     limits));
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  // Every byte was written: the worker would have blocked on a full pipe had the parent stopped
  // reading, and the execution would have ended at the wall deadline instead.
  EXPECT_EQ(*outcome.output, Json({{"written", lines * static_cast<std::int64_t>(line.size())}}));
  EXPECT_GE(lines * static_cast<std::int64_t>(line.size()), 100 << 20);
  EXPECT_EQ(outcome.diagnostics,
            (WorkerDiagnostics{.diagnostic_bytes = 64 << 10, .diagnostics_truncated = true}));
  expect_no_trace_of_stderr(outcome);
  EXPECT_LT(mode.elapsed(), testing::slack(10s));
  mode.expect_next_execution_works();
}

// The same diagnostics, then each way an execution can fail: no outcome carries any of them.
TEST_F(DiagnosticsTest, StderrNeverReachesAFailedOutcome) {
  const std::string flood =
      "__codemodeTestHook('write_stderr', " + js_bytes(diagnostic_line()) + ", 20000);";
  HookedMode mode;
  const std::vector<std::pair<std::string, std::string>> endings = {
      {"throw new Error('see stderr');", "program_error"},
      {"__codemodeTestHook('segfault');", "worker_exited"},
      {"__codemodeTestHook('write_stdout', 'garbage!'); __codemodeTestHook('hang');",
       "worker_protocol_error"},
      {"__codemodeTestHook('socket');", "worker_exited"},
  };
  for (const auto& [ending, rule] : endings) {
    const CodeExecutionOutcome outcome =
        mode.run(testing::hook_program("() => { " + flood + " " + ending + " return 1; }"));
    ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
    EXPECT_EQ(outcome.error->rule, rule);
    EXPECT_EQ(outcome.diagnostics,
              (WorkerDiagnostics{.diagnostic_bytes = 64 << 10, .diagnostics_truncated = true}))
        << rule;
    expect_no_trace_of_stderr(outcome);
  }
  mode.expect_next_execution_works();
}

// The count is exact up to the cap, and the truncation bit is set only past it. A worker that
// writes nothing counts zero.
TEST_F(DiagnosticsTest, TheCountIsExactUpToTheCapAndTruncatedPastIt) {
  constexpr std::int64_t kCap = WorkerDiagnostics::kMaxDiagnosticBytes;
  HookedMode mode;
  const std::vector<std::pair<std::int64_t, WorkerDiagnostics>> cases = {
      {0, {}},
      {1, {.diagnostic_bytes = 1}},
      {kCap - 1, {.diagnostic_bytes = kCap - 1}},
      {kCap, {.diagnostic_bytes = kCap}},
      {kCap + 1, {.diagnostic_bytes = kCap, .diagnostics_truncated = true}},
  };
  for (const auto& [bytes, expected] : cases) {
    // One byte, `bytes` times (no write at all for 0).
    const std::string write =
        bytes == 0 ? "" : "__codemodeTestHook('write_stderr', 'c', " + std::to_string(bytes) + ");";
    const CodeExecutionOutcome outcome =
        mode.run(testing::hook_program("() => { " + write + " return 1; }"));
    ASSERT_TRUE(outcome.ok()) << to_json(outcome);
    EXPECT_EQ(outcome.diagnostics, expected) << bytes << " bytes written";
    EXPECT_EQ(to_json(outcome).dump().find("diagnostic"), std::string::npos);
  }
}

}  // namespace
}  // namespace codemode
