// The code tool's result from a program's envelope: the result measured alone against
// finalResultBytes, logs beside it (present exactly when console capture is on, within their cap),
// the two thrown shapes, and every other shape refused (only a program that broke out of its
// wrapper can return one).
#include "mcp/code_tool/code_result.h"

#include <gtest/gtest.h>

#include "mcp/catalog/tool_results.h"

namespace codemode::mcp {
namespace {

// The envelope's own logs are the standard profile's; the model profile's come from the worker
// (ModelProfileLogs below).
McpPolicy with_logs(std::int64_t cap) {
  return McpPolicy{.final_result_bytes = 16,
                   .console_logs = true,
                   .console_log_bytes = cap,
                   .program_profile = ProgramProfile::kStandard};
}

McpPolicy standard() { return McpPolicy{.program_profile = ProgramProfile::kStandard}; }

void expect_text_matches(const Json& result) {
  EXPECT_EQ(Json::parse(result.at("content").at(0).at("text").get<std::string>()),
            result.at("structuredContent"));
}

TEST(CodeResultTest, AResultComesBackAsStructuredContentAndText) {
  const Json result = code_result(Json{{"result", {1, 2}}}, standard());
  EXPECT_EQ(result.at("isError"), false);
  EXPECT_EQ(result.at("structuredContent"), (Json{{"result", {1, 2}}}));
  expect_text_matches(result);
}

TEST(CodeResultTest, LogsComeBackBesideTheResultWhenCaptureIsOn) {
  const Json result = code_result(Json{{"result", 1}, {"logs", {"a", "b"}}}, with_logs(64));
  EXPECT_EQ(result.at("structuredContent"), (Json{{"result", 1}, {"logs", {"a", "b"}}}));
  expect_text_matches(result);
}

TEST(CodeResultTest, FinalResultBytesCountTheResultAloneNotTheLogs) {
  // 16 bytes of result with 40 bytes of logs passes; 17 bytes of result fails, logs kept.
  const Json logs = Json::array({std::string(36, 'l')});
  const Json fits =
      code_result(Json{{"result", std::string(14, 'r')}, {"logs", logs}}, with_logs(64));
  EXPECT_EQ(fits.at("isError"), false);
  const Json over =
      code_result(Json{{"result", std::string(15, 'r')}, {"logs", logs}}, with_logs(64));
  EXPECT_EQ(over.at("isError"), true);
  EXPECT_EQ(over.at("structuredContent").at("code"), "final_result_bytes_limit");
  EXPECT_EQ(
      over.at("structuredContent").at("message"),
      "final JSON is 17 bytes and exceeds the 16-byte limit; return fewer fields or items, or "
      "use the repository tools' compact formats (read with format \"text\", list with "
      "format \"paths\")");
  EXPECT_EQ(over.at("structuredContent").at("logs"), logs);
}

TEST(CodeResultTest, LogsPastTheirCapOrOfTheWrongShapeAreRefused) {
  // The prelude keeps logs within the cap; a program that broke out of it may not pass it.
  const Json at_cap = Json::array({std::string(60, 'l')});  // 64 bytes as JSON
  EXPECT_EQ(code_result(Json{{"result", 1}, {"logs", at_cap}}, with_logs(64)).at("isError"), false);
  const Json over = Json::array({std::string(61, 'l')});
  for (const Json& logs : {over, Json("text"), Json::array({1}), Json::object()}) {
    const Json result = code_result(Json{{"result", 1}, {"logs", logs}}, with_logs(64));
    EXPECT_EQ(result.at("structuredContent").at("code"), "code_rejected") << logs;
  }
  // Present exactly when capture is on.
  EXPECT_EQ(code_result(Json{{"result", 1}}, with_logs(64)).at("isError"), true);
  EXPECT_EQ(code_result(Json{{"result", 1}, {"logs", Json::array()}}, standard()).at("isError"),
            true);
}

TEST(CodeResultTest, ARethrownHostCallsLimitKeepsItsCode) {
  const Json result = code_result(Json{{"error", {{"code", "host_calls_limit"}}}}, standard());
  EXPECT_EQ(result.at("isError"), true);
  EXPECT_EQ(result.at("structuredContent"),
            (Json{{"code", "host_calls_limit"}, {"message", "host-call budget exhausted"}}));
  expect_text_matches(result);
}

TEST(CodeResultTest, ARethrownServerHostOperationsLimitKeepsItsCode) {
  const Json result =
      code_result(Json{{"error", {{"code", "server_host_operations_limit"}}}}, standard());
  EXPECT_EQ(result.at("isError"), true);
  EXPECT_EQ(result.at("structuredContent"),
            (Json{{"code", "server_host_operations_limit"},
                  {"message", "server host-operation capacity is exhausted"}}));
  expect_text_matches(result);
}

TEST(CodeResultTest, AThrowWithLogsIsCodeRejectedWithTheProgramsMessageAndTheLogs) {
  const Json result = code_result(
      Json{{"error", {{"code", "code_rejected"}, {"message", "boom"}}}, {"logs", {"before"}}},
      with_logs(64));
  EXPECT_EQ(result.at("structuredContent"),
            (Json{{"code", "code_rejected"}, {"message", "boom"}, {"logs", {"before"}}}));
}

TEST(CodeResultTest, AThrownMessageIsCappedAt1024Units) {
  const Json result =
      code_result(Json{{"error", {{"code", "code_rejected"}, {"message", std::string(5000, 'm')}}},
                       {"logs", Json::array()}},
                  with_logs(64));
  EXPECT_EQ(result.at("structuredContent").at("message").get<std::string>().size(), 1024u);
}

TEST(CodeResultTest, TheWorkersMeasureOfAnOversizedResultIsBelievedOnlyAboveTheCap) {
  const Json over =
      code_result(Json{{"error", {{"code", "final_result_bytes_limit"}, {"bytes", 100002}}}}, {});
  EXPECT_EQ(over.at("structuredContent"),
            (Json{{"code", "final_result_bytes_limit"},
                  {"message", final_result_too_large(100002, 49152)}}));
  for (const Json& error :
       {Json{{"code", "final_result_bytes_limit"}, {"bytes", 49152}},
        Json{{"code", "final_result_bytes_limit"}, {"bytes", "100002"}},
        Json{{"code", "final_result_bytes_limit"}},
        Json{{"code", "final_result_bytes_limit"}, {"bytes", 60000}, {"message", "x"}}}) {
    EXPECT_EQ(code_result(Json{{"error", error}}, {}).at("structuredContent").at("message"),
              "The program's result does not have the code tool's envelope.")
        << error;
  }
}

TEST(CodeResultTest, EveryOtherShapeIsCodeRejected) {
  for (const Json& envelope :
       {Json(1), Json::object(), Json{{"result", 1}, {"extra", 2}},
        Json{{"result", 1}, {"error", {{"code", "host_calls_limit"}}}},
        Json{{"error", {{"code", "server_workers_limit"}}}},
        Json{{"error", {{"code", "host_calls_limit"}, {"message", "spoofed"}}}},
        Json{{"error", {{"code", "code_rejected"}}}}, Json{{"error", "boom"}}}) {
    const Json result = code_result(envelope, standard());
    EXPECT_EQ(result.at("isError"), true) << envelope;
    EXPECT_EQ(result.at("structuredContent").at("code"), "code_rejected") << envelope;
    EXPECT_EQ(result.at("structuredContent").at("message"),
              "The program's result does not have the code tool's envelope.");
  }
}

TEST(CodeResultTest, TheModelProfilesLogsComeFromTheWorkerFittedToTheCap) {
  McpPolicy policy = with_logs(40);
  policy.program_profile = ProgramProfile::kModel;
  const ProgramLogs logs{.lines = {"alpha", "beta", "gamma", "delta", "epsilon"}, .dropped = 0};
  const Json result = code_result(Json{{"result", 1}}, policy, logs);
  ASSERT_EQ(result.at("isError"), false);
  const Json& shown = result.at("structuredContent").at("logs");
  EXPECT_LE(json_text(shown).size(), 40u);
  EXPECT_EQ(shown, Json({"alpha", "beta", "[logs truncated]"}));
  // An envelope that carries logs of its own is not the model profile's: refused.
  EXPECT_EQ(code_result(Json{{"result", 1}, {"logs", Json::array()}}, policy, logs).at("isError"),
            true);
  // Lines the worker dropped end the logs with the marker too.
  const Json dropped =
      code_result(Json{{"result", 1}}, policy, ProgramLogs{.lines = {"a"}, .dropped = 3});
  EXPECT_EQ(dropped.at("structuredContent").at("logs"), Json({"a", "[logs truncated]"}));
  // Capture off: no logs at all.
  policy.console_logs = false;
  EXPECT_EQ(code_result(Json{{"result", 1}}, policy, logs).at("structuredContent"),
            Json({{"result", 1}}));
}

}  // namespace
}  // namespace codemode::mcp
