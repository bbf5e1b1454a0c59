// In a sanitizer build the worker itself runs under AddressSanitizer and
// UndefinedBehaviorSanitizer (docs/security.md, "Sanitizer builds"): a bug in it is reported on
// fd 2 and ends it with kExitSanitizerReport, even under the system-call filter. A release build's
// test-hooks binary does not contain those bugs at all.
#include <optional>
#include <string>

#include <sys/wait.h>

#include <gtest/gtest.h>

#include "core/sanitizer_build.h"
#include "worker/exit_codes.h"
#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

struct Report {
  bool confined = false;
  bool has_result = false;
  std::optional<int> wait_status;
  std::string stderr_text;
};

// Runs __codemodeTestHook(hook) in the test-hooks worker, with its fd 2 captured.
Report run_hook(const char* hook) {
  WorkerProcess worker(kTestHooksBinary, WorkerStderr::kCapture);
  worker.send(start_frame(std::string("() => __codemodeTestHook('") + hook + "')", nullptr));
  Report report;
  std::optional<Json> confined = worker.receive();
  report.confined = confined && (*confined)["type"] == "confined";
  report.has_result = worker.receive().has_value();
  report.stderr_text = worker.read_stderr();
  report.wait_status = worker.wait();
  return report;
}

void expect_report(const Report& report, const char* text) {
  EXPECT_TRUE(report.confined) << "the bug must run under the filter";
  EXPECT_FALSE(report.has_result);
  ASSERT_TRUE(report.wait_status.has_value());
  EXPECT_TRUE(WIFEXITED(*report.wait_status) &&
              WEXITSTATUS(*report.wait_status) == worker::kExitSanitizerReport)
      << "wait status " << *report.wait_status << "\n"
      << report.stderr_text;
  EXPECT_NE(report.stderr_text.find(text), std::string::npos) << report.stderr_text;
}

TEST(WorkerSanitizerTest, HeapOverflowIsReportedOnStderrAndEndsTheWorker) {
  if (!internal::kSanitizerBuild) GTEST_SKIP() << "sanitizer builds only (CODEMODE_SANITIZE=ON)";
  const Report report = run_hook("heap_overflow");
  expect_report(report, "ERROR: AddressSanitizer: heap-buffer-overflow");
  // The stack is printed frame by frame (module+offset), not cut short by the filter.
  EXPECT_NE(report.stderr_text.find("SUMMARY: AddressSanitizer"), std::string::npos);
}

TEST(WorkerSanitizerTest, UndefinedBehaviourIsReportedOnStderrAndEndsTheWorker) {
  if (!internal::kSanitizerBuild) GTEST_SKIP() << "sanitizer builds only (CODEMODE_SANITIZE=ON)";
  expect_report(run_hook("signed_overflow"), "runtime error: signed integer overflow");
}

TEST(WorkerSanitizerTest, ReleaseTestHooksHaveNoDeliberateBugs) {
  if (internal::kSanitizerBuild) GTEST_SKIP() << "release builds only (CODEMODE_SANITIZE=OFF)";
  for (const char* hook : {"heap_overflow", "signed_overflow"}) {
    Execution run = execute(std::string("() => __codemodeTestHook('") + hook + "')", nullptr, {},
                            echo_tool, kTestHooksBinary);
    ASSERT_TRUE(run.succeeded()) << hook;
    EXPECT_EQ(run.output(), -1) << hook << " is compiled into a release binary";
  }
}

// A sanitized worker must stay quiet when nothing is wrong: its start-up (the UBSan runtime is
// started before confinement) writes nothing to fd 2.
TEST(WorkerSanitizerTest, CleanRunWritesNothingToStderr) {
  WorkerProcess worker(kWorkerBinary, WorkerStderr::kCapture);
  worker.send(start_frame("(input) => input + 1", 41));
  ASSERT_TRUE(worker.receive().has_value());  // confined
  std::optional<Json> result = worker.receive();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ((*result)["output"], 42);
  EXPECT_EQ(worker.read_stderr(), "");
  const std::optional<int> status = worker.wait();
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == worker::kExitCompleted);
}

}  // namespace
}  // namespace codemode::testing
