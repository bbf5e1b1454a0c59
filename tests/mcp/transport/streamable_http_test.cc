// MCP's Streamable HTTP transport over real sockets, with a scripted endpoint standing in for the
// MCP server (a test double of the layer above): sessions, the checks every request passes first
// (path, Host, Origin, bearer token, protocol version, session), answers as events or as one JSON
// body, progress routed to its request, 202 for notifications, DELETE, 405 for GET, clients that
// leave in the middle of a stream, and who may listen where (a bearer token off loopback).
#include "mcp/transport/streamable_http.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <semaphore>
#include <thread>

#include <gtest/gtest.h>

#include "support/http_test_client.h"

namespace codemode::mcp {
namespace {

using namespace std::chrono_literals;
using testing::round_trip;

// A bearer token of the form both HTTP servers take (http::is_valid_access_token).
const std::string kToken = "t0k3n-0123456789abcdef0123456789abcdef";

// Paces "drip" requests (one at a time): a drip waits for `go` after its first progress
// notification, and releases `done` once it has sent the rest.
struct DripGate {
  std::binary_semaphore go{0};
  std::binary_semaphore done{0};
};

// Answers every request with {"echo": params}; "slow" first sends two progress notifications for
// the request's progress token, from another thread, as a real server's call thread would; "drip"
// sends one, waits for the test's go, then sends two more and its answer.
class ScriptedEndpoint final : public McpEndpoint {
 public:
  explicit ScriptedEndpoint(McpSendFn send, std::atomic<int>& notifications, DripGate& drips)
      : send_(std::move(send)), notifications_(notifications), drips_(drips) {}
  ~ScriptedEndpoint() override {
    for (std::thread& thread : threads_) thread.join();
  }

  void handle_line(std::string_view line) override {
    const Json message = Json::parse(line);
    if (!message.contains("id")) {
      ++notifications_;
      return;
    }
    const Json params = message.value("params", Json::object());
    if (message["method"] == "hold") {  // answers after 600 ms
      threads_.emplace_back([this, message] {
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        send_({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", {{"held", true}}}});
      });
      return;
    }
    if (message["method"] == "drip") {
      threads_.emplace_back([this, message, params] {
        const Json token = params["_meta"]["progressToken"];
        const auto progress = [&](int i) {
          send_({{"jsonrpc", "2.0"},
                 {"method", "notifications/progress"},
                 {"params", {{"progressToken", token}, {"progress", i}}}});
        };
        progress(1);
        (void)drips_.go.try_acquire_for(30s);  // bounded: a failed test must still end
        progress(2);
        progress(3);
        send_({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", {{"dripped", true}}}});
        drips_.done.release();
      });
      return;
    }
    if (message["method"] == "slow") {
      threads_.emplace_back([this, message, params] {
        const Json token = params["_meta"]["progressToken"];
        for (int i = 1; i <= 2; ++i) {
          send_({{"jsonrpc", "2.0"},
                 {"method", "notifications/progress"},
                 {"params", {{"progressToken", token}, {"progress", i}}}});
        }
        send_(
            {{"jsonrpc", "2.0"}, {"method", "notifications/message"}, {"params", Json::object()}});
        send_({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", {{"done", true}}}});
      });
      return;
    }
    send_({{"jsonrpc", "2.0"}, {"id", message["id"]}, {"result", {{"echo", params}}}});
  }

 private:
  McpSendFn send_;
  std::atomic<int>& notifications_;
  DripGate& drips_;
  std::vector<std::thread> threads_;
};

class HttpTransportTest : public ::testing::Test {
 protected:
  void start(McpHttpOptions options = {}) {
    auto transport = McpHttpTransport::start(std::move(options), [this](McpSendFn send) {
      return std::make_unique<ScriptedEndpoint>(std::move(send), notifications_, drips_);
    });
    ASSERT_TRUE(transport.ok());
    transport_ = std::move(*transport);
  }

  // The Host header an MCP SDK client sends to the transport's port.
  std::string host() const {
    return "Host: 127.0.0.1:" + std::to_string(transport_->port()) + "\r\n";
  }

  // POSTs `body` with `headers`, and with host() unless `headers` has a Host of its own.
  std::string post(const std::string& body, const std::string& headers = "",
                   const std::string& accept = "application/json, text/event-stream") {
    const std::string host_header = headers.find("Host: ") == std::string::npos ? host() : "";
    return round_trip(transport_->port(),
                      "POST /mcp HTTP/1.1\r\n" + host_header +
                          "Content-Type: application/json\r\nAccept: " + accept +
                          "\r\nConnection: close\r\n" + headers +
                          "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body);
  }

  // Initializes a session and returns its id.
  std::string open_session(const std::string& headers = "") {
    const std::string response =
        post(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})", headers,
             "application/json");
    const std::size_t at = response.find("Mcp-Session-Id: ");
    EXPECT_NE(at, std::string::npos) << response;
    return at == std::string::npos ? "" : response.substr(at + 16, 32);
  }

  // Posts a "drip" request `id` to `session` on an event stream, reads its first progress event,
  // then resets the connection, as a client that crashed would, and lets the drip send the rest
  // (two progress notifications and the answer), which has nowhere to go. Returns what was read
  // (a 404 when the session has ended).
  std::string leave_mid_stream(const std::string& session, const std::string& id) {
    const std::string body = R"({"jsonrpc":"2.0","id":")" + id +
                             R"(","method":"drip","params":{"_meta":{"progressToken":")" + id +
                             R"("}}})";
    internal::UniqueFd fd = testing::connect_to(transport_->port());
    testing::send_text(fd, "POST /mcp HTTP/1.1\r\n" + host() +
                               "Content-Type: application/json\r\n"
                               "Accept: application/json, text/event-stream\r\nMcp-Session-Id: " +
                               session + "\r\nContent-Length: " + std::to_string(body.size()) +
                               "\r\n\r\n" + body);
    const std::string read = testing::read_until(fd, R"("progress":1)");
    if (read.find(R"("progress":1)") == std::string::npos) return read;
    testing::reset_connection(fd);
    drips_.go.release();
    EXPECT_TRUE(drips_.done.try_acquire_for(30s));
    return read;
  }

  std::atomic<int> notifications_ = 0;
  DripGate drips_;
  std::unique_ptr<McpHttpTransport> transport_;  // last: destroyed first
};

TEST_F(HttpTransportTest, InitializeOpensASessionAndRequestsNeedIt) {
  start();
  const std::string session = open_session();
  ASSERT_EQ(session.size(), 32u);
  EXPECT_NE(open_session(), session);  // each initialize opens its own
  const std::string request = R"({"jsonrpc":"2.0","id":2,"method":"ping","params":{"a":1}})";
  const std::string answered =
      post(request, "Mcp-Session-Id: " + session + "\r\n", "application/json");
  EXPECT_TRUE(answered.starts_with("HTTP/1.1 200 ")) << answered;
  EXPECT_TRUE(answered.ends_with(R"({"id":2,"jsonrpc":"2.0","result":{"echo":{"a":1}}})"))
      << answered;
  EXPECT_TRUE(post(request).starts_with("HTTP/1.1 400 "));
  EXPECT_TRUE(post(request, "Mcp-Session-Id: 0123\r\n").starts_with("HTTP/1.1 404 "));
}

TEST_F(HttpTransportTest, AnswersOnAnEventStreamWithTheRequestsProgressOnly) {
  start();
  const std::string session = open_session();
  const std::string response =
      post(R"({"jsonrpc":"2.0","id":"s","method":"slow","params":{"_meta":{"progressToken":7}}})",
           "Mcp-Session-Id: " + session + "\r\n");
  EXPECT_NE(response.find("Content-Type: text/event-stream"), std::string::npos) << response;
  const std::size_t first = response.find(R"("progress":1)");
  const std::size_t second = response.find(R"("progress":2)");
  const std::size_t result = response.find(R"("result":{"done":true})");
  ASSERT_NE(result, std::string::npos) << response;
  EXPECT_LT(first, second);
  EXPECT_LT(second, result);
  EXPECT_EQ(response.find("notifications/message"), std::string::npos);  // not this request's
}

TEST_F(HttpTransportTest, NotificationsGet202) {
  start();
  const std::string session = open_session();
  const std::string response = post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                                    "Mcp-Session-Id: " + session + "\r\n");
  EXPECT_TRUE(response.starts_with("HTTP/1.1 202 ")) << response;
  EXPECT_EQ(notifications_, 1);
}

TEST_F(HttpTransportTest, RefusesAForeignOriginAndServesItsOwn) {
  start();
  const std::string initialize = R"({"jsonrpc":"2.0","id":1,"method":"initialize"})";
  EXPECT_TRUE(post(initialize, "Origin: https://evil.example\r\n").starts_with("HTTP/1.1 403 "));
  EXPECT_TRUE(
      post(initialize, "Origin: http://localhost.evil.example\r\n").starts_with("HTTP/1.1 403 "));
  const std::string own = "Origin: http://127.0.0.1:" + std::to_string(transport_->port()) + "\r\n";
  EXPECT_TRUE(post(initialize, own).starts_with("HTTP/1.1 200 "));
  EXPECT_TRUE(post(initialize).starts_with("HTTP/1.1 200 "));  // no Origin: not a browser's
}

// An Origin is the server's own or a configured one, as the approvals console has it: a page of
// another local port or scheme (any other local server's page) is refused like any other site.
TEST_F(HttpTransportTest, AnOriginOfAnotherLoopbackPortOrSchemeIsRefused) {
  start();
  const std::string initialize = R"({"jsonrpc":"2.0","id":1,"method":"initialize"})";
  const std::string port = std::to_string(transport_->port());
  for (const std::string& origin : std::vector<std::string>{
           "http://127.0.0.1:6274", "http://localhost:6274", "http://localhost",
           "https://127.0.0.1:" + port, "http://[::1]:" + port, "http://localhost:" + port}) {
    // (The last: the page's own origin is localhost, but the request was sent to 127.0.0.1.)
    const std::string answered = post(initialize, "Origin: " + origin + "\r\n");
    EXPECT_TRUE(answered.starts_with("HTTP/1.1 403 ")) << origin << "\n" << answered;
  }
  EXPECT_TRUE(
      post(initialize, "Host: localhost:" + port + "\r\nOrigin: http://localhost:" + port + "\r\n")
          .starts_with("HTTP/1.1 200 "));
}

// On loopback a request names a Host the transport serves: a page whose DNS name was rebound to
// 127.0.0.1 sends its own name and is refused, before its Origin (which matches that name) could
// pass. What MCP SDK clients send, 127.0.0.1:PORT or localhost:PORT, is served.
TEST_F(HttpTransportTest, OnLoopbackAHostItDoesNotServeIsRefused) {
  start();
  const std::string initialize = R"({"jsonrpc":"2.0","id":1,"method":"initialize"})";
  const std::string port = std::to_string(transport_->port());
  for (const std::string& host :
       std::vector<std::string>{"rebound.example:" + port, "127.evil.com:" + port, "127.0.0.1",
                                "localhost", "127.0.0.1:1", "127.0.0.2:" + port}) {
    const std::string answered = post(initialize, "Host: " + host + "\r\n");
    EXPECT_TRUE(answered.starts_with("HTTP/1.1 403 ")) << host << "\n" << answered;
    EXPECT_NE(answered.find("host not served"), std::string::npos) << answered;
  }
  EXPECT_TRUE(post(initialize, "Host: rebound.example:" + port +
                                   "\r\nOrigin: http://rebound.example:" + port + "\r\n")
                  .starts_with("HTTP/1.1 403 "));
  const std::string without_host =
      round_trip(transport_->port(),
                 "POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
                 "Content-Length: " +
                     std::to_string(initialize.size()) + "\r\n\r\n" + initialize);
  EXPECT_TRUE(without_host.starts_with("HTTP/1.1 403 ")) << without_host;
  for (const std::string& host : {"127.0.0.1:" + port, "localhost:" + port}) {
    const std::string answered = post(initialize, "Host: " + host + "\r\n");
    EXPECT_TRUE(answered.starts_with("HTTP/1.1 200 ")) << host << "\n" << answered;
  }
}

TEST_F(HttpTransportTest, ConfiguredOriginsAndBearerToken) {
  start({.allowed_origins = {"https://app.example"}, .bearer_token = kToken});
  const std::string initialize = R"({"jsonrpc":"2.0","id":1,"method":"initialize"})";
  const std::string missing = post(initialize, "Origin: https://app.example\r\n");
  EXPECT_TRUE(missing.starts_with("HTTP/1.1 401 ")) << missing;
  EXPECT_NE(missing.find("WWW-Authenticate: Bearer"), std::string::npos);
  std::string wrong = kToken;
  wrong.back() = 'x';
  EXPECT_TRUE(
      post(initialize, "Authorization: Bearer " + wrong + "\r\n").starts_with("HTTP/1.1 401 "));
  EXPECT_TRUE(
      post(initialize, "Authorization: bearer " + kToken + "\r\n").starts_with("HTTP/1.1 401 "));
  EXPECT_TRUE(
      post(initialize, "Authorization: Bearer " + kToken + "\r\nOrigin: https://app.example\r\n")
          .starts_with("HTTP/1.1 200 "));
}

// A refused request closes its connection, even when the client asked to keep it: a client
// without the token, or at the wrong path, cannot hold a connection slot by repeating requests.
TEST_F(HttpTransportTest, ARefusedRequestClosesItsConnection) {
  start({.bearer_token = kToken});
  const std::string body = R"({"jsonrpc":"2.0","id":1,"method":"initialize"})";
  for (const std::string path : {"/mcp", "/elsewhere"}) {
    internal::UniqueFd fd = testing::connect_to(transport_->port());
    testing::send_text(fd, "POST " + path + " HTTP/1.1\r\n" + host() +
                               "Content-Type: application/json\r\n"
                               "Accept: application/json\r\nConnection: keep-alive\r\n"
                               "Content-Length: " +
                               std::to_string(body.size()) + "\r\n\r\n" + body);
    // read_to_end returns once the server closes; a kept connection would wait out its 5 s.
    const std::string response = testing::read_to_end(fd);
    EXPECT_TRUE(response.starts_with(path == "/mcp" ? "HTTP/1.1 401 " : "HTTP/1.1 404 "))
        << response;
    EXPECT_NE(response.find("Connection: close"), std::string::npos) << response;
    char byte = 0;
    EXPECT_EQ(::recv(fd.get(), &byte, 1, 0), 0) << "the connection was kept open";
  }
}

TEST_F(HttpTransportTest, DeleteEndsTheSessionAndGetIs405) {
  start();
  const std::string session = open_session();
  const std::string header = "Mcp-Session-Id: " + session + "\r\n";
  const std::string get = round_trip(
      transport_->port(), "GET /mcp HTTP/1.1\r\n" + host() + header + "Connection: close\r\n\r\n");
  EXPECT_TRUE(get.starts_with("HTTP/1.1 405 ")) << get;
  EXPECT_NE(get.find("Allow: POST, DELETE"), std::string::npos);
  const std::string deleted =
      round_trip(transport_->port(),
                 "DELETE /mcp HTTP/1.1\r\n" + host() + header + "Connection: close\r\n\r\n");
  EXPECT_TRUE(deleted.starts_with("HTTP/1.1 204 ")) << deleted;
  EXPECT_TRUE(
      post(R"({"jsonrpc":"2.0","id":3,"method":"ping"})", header).starts_with("HTTP/1.1 404 "));
}

TEST_F(HttpTransportTest, IdleSessionsEndAtTheNextRequestButBusyOnesStay) {
  start({.session_idle_timeout = std::chrono::milliseconds(300)});
  const std::string idle = "Mcp-Session-Id: " + open_session() + "\r\n";
  const std::string busy = "Mcp-Session-Id: " + open_session() + "\r\n";
  const std::string used = "Mcp-Session-Id: " + open_session() + "\r\n";
  const std::string ping = R"({"jsonrpc":"2.0","id":2,"method":"ping"})";
  const auto opened = std::chrono::steady_clock::now();
  std::string held;
  std::thread holder([&] { held = post(R"({"jsonrpc":"2.0","id":3,"method":"hold"})", busy); });
  // `used` is used every 20 ms (not at two instants 200 ms apart, which a loaded machine can
  // stretch past the timeout) until `idle` has been idle longer than the timeout: from then on
  // each request ends `idle`, while `busy` waits for its answer (600 ms) and `used` stays.
  do {
    EXPECT_TRUE(post(ping, used).starts_with("HTTP/1.1 200 "));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() - opened < std::chrono::milliseconds(400));
  EXPECT_TRUE(post(ping, used).starts_with("HTTP/1.1 200 "));
  holder.join();
  EXPECT_NE(held.find(R"("held":true)"), std::string::npos) << held;
  EXPECT_TRUE(post(ping, busy).starts_with("HTTP/1.1 200 "));
  EXPECT_TRUE(post(ping, idle).starts_with("HTTP/1.1 404 "));
}

TEST_F(HttpTransportTest, RefusesWrongPathVersionContentTypeAndBody) {
  start();
  EXPECT_TRUE(round_trip(transport_->port(),
                         "POST /other HTTP/1.1\r\nConnection: close\r\n"
                         "Content-Length: 0\r\n\r\n")
                  .starts_with("HTTP/1.1 404 "));
  const std::string session = open_session();
  const std::string header = "Mcp-Session-Id: " + session + "\r\n";
  EXPECT_TRUE(post(R"({"jsonrpc":"2.0","id":3,"method":"ping"})",
                   header + "MCP-Protocol-Version: 2024-11-05\r\n")
                  .starts_with("HTTP/1.1 400 "));
  EXPECT_TRUE(post(R"({"jsonrpc":"2.0","id":3,"method":"ping"})",
                   header + "MCP-Protocol-Version: 2025-06-18\r\n")
                  .starts_with("HTTP/1.1 200 "));
  const std::string garbage = post("{not json", header);
  EXPECT_TRUE(garbage.starts_with("HTTP/1.1 400 ")) << garbage;
  EXPECT_NE(garbage.find("-32700"), std::string::npos);
  EXPECT_TRUE(round_trip(transport_->port(), "POST /mcp HTTP/1.1\r\n" + host() +
                                                 "Content-Type: text/plain\r\nConnection: close\r\n"
                                                 "Content-Length: 2\r\n\r\n{}")
                  .starts_with("HTTP/1.1 415 "));
}

// A client gone in the middle of a stream leaves its request id behind no longer: the same id is
// taken again (the drip's late answer and progress were dropped, not kept for nobody).
TEST_F(HttpTransportTest, AClientGoneMidStreamFreesItsRequestId) {
  start();
  const std::string session = open_session();
  const std::string left = leave_mid_stream(session, "d");
  ASSERT_NE(left.find(R"("progress":1)"), std::string::npos) << left;
  // The transport notices on its own thread, when its next write fails: until then the id is
  // still in use (400), then it is free.
  const std::string again = R"({"jsonrpc":"2.0","id":"d","method":"ping","params":{"n":2}})";
  const std::string header = "Mcp-Session-Id: " + session + "\r\n";
  std::string answered = post(again, header, "application/json");
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  while (answered.find("Duplicate request id") != std::string::npos &&
         std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(10ms);
    answered = post(again, header, "application/json");
  }
  EXPECT_TRUE(answered.starts_with("HTTP/1.1 200 ")) << answered;
  EXPECT_TRUE(answered.ends_with(R"({"id":"d","jsonrpc":"2.0","result":{"echo":{"n":2}}})"))
      << answered;
}

// A session whose client left mid-stream has nothing in flight, so it becomes idle and ends: more
// such sessions than the cap (64) never refuse a new one for good.
TEST_F(HttpTransportTest, SessionsLeftMidStreamBecomeIdleAndDoNotFillTheServer) {
  start({.session_idle_timeout = 500ms});
  const auto give_up = std::chrono::steady_clock::now() + 30s;
  int left = 0;
  while (left < 70 && std::chrono::steady_clock::now() < give_up) {
    // Until idle sessions have ended, a new one may wait for a free place (503).
    const std::string response = post(
        R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})", "", "application/json");
    if (response.starts_with("HTTP/1.1 503 ")) {
      std::this_thread::sleep_for(20ms);
      continue;
    }
    const std::size_t at = response.find("Mcp-Session-Id: ");
    ASSERT_NE(at, std::string::npos) << response;
    // A session idle for 500 ms before its drip was posted is ended (404): open another.
    if (leave_mid_stream(response.substr(at + 16, 32), "x").find(R"("progress":1)") !=
        std::string::npos) {
      ++left;
    }
  }
  EXPECT_EQ(left, 70);
}

// Fields of the wrong type are the peer's choice: each is refused, and the server keeps serving.
TEST_F(HttpTransportTest, FieldsOfTheWrongTypeAreRefusedNotFatal) {
  start();
  for (const char* message : {R"({"jsonrpc":"2.0","id":1,"method":5})",
                              R"({"jsonrpc":"2.0","id":1,"method":["initialize"]})",
                              R"({"jsonrpc":"2.0","method":{"a":1}})"}) {
    const std::string answered = post(message);
    EXPECT_TRUE(answered.starts_with("HTTP/1.1 4")) << message << answered;
  }
  const std::string session = open_session();
  EXPECT_EQ(session.size(), 32u);
  const std::string header = "Mcp-Session-Id: " + session + "\r\n";
  // Within a session the line goes to the session's server (here a scripted one), which parses it.
  EXPECT_TRUE(post(R"({"jsonrpc":"2.0","id":4,"method":7})", header, "application/json")
                  .starts_with("HTTP/1.1 "));
  const std::string ping =
      post(R"({"jsonrpc":"2.0","id":5,"method":"ping","params":{}})", header, "application/json");
  EXPECT_TRUE(ping.starts_with("HTTP/1.1 200 ")) << ping;
}

// Off loopback, anything that can connect would run the tools: a bearer token is required there,
// and a token must be of the form http::is_valid_access_token takes.
McpEndpointFactory no_endpoint() {
  return [](McpSendFn) -> std::unique_ptr<McpEndpoint> { return nullptr; };
}

TEST(McpHttpAccess, ANonLoopbackAddressNeedsABearerToken) {
  McpHttpOptions options;
  options.http.address = "0.0.0.0";
  const auto refused = McpHttpTransport::start(options, no_endpoint());
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(refused.error().rule, "http_token_required");
  EXPECT_NE(refused.error().message.find("CODEMODE_MCP_TOKEN"), std::string::npos);
  options.bearer_token = kToken;
  EXPECT_TRUE(McpHttpTransport::start(options, no_endpoint()).ok());
}

TEST(McpHttpAccess, AnyLoopbackAddressNeedsNoToken) {
  for (const char* address : {"127.0.0.1", "127.0.0.2"}) {
    McpHttpOptions options;
    options.http.address = address;
    EXPECT_TRUE(McpHttpTransport::start(options, no_endpoint()).ok()) << address;
  }
}

TEST(McpHttpAccess, AnEmptyOrUnsendableTokenIsRefused) {
  for (const std::string suffix : {"", " two words", "tab\tin", "line\nbreak", "caf\xC3\xA9"}) {
    const std::string token = suffix.empty() ? "" : kToken + suffix;
    McpHttpOptions options;
    options.bearer_token = token;
    const auto refused = McpHttpTransport::start(options, no_endpoint());
    ASSERT_FALSE(refused.ok()) << token;
    EXPECT_EQ(refused.error().rule, "http_token");
    if (!token.empty()) {
      EXPECT_EQ(refused.error().message.find(token), std::string::npos);  // no secret in it
    }
  }
}

// The token's form is the approvals console's: 32 to 256 characters of A-Z a-z 0-9 . _ ~ -. A
// short one (a word someone chose) or one with other visible characters is refused too.
TEST(McpHttpAccess, ATokenOutsideTheConsolesFormIsRefused) {
  for (const std::string& token :
       {std::string("s3cret-t0ken"), std::string(31, 'a'), std::string(257, 'a'),
        std::string(32, 'a') + "+/=", std::string(40, 'a') + "!",
        "\"" + std::string(40, 'a') + "\""}) {
    for (const char* address : {"127.0.0.1", "0.0.0.0"}) {
      McpHttpOptions options;
      options.http.address = address;
      options.bearer_token = token;
      const auto refused = McpHttpTransport::start(options, no_endpoint());
      ASSERT_FALSE(refused.ok()) << token << " on " << address;
      EXPECT_EQ(refused.error().rule, "http_token");
      EXPECT_NE(refused.error().message.find("32 to 256"), std::string::npos);
    }
  }
  for (const std::string& token : {std::string(32, 'a'), std::string(256, 'Z'), kToken}) {
    McpHttpOptions options;
    options.bearer_token = token;
    EXPECT_TRUE(McpHttpTransport::start(options, no_endpoint()).ok()) << token;
  }
}

}  // namespace
}  // namespace codemode::mcp
