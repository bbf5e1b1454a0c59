// McpServer over an in-memory transport: the lifecycle, tools/list, tools/call through the broker,
// cancellation, the invocation cap and progress.
#include "mcp/server/mcp_server.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/timing.h"

namespace codemode::mcp {
namespace {

using namespace std::chrono_literals;

Tool make_tool(std::string id, ToolExecuteFn execute, Json input_schema = Json::object(),
               Json output_schema = Json::object(), ToolEffects effects = ToolEffects::kNone) {
  return define_tool({.id = std::move(id),
                      .version = "1",
                      .description = "A test tool.",
                      .input = Schema::compile(input_schema).value(),
                      .output = Schema::compile(output_schema).value(),
                      .effects = effects,
                      .execute = std::move(execute)})
      .value();
}

Tool echo_tool() {
  return make_tool(
      "test.echo", [](const Json& in, const ToolContext&, ToolResponder r) { r.succeed(in); },
      Json{{"type", "object"}, {"properties", {{"x", {{"type", "integer"}}}}}},
      Json{{"type", "object"}}, ToolEffects::kRead);
}

Tool scalar_tool() {
  return make_tool("test.scalar",
                   [](const Json&, const ToolContext&, ToolResponder r) { r.succeed(42); });
}

// How many test.block calls have started running (inside the broker, holding a host operation).
std::atomic<int> blocking_calls_started = 0;

// Waits until more than `before` test.block calls have started, up to slack(5 s); whether they did.
bool blocking_call_started_since(int before) {
  const auto give_up = std::chrono::steady_clock::now() + testing::slack(5s);
  while (blocking_calls_started == before) {
    if (std::chrono::steady_clock::now() > give_up) return false;
    std::this_thread::sleep_for(1ms);
  }
  return true;
}

// Answers only when stopped: a call that waits for cancellation.
Tool blocking_tool() {
  return make_tool("test.block", [](const Json&, const ToolContext& context, ToolResponder r) {
    ++blocking_calls_started;
    while (!context.stop_token.stop_requested()) std::this_thread::sleep_for(5ms);
    r.fail();
  });
}

class Transcript {
 public:
  void add(const Json& message) {
    std::lock_guard lock(mu_);
    messages_.push_back(message);
    changed_.notify_all();
  }
  // The response to request `id`, waiting up to `timeout`; null if none came.
  Json response(const Json& id, std::chrono::milliseconds timeout = testing::slack(5s)) {
    std::unique_lock lock(mu_);
    Json found;
    changed_.wait_for(lock, timeout, [&] {
      for (const Json& m : messages_) {
        if (m.contains("id") && m.at("id") == id) found = m;
      }
      return !found.is_null();
    });
    return found;
  }
  std::vector<Json> messages() {
    std::lock_guard lock(mu_);
    return messages_;
  }
  // Waits until at least `count` messages have method `method`, up to `timeout`; whether they did.
  bool await_count(const std::string& method, std::size_t count,
                   std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, timeout, [&] {
      std::size_t seen = 0;
      for (const Json& m : messages_) seen += m.value("method", "") == method ? 1 : 0;
      return seen >= count;
    });
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<Json> messages_;
};

class McpServerTest : public ::testing::Test {
 protected:
  static McpServerOptions options(McpPolicy policy,
                                  std::shared_ptr<ServerCapacity> capacity = nullptr) {
    ToolCatalog catalog;
    for (Tool tool : {echo_tool(), scalar_tool(), blocking_tool()}) {
      EXPECT_TRUE(catalog.add(tool).ok());
    }
    return McpServerOptions{.catalog = std::move(catalog),
                            .policy = std::move(policy),
                            .capacity = std::move(capacity),
                            .progress_interval = std::chrono::milliseconds(50)};
  }
  void start(McpPolicy policy = {}, std::shared_ptr<ServerCapacity> capacity = nullptr) {
    server_ = std::make_unique<McpServer>(options(std::move(policy), std::move(capacity)),
                                          [this](const Json& m) { transcript_.add(m); });
  }
  Json request(int id, std::string method, Json params = Json::object()) {
    server_->handle_line(rpc_request(id, method, std::move(params)).dump());
    return transcript_.response(id);
  }
  void initialize() {
    Json response = request(0, "initialize", {{"protocolVersion", "2025-11-25"}});
    ASSERT_TRUE(response.contains("result")) << response;
    server_->handle_line(rpc_notification("notifications/initialized", Json::object()).dump());
  }
  Json call(int id, std::string name, Json arguments) {
    return request(id, "tools/call", {{"name", name}, {"arguments", arguments}});
  }

  Transcript transcript_;
  std::unique_ptr<McpServer> server_;
};

TEST_F(McpServerTest, InitializeEchoesASupportedVersion) {
  start();
  for (const char* version : {"2025-06-18", "2025-11-25"}) {
    start();
    const Json response = request(1, "initialize", {{"protocolVersion", version}});
    EXPECT_EQ(response.at("result").at("protocolVersion"), version);
    EXPECT_EQ(response.at("result").at("capabilities"),
              Json::parse(R"({"tools":{"listChanged":false}})"));
    EXPECT_EQ(response.at("result").at("serverInfo").at("name"), "codemode");
  }
}

TEST_F(McpServerTest, InitializeAnswersTheLatestForAnUnknownVersion) {
  start();
  const Json response = request(1, "initialize", {{"protocolVersion", "2024-11-05"}});
  EXPECT_EQ(response.at("result").at("protocolVersion"), "2025-11-25");
}

TEST_F(McpServerTest, InitializeWithoutAVersionIsInvalidParams) {
  start();
  EXPECT_EQ(request(1, "initialize").at("error").at("code"), kInvalidParams);
}

TEST_F(McpServerTest, RequestsBeforeInitializeAreRefusedButPingIsAnswered) {
  start();
  EXPECT_EQ(request(1, "tools/list").at("error").at("code"), kInvalidRequest);
  EXPECT_EQ(request(2, "ping").at("result"), Json::object());
}

TEST_F(McpServerTest, ASecondInitializeIsRefused) {
  start();
  initialize();
  EXPECT_EQ(request(1, "initialize", {{"protocolVersion", "2025-11-25"}}).at("error").at("code"),
            kInvalidRequest);
}

TEST_F(McpServerTest, UnknownMethodIsMethodNotFound) {
  start();
  initialize();
  EXPECT_EQ(request(1, "resources/list").at("error").at("code"), kMethodNotFound);
}

TEST_F(McpServerTest, ToolsListIsSortedAndDeterministic) {
  start();
  initialize();
  const Json first = request(1, "tools/list");
  const Json second = request(2, "tools/list");
  EXPECT_EQ(first.at("result"), second.at("result"));
  const Json& tools = first.at("result").at("tools");
  ASSERT_EQ(tools.size(), 3u);
  EXPECT_EQ(tools[0].at("name"), "test.block");
  EXPECT_EQ(tools[1].at("name"), "test.echo");
  EXPECT_EQ(tools[1].at("outputSchema"), Json({{"type", "object"}}));
  EXPECT_EQ(tools[1].at("annotations").at("readOnlyHint"), true);
  // A tool whose output is any value advertises no outputSchema; its input is shown as an object.
  EXPECT_FALSE(tools[2].contains("outputSchema"));
  EXPECT_EQ(tools[2].at("inputSchema"), Json({{"type", "object"}}));
}

TEST_F(McpServerTest, ACursorIsInvalidParams) {
  start();
  initialize();
  EXPECT_EQ(request(1, "tools/list", {{"cursor", "x"}}).at("error").at("code"), kInvalidParams);
}

TEST_F(McpServerTest, AnObjectOutputIsStructuredContentAndText) {
  start();
  initialize();
  const Json result = call(1, "test.echo", {{"x", 3}}).at("result");
  EXPECT_EQ(result.at("isError"), false);
  EXPECT_EQ(result.at("structuredContent"), Json({{"x", 3}}));
  EXPECT_EQ(result.at("content")[0].at("text"), R"({"x":3})");
}

TEST_F(McpServerTest, AScalarOutputIsTextOnly) {
  start();
  initialize();
  const Json result = call(1, "test.scalar", Json::object()).at("result");
  EXPECT_FALSE(result.contains("structuredContent"));
  EXPECT_EQ(result.at("content")[0].at("text"), "42");
}

TEST_F(McpServerTest, InputThatFailsTheSchemaIsAToolError) {
  start();
  initialize();
  const Json result = call(1, "test.echo", {{"x", "not an integer"}}).at("result");
  EXPECT_EQ(result.at("isError"), true);
  // test.echo advertises an outputSchema, so the error is text only.
  EXPECT_FALSE(result.contains("structuredContent"));
  EXPECT_EQ(Json::parse(result.at("content")[0].at("text").get<std::string>()),
            (Json{{"code", "input_schema"}, {"message", "/x: must be integer"}}));
}

TEST_F(McpServerTest, UnknownToolIsInvalidParams) {
  start();
  initialize();
  EXPECT_EQ(call(1, "test.nope", Json::object()).at("error").at("code"), kInvalidParams);
}

TEST_F(McpServerTest, NonObjectArgumentsAreInvalidParams) {
  start();
  initialize();
  EXPECT_EQ(
      request(1, "tools/call", {{"name", "test.echo"}, {"arguments", 1}}).at("error").at("code"),
      kInvalidParams);
}

TEST_F(McpServerTest, CancelledCallStopsAndIsNotAnswered) {
  start();
  initialize();
  const int started = blocking_calls_started;
  server_->handle_line(rpc_request(5, "tools/call", {{"name", "test.block"}}).dump());
  ASSERT_TRUE(blocking_call_started_since(started));
  const auto cancelled_at = std::chrono::steady_clock::now();
  server_->handle_line(
      rpc_notification("notifications/cancelled", {{"requestId", 5}, {"reason", "x"}}).dump());
  // The slot is freed: a new call is admitted even with a cap of one (see the next test).
  server_->shutdown();
  EXPECT_LT(std::chrono::steady_clock::now() - cancelled_at, testing::slack(2s));
  EXPECT_TRUE(transcript_.response(5, 100ms).is_null());
}

TEST_F(McpServerTest, InvocationsAboveTheServerCapFailFast) {
  start({.server_invocations = 1});
  initialize();
  server_->handle_line(rpc_request(1, "tools/call", {{"name", "test.block"}}).dump());
  const Json second = call(2, "test.scalar", Json::object()).at("result");
  EXPECT_EQ(second.at("isError"), true);
  EXPECT_EQ(second.at("structuredContent").at("code"), "server_invocations_limit");
  server_->handle_line(rpc_notification("notifications/cancelled", {{"requestId", 1}}).dump());
  // Within 2 s of the cancel the slot is free again.
  Json third;
  const auto give_up = std::chrono::steady_clock::now() + testing::slack(2s);
  for (int attempt = 0;; ++attempt) {
    third = call(100 + attempt, "test.scalar", Json::object()).at("result");
    if (!third.contains("structuredContent") || std::chrono::steady_clock::now() > give_up) break;
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(third.at("content")[0].at("text"), "42");
}

// Two sessions (two servers, as HTTP makes them) draw on one capacity: the invocation cap is the
// server's, and so is the host-operation queue.
TEST_F(McpServerTest, SessionsSharingACapacityShareItsCaps) {
  // The queued call waits as long as the test needs (the wait's bound is tested on its own).
  const McpPolicy policy{.server_invocations = 2,
                         .server_host_operations = 1,
                         .server_host_operation_wait_millis = 60'000};
  const std::shared_ptr<ServerCapacity> capacity = ServerCapacity::create(policy);
  start(policy, capacity);
  initialize();
  Transcript other_transcript;
  McpServer other(options(policy, capacity), [&](const Json& m) { other_transcript.add(m); });
  other.handle_line(rpc_request(0, "initialize", {{"protocolVersion", "2025-11-25"}}).dump());
  const int started = blocking_calls_started;
  server_->handle_line(rpc_request(1, "tools/call", {{"name", "test.block"}}).dump());
  ASSERT_TRUE(blocking_call_started_since(started));
  // The second session's call is admitted (2 invocations) but queues for the one host operation.
  other.handle_line(rpc_request(1, "tools/call", {{"name", "test.scalar"}}).dump());
  EXPECT_TRUE(other_transcript.response(1, 300ms).is_null());
  // A third invocation anywhere is past the server's cap.
  const Json third = call(2, "test.scalar", Json::object()).at("result");
  EXPECT_EQ(third.at("structuredContent").at("code"), "server_invocations_limit");
  server_->handle_line(rpc_notification("notifications/cancelled", {{"requestId", 1}}).dump());
  const Json queued = other_transcript.response(1);
  ASSERT_TRUE(queued.contains("result")) << queued;
  EXPECT_EQ(queued.at("result").at("content")[0].at("text"), "42");
  other.shutdown();
}

TEST_F(McpServerTest, AShortCallWithAProgressTokenSendsNoProgress) {
  start();
  initialize();
  request(1, "tools/call",
          {{"name", "test.scalar"},
           {"arguments", Json::object()},
           {"_meta", {{"progressToken", "t"}}}});
  for (const Json& m : transcript_.messages())
    EXPECT_NE(m.value("method", ""), "notifications/progress");
}

TEST_F(McpServerTest, ALongCallWithAProgressTokenGetsIncreasingProgressThenItsAnswer) {
  start();
  initialize();
  server_->handle_line(
      rpc_request(1, "tools/call", {{"name", "test.block"}, {"_meta", {{"progressToken", 7}}}})
          .dump());
  // The fixture's interval is 50 ms: two notifications come about 100 ms in.
  EXPECT_TRUE(transcript_.await_count("notifications/progress", 2, testing::slack(5s)));
  server_->shutdown();  // stops the call: it answers tool_failed
  std::vector<int> progress;
  std::size_t answer_at = 0;
  const std::vector<Json> messages = transcript_.messages();
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (messages[i].value("method", "") == "notifications/progress") {
      EXPECT_EQ(messages[i].at("params").at("progressToken"), 7);
      progress.push_back(messages[i].at("params").at("progress").get<int>());
    }
    if (messages[i].contains("id") && messages[i].at("id") == 1) answer_at = i;
  }
  ASSERT_GE(progress.size(), 2u);
  for (std::size_t i = 0; i < progress.size(); ++i) EXPECT_EQ(progress[i], static_cast<int>(i) + 1);
  EXPECT_EQ(answer_at, messages.size() - 1);  // nothing after the answer
}

TEST_F(McpServerTest, AMalformedLineIsAParseError) {
  start();
  server_->handle_line("{not json");
  const std::vector<Json> messages = transcript_.messages();
  ASSERT_EQ(messages.size(), 1u);
  EXPECT_EQ(messages[0].at("error").at("code"), kParseError);
  EXPECT_TRUE(messages[0].at("id").is_null());
}

}  // namespace
}  // namespace codemode::mcp
