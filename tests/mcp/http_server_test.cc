// The HTTP/1.1 layer under the MCP HTTP transport, over real loopback sockets: whole responses,
// persistent and pipelined connections, event streams, the refusals a strict parser owes a
// client, the connection cap, and a stop that does not wait for a handler streaming forever.
#include "mcp/http_server.h"


#include <atomic>
#include <chrono>
#include <condition_variable>
#include <thread>

#include <gtest/gtest.h>

#include "mcp/http_test_client.h"

namespace codemode::mcp {
namespace {

using internal::UniqueFd;
using testing::connect_to;
using testing::read_to_end;
using testing::read_until;
using testing::send_text;
using namespace std::chrono_literals;

// Echoes the method, path and body; "/events" streams two events.
void echo_handler(const HttpRequest& request, HttpExchange& exchange) {
  if (request.path() == "/events") {
    exchange.start_event_stream();
    exchange.send_event(R"({"n":1})");
    exchange.send_event(R"({"n":2})");
    exchange.finish();
    return;
  }
  exchange.respond(200, "text/plain", request.method + " " + std::string(request.path()) + " " +
                                          request.body);
}

std::unique_ptr<HttpServer> start(HttpHandler handler, HttpServerOptions options = {}) {
  auto server = HttpServer::start(std::move(options), std::move(handler));
  EXPECT_TRUE(server.ok());
  return std::move(server).value();
}

TEST(HttpServer, AnswersARequestWithABody) {
  auto server = start(echo_handler);
  UniqueFd fd = connect_to(server->port());
  send_text(fd, "POST /mcp?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n"
                "\r\nhello");
  const std::string response = read_to_end(fd);
  EXPECT_TRUE(response.starts_with("HTTP/1.1 200 OK\r\n")) << response;
  EXPECT_NE(response.find("Content-Length: 15\r\n"), std::string::npos) << response;
  EXPECT_TRUE(response.ends_with("\r\n\r\nPOST /mcp hello")) << response;
}

TEST(HttpServer, KeepsConnectionsAndAnswersPipelinedRequestsInOrder) {
  auto server = start(echo_handler);
  UniqueFd fd = connect_to(server->port());
  send_text(fd, "GET /a HTTP/1.1\r\nHost: a\r\n\r\nPOST /b HTTP/1.1\r\nHost: a\r\n"
                "Content-Length: 1\r\n\r\nzGET /c HTTP/1.1\r\nConnection: close\r\n\r\n");
  const std::string response = read_to_end(fd);
  const std::size_t a = response.find("GET /a ");
  const std::size_t b = response.find("POST /b z");
  const std::size_t c = response.find("GET /c ");
  ASSERT_NE(c, std::string::npos) << response;
  EXPECT_LT(a, b);
  EXPECT_LT(b, c);
}

TEST(HttpServer, StreamsEventsChunked) {
  auto server = start(echo_handler);
  UniqueFd fd = connect_to(server->port());
  send_text(fd, "GET /events HTTP/1.1\r\nHost: a\r\n\r\n");
  const std::string response = read_until(fd, "0\r\n\r\n");
  EXPECT_NE(response.find("Content-Type: text/event-stream\r\n"), std::string::npos);
  EXPECT_NE(response.find("Transfer-Encoding: chunked\r\n"), std::string::npos);
  EXPECT_NE(response.find("f\r\ndata: {\"n\":1}\n\n\r\n"), std::string::npos) << response;
  EXPECT_NE(response.find("data: {\"n\":2}\n\n\r\n0\r\n\r\n"), std::string::npos) << response;
  // The stream ended cleanly, so the connection serves another request.
  send_text(fd, "GET /after HTTP/1.1\r\nConnection: close\r\n\r\n");
  EXPECT_NE(read_to_end(fd).find("GET /after"), std::string::npos);
}

struct RefusalCase {
  std::string request;
  std::string status_line;
};

TEST(HttpServer, RefusesWhatItDoesNotParseAndCloses) {
  HttpServerOptions options;
  options.max_head_bytes = 1024;
  options.max_body_bytes = 64;
  auto server = start(echo_handler, options);
  const RefusalCase cases[] = {
      {"GET / HTTP/1.0\r\n\r\n", "HTTP/1.1 505 "},
      {"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "HTTP/1.1 501 "},
      {"POST / HTTP/1.1\r\nContent-Length: 65\r\n\r\n", "HTTP/1.1 413 "},
      {"POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx", "HTTP/1.1 400 "},
      {"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 400 "},
      {"GET / HTTP/1.1\r\nX: a\nY: b\r\n\r\n", "HTTP/1.1 400 "},
      {"GET / HTTP/1.1\r\n folded\r\n\r\n", "HTTP/1.1 400 "},
      {"GET http://x/ HTTP/1.1\r\n\r\n", "HTTP/1.1 400 "},
      {"GET / HTTP/1.1\r\nX: " + std::string(2000, 'a') + "\r\n\r\n", "HTTP/1.1 431 "},
      {"GET / HTTP/1.1\r\nX: " + std::string(2000, 'a'), "HTTP/1.1 431 "},  // no end in sight
  };
  for (const RefusalCase& refusal : cases) {
    UniqueFd fd = connect_to(server->port());
    send_text(fd, refusal.request);
    const std::string response = read_to_end(fd);  // ends: the server closed
    EXPECT_TRUE(response.starts_with(refusal.status_line)) << refusal.request << "\n" << response;
  }
}

TEST(HttpServer, ConnectionsPastTheCapGet503) {
  HttpServerOptions options;
  options.max_connections = 1;
  auto server = start(echo_handler, options);
  UniqueFd first = connect_to(server->port());
  send_text(first, "GET /1 HTTP/1.1\r\n\r\n");
  read_until(first, "GET /1");  // the first connection is being served, and stays open
  UniqueFd second = connect_to(server->port());
  EXPECT_TRUE(read_to_end(second).starts_with("HTTP/1.1 503 "));
}

TEST(HttpServer, StoppingDoesNotWaitForAHandlerThatStreamsUntilStopped) {
  std::atomic<bool> streaming = false;
  auto server = start([&](const HttpRequest&, HttpExchange& exchange) {
    streaming = true;
    exchange.start_event_stream();
    while (!exchange.stop_token().stop_requested()) std::this_thread::sleep_for(5ms);
  });
  UniqueFd fd = connect_to(server->port());
  send_text(fd, "GET /stream HTTP/1.1\r\n\r\n");
  read_until(fd, "text/event-stream");
  ASSERT_TRUE(streaming);
  const auto before = std::chrono::steady_clock::now();
  server.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - before, 1s);
  EXPECT_EQ(read_to_end(fd).find("0\r\n\r\n"), std::string::npos);  // no clean end was faked
}

TEST(HttpServer, RefusesAnAddressThatIsNotIpv4) {
  HttpServerOptions options;
  options.address = "localhost";
  const auto server = HttpServer::start(options, echo_handler);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.error().rule, "http_listen");
}

}  // namespace
}  // namespace codemode::mcp
