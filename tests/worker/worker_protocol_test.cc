// The wire protocol as codemode-worker speaks it (docs/protocol.md): the confined frame comes
// first, and anything malformed, unexpected or out of order from the parent ends the execution
// with sandbox_error and a non-zero exit status.
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <sys/wait.h>

#include <gtest/gtest.h>

#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

constexpr const char* kWaitsForTwoCalls =
    "async (i, tools) => (await Promise.all([tools.call('a', {}), tools.call('b', {})])).length";

// Expects the worker to report sandbox_error (if it still reports) and exit with status 1.
void expect_sandbox_error(WorkerProcess& worker) {
  std::optional<Json> frame;
  while ((frame = worker.receive()) && (*frame)["type"] != "result") {
  }
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(*frame, (Json{{"type", "result"}, {"status", "failed"}, {"reason", "sandbox_error"}}));
  std::optional<int> status = worker.wait();
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 1);
}

// Starts `source` and reads up to its first toolCall.
void start_until_tool_call(WorkerProcess& worker, std::string_view source) {
  worker.send(start_frame(source, nullptr));
  std::optional<Json> frame = worker.receive();
  ASSERT_TRUE(frame.has_value());
  ASSERT_EQ((*frame)["type"], "confined");
  frame = worker.receive();
  ASSERT_TRUE(frame.has_value());
  ASSERT_EQ((*frame)["type"], "toolCall");
}

Json succeeded_answer(int call_id) {
  return Json{{"type", "toolResult"},
              {"callId", call_id},
              {"status", "succeeded"},
              {"hasOutput", true},
              {"output", 1}};
}

std::string length_prefix(std::uint32_t length) {
  return std::string{static_cast<char>(length >> 24), static_cast<char>(length >> 16),
                     static_cast<char>(length >> 8), static_cast<char>(length)};
}

TEST(WorkerProtocolTest, ConfinedFrameComesFirstAndNamesTheLayers) {
  Execution run = execute("() => 1");
  ASSERT_TRUE(run.confined.has_value());
  EXPECT_EQ((*run.confined)["version"], 1);
  ASSERT_TRUE((*run.confined)["layers"].is_array());
  EXPECT_FALSE((*run.confined)["layers"].empty());
}

TEST(WorkerProtocolTest, ResultFrameIsExactlyTheDocumentedShape) {
  Execution run = execute("() => ({a: [1, 'b']})");
  EXPECT_EQ(*run.result, (Json{{"type", "result"},
                               {"status", "succeeded"},
                               {"hasOutput", true},
                               {"output", {{"a", {1, "b"}}}}}));
  EXPECT_TRUE(run.exited_normally(0));
}

TEST(WorkerProtocolTest, WrongVersion) {
  WorkerProcess worker;
  Json start = start_frame("() => 1", nullptr);
  start["version"] = 2;
  worker.send(start);
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, UnknownFirstMessage) {
  WorkerProcess worker;
  worker.send(Json{{"type", "hello"}, {"version", 1}});
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, UnknownFieldInStart) {
  WorkerProcess worker;
  Json start = start_frame("() => 1", nullptr);
  start["extra"] = true;
  worker.send(start);
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, MissingLimit) {
  WorkerProcess worker;
  Json start = start_frame("() => 1", nullptr);
  start["limits"].erase("maxToolCalls");
  worker.send(start);
  expect_sandbox_error(worker);
}

// The result frame a worker sends for `start`, or nullopt.
std::optional<Json> result_of(const Json& start) {
  WorkerProcess worker;
  worker.send(start);
  std::optional<Json> frame;
  while ((frame = worker.receive()) && (*frame)["type"] != "result") {
  }
  return frame;
}

// Each limit of the start frame runs a program at its maximum and is a sandbox error one past it
// (a parent never sends that: the program's definition refuses it first).
TEST(WorkerProtocolTest, LimitAboveItsMaximum) {
  const std::vector<std::pair<const char*, std::int64_t>> maxima = {
      {"cpuMillis", 3'600'000},          {"wallTimeMillis", 3'600'000},
      {"memoryBytes", 2'147'483'648},    {"maxOutputBytes", 16'777'216},
      {"maxToolInputBytes", 16'777'216}, {"maxToolCalls", 10'000},
      {"maxToolConcurrency", 128},
  };
  for (const auto& [name, maximum] : maxima) {
    SCOPED_TRACE(name);
    Json start = start_frame("() => 1", nullptr);
    start["limits"][name] = maximum;
    const std::optional<Json> at_maximum = result_of(start);
    ASSERT_TRUE(at_maximum.has_value());
    EXPECT_EQ((*at_maximum)["status"], "succeeded") << at_maximum->dump();
    WorkerProcess worker;
    start["limits"][name] = maximum + 1;
    worker.send(start);
    expect_sandbox_error(worker);
  }
}

TEST(WorkerProtocolTest, StackBytesOutsideItsRange) {
  for (const Json& stack : {Json(65535), Json((6 << 20) + 1), Json("1"), Json(nullptr)}) {
    WorkerProcess worker;
    Json start = start_frame("() => 1", nullptr);
    start["limits"]["stackBytes"] = stack;
    worker.send(start);
    expect_sandbox_error(worker);
  }
  WorkerProcess worker;
  Json start = start_frame("() => 1", nullptr);
  start["limits"].erase("stackBytes");
  worker.send(start);
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, TruncatedStartFrame) {
  WorkerProcess worker;
  worker.send_bytes(length_prefix(100) + "{\"type\"");
  worker.close_stdin();
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, OversizedToolResultFrame) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  // maxOutputBytes is 1 MiB: a toolResult frame may be at most 1 MiB + 64 KiB.
  worker.send_bytes(length_prefix((1u << 20) + (64u << 10) + 1));
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, MissingPresenceBit) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  Json answer = succeeded_answer(1);
  answer.erase("hasOutput");
  worker.send(answer);
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, PresenceBitDisagreesWithStatus) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  Json answer = succeeded_answer(1);
  answer["hasOutput"] = false;
  worker.send(answer);
  expect_sandbox_error(worker);
}

Json failed_answer(Json error) {
  return Json{{"type", "toolResult"},
              {"callId", 1},
              {"status", "failed"},
              {"hasOutput", false},
              {"error", std::move(error)}};
}

TEST(WorkerProtocolTest, UnknownErrorCodeInToolResult) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  worker.send(failed_answer({{"code", "NOPE"}, {"rule", "tool_failed"}, {"message", "m"}}));
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, ToolResultErrorWithoutARule) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  worker.send(failed_answer({{"code", "TOOL_FAILED"}, {"message", "m"}}));
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, ToolResultErrorWhoseRuleIsNotARuleName) {
  for (const Json& rule : {Json("Tool failed: /etc/secret"), Json(""), Json(7),
                           Json(std::string(65, 'a')), Json("9lives")}) {
    WorkerProcess worker;
    start_until_tool_call(worker, kWaitsForTwoCalls);
    worker.send(failed_answer({{"code", "TOOL_FAILED"}, {"rule", rule}, {"message", "m"}}));
    expect_sandbox_error(worker);
  }
}

TEST(WorkerProtocolTest, ToolResultErrorWithAnUnknownField) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  worker.send(failed_answer(
      {{"code", "TOOL_FAILED"}, {"rule", "tool_failed"}, {"message", "m"}, {"detail", "x"}}));
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, ResultForUnknownCall) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  worker.send(succeeded_answer(7));
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, ResultForAnAlreadyAnsweredCall) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  worker.send(succeeded_answer(1));
  worker.send(succeeded_answer(1));
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, SecondStartFrame) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  worker.send(start_frame("() => 2", nullptr));
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, EndOfStreamWhileWaitingForATool) {
  WorkerProcess worker;
  start_until_tool_call(worker, kWaitsForTwoCalls);
  worker.close_stdin();
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, ZeroLengthFrame) {
  WorkerProcess worker;
  worker.send_bytes(length_prefix(0));
  expect_sandbox_error(worker);
}

TEST(WorkerProtocolTest, InvalidJsonFrame) {
  WorkerProcess worker;
  worker.send_bytes(length_prefix(5) + "{nope");
  expect_sandbox_error(worker);
}

}  // namespace
}  // namespace codemode::testing
