// What the code tool tells the server's log of a worker that wrote to its stderr, with the
// test-hooks worker printing a secret there: one event per such invocation with the count and the
// truncation bit, none for a worker that printed nothing, and nothing of the bytes in the event or
// in the client's answer, whether the program succeeds or its worker dies.
#include "mcp/code_tool/diagnostics_log.h"

#include <mutex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "mcp/code_tool/code_tool.h"
#include "support/process_support.h"
#include "support/testhooks_fixture.h"

namespace codemode::mcp {
namespace {

constexpr const char* kSecret = "LEAKED-STDERR ghp_diagnosticsSECRET ";

class DiagnosticsLogTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_TESTHOOKS_WORKER(); }

  // The client's answer to `code`; the events the tool logged go to events_.
  Json run(const std::string& code) {
    McpPolicy policy{.wall_time_millis = 5000};
    Result<std::unique_ptr<CodeTool>> tool =
        CodeTool::create(ToolCatalog(), policy,
                         make_process_adapter({.worker_path = *testing::testhooks_worker_binary(),
                                               .stack_bytes = policy.stack_bytes}),
                         ServerCapacity::create(policy), [this](const Json& event) {
                           const std::lock_guard lock(mu_);
                           events_.push_back(event);
                         });
    EXPECT_TRUE(tool.ok());
    if (!tool.ok()) return Json();
    return (*tool)->call(Json{{"code", code}}, std::stop_token());
  }

  // `times` writes of the secret to the worker's stderr, then `ending`.
  static std::string writing(long long times, const std::string& ending) {
    return "__codemodeTestHook('write_stderr', '" + std::string(kSecret) + "', " +
           std::to_string(times) + "); " + ending;
  }

  std::vector<Json> events() {
    const std::lock_guard lock(mu_);
    return events_;
  }

  static void expect_no_secret(const Json& json) {
    EXPECT_EQ(json.dump().find("LEAKED"), std::string::npos) << json.dump();
    EXPECT_EQ(json.dump().find("ghp_"), std::string::npos) << json.dump();
  }

 private:
  std::mutex mu_;
  std::vector<Json> events_;
};

TEST_F(DiagnosticsLogTest, AWorkerThatWroteGetsOneEventWithItsCountAndNoneOfItsBytes) {
  const Json answer = run(writing(3, "return 7;"));
  EXPECT_EQ(answer.at("structuredContent"), Json({{"result", 7}})) << answer.dump();
  expect_no_secret(answer);
  const std::vector<Json> logged = events();
  ASSERT_EQ(logged.size(), 1u);
  const Json& event = logged[0];
  EXPECT_EQ(event.at("event"), "code_worker_diagnostics");
  EXPECT_EQ(event.at("execution"), "mcp-code:1");
  EXPECT_EQ(event.at("sandbox"), "codemode.process");
  EXPECT_EQ(event.at("status"), "succeeded");
  EXPECT_FALSE(event.contains("rule"));
  EXPECT_EQ(event.at("diagnosticBytes"), 3 * std::string(kSecret).size());
  EXPECT_EQ(event.at("diagnosticsTruncated"), false);
  expect_no_secret(event);
}

TEST_F(DiagnosticsLogTest, PastTheCapTheCountStopsAndTheEventSaysTruncated) {
  const Json answer = run(writing(10'000, "__codemodeTestHook('segfault'); return 1;"));
  EXPECT_EQ(answer.at("isError"), true) << answer.dump();
  expect_no_secret(answer);
  const std::vector<Json> logged = events();
  ASSERT_EQ(logged.size(), 1u);
  EXPECT_EQ(logged[0].at("status"), "failed");
  EXPECT_EQ(logged[0].at("rule"), "worker_exited");
  EXPECT_EQ(logged[0].at("diagnosticBytes"), WorkerDiagnostics::kMaxDiagnosticBytes);
  EXPECT_EQ(logged[0].at("diagnosticsTruncated"), true);
  expect_no_secret(logged[0]);
}

TEST_F(DiagnosticsLogTest, AWorkerThatWroteNothingLogsNothing) {
  EXPECT_EQ(run("return 7;").at("structuredContent"), Json({{"result", 7}}));
  EXPECT_TRUE(events().empty());
}

TEST(WorkerDiagnosticsEvent, OnlyForAWorkerThatWrote) {
  CodeExecutionOutcome outcome;
  outcome.status = OutcomeStatus::kSucceeded;
  EXPECT_FALSE(worker_diagnostics_event("mcp-code:1", "codemode.isolated", outcome));
  outcome.diagnostics.count(5);
  const std::optional<Json> event =
      worker_diagnostics_event("mcp-code:1", "codemode.isolated", outcome);
  ASSERT_TRUE(event);
  EXPECT_EQ(*event, Json({{"event", "code_worker_diagnostics"},
                          {"execution", "mcp-code:1"},
                          {"sandbox", "codemode.isolated"},
                          {"status", "succeeded"},
                          {"diagnosticBytes", 5},
                          {"diagnosticsTruncated", false}}));
}

}  // namespace
}  // namespace codemode::mcp
