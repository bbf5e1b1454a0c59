// The HTTP/1.1 layer under the MCP HTTP transport, over real loopback sockets: whole responses,
// persistent and pipelined connections, event streams, the refusals a strict parser owes a
// client, the connection caps (all, idle ones giving way; incomplete requests per client address,
// busy and idle connections not counted), the deadlines that end slow clients, and a stop that
// does not wait for a handler streaming forever.
#include "http/http_server.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include <poll.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/http_test_client.h"
#include "support/timing.h"

namespace codemode::http {
namespace {

using internal::UniqueFd;
using testing::closed_by_server;
using testing::connect_from;
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
  exchange.respond(200, "text/plain",
                   request.method + " " + std::string(request.path()) + " " + request.body);
}

std::unique_ptr<HttpServer> start(HttpHandler handler, HttpServerOptions options = {}) {
  auto server = HttpServer::start(std::move(options), std::move(handler));
  EXPECT_TRUE(server.ok());
  return std::move(server).value();
}

TEST(HttpServer, AnswersARequestWithABody) {
  auto server = start(echo_handler);
  UniqueFd fd = connect_to(server->port());
  send_text(fd,
            "POST /mcp?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nConnection: close\r\n"
            "\r\nhello");
  const std::string response = read_to_end(fd);
  EXPECT_TRUE(response.starts_with("HTTP/1.1 200 OK\r\n")) << response;
  EXPECT_NE(response.find("Content-Length: 15\r\n"), std::string::npos) << response;
  EXPECT_TRUE(response.ends_with("\r\n\r\nPOST /mcp hello")) << response;
}

TEST(HttpServer, KeepsConnectionsAndAnswersPipelinedRequestsInOrder) {
  auto server = start(echo_handler);
  UniqueFd fd = connect_to(server->port());
  send_text(fd,
            "GET /a HTTP/1.1\r\nHost: a\r\n\r\nPOST /b HTTP/1.1\r\nHost: a\r\n"
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

constexpr std::string_view kWellBehaved =
    "POST /ok HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi";

// Whether `fd` is still open 100 ms from now, with nothing to read.
bool still_open(const UniqueFd& fd) {
  pollfd readable{.fd = fd.get(), .events = POLLIN, .revents = 0};
  return ::poll(&readable, 1, 100) == 0;
}

// A handler that holds "/hold" requests until release(), answering every other one as
// echo_handler does: connections whose requests are being answered, for as long as a test needs.
class HoldingHandler {
 public:
  HttpHandler handler() {
    return [this](const HttpRequest& request, HttpExchange& exchange) {
      if (request.path() == "/hold") {
        std::unique_lock lock(mutex_);
        ++held_;
        changed_.notify_all();
        // Also ends when the server stops: a test that failed before release() still ends.
        changed_.wait(lock, exchange.stop_token(), [this] { return released_; });
      }
      echo_handler(request, exchange);
    };
  }
  // Whether `count` requests are held within 10 s.
  bool wait_for_held(int count) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return held_ >= count; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    released_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable_any changed_;
  int held_ = 0;
  bool released_ = false;
};

constexpr char kHold[] = "GET /hold HTTP/1.1\r\nHost: a\r\n\r\n";
constexpr char kKeptAlive[] = "GET /kept HTTP/1.1\r\nHost: a\r\n\r\n";

TEST(HttpServer, ConnectionsPastTheCapGet503) {
  HttpServerOptions options;
  options.max_connections = 1;
  HoldingHandler holding;
  auto server = start(holding.handler(), options);
  UniqueFd first = connect_to(server->port());
  send_text(first, kHold);
  ASSERT_TRUE(holding.wait_for_held(1));  // the first connection is being answered
  UniqueFd second = connect_to(server->port());
  EXPECT_TRUE(read_to_end(second).starts_with("HTTP/1.1 503 "));
  holding.release();
  EXPECT_NE(read_until(first, "GET /hold ").find("GET /hold "), std::string::npos);
}

TEST(HttpServer, ConnectionsBeingAnsweredOrIdleDoNotCountAgainstTheirAddress) {
  HoldingHandler holding;
  auto server = start(holding.handler());  // 32 connections, 8 incomplete ones per address
  // Three times the per-address cap from 127.0.0.1: 12 connections whose requests are being
  // answered, 12 kept alive after their answers, as many clients on one host hold them.
  std::vector<UniqueFd> busy;
  std::vector<UniqueFd> idle;
  for (int i = 0; i < 12; ++i) {
    busy.push_back(connect_to(server->port()));
    send_text(busy.back(), kHold);
    idle.push_back(connect_to(server->port()));
    send_text(idle.back(), kKeptAlive);
    const std::string answered = read_until(idle.back(), "GET /kept ");
    ASSERT_TRUE(answered.starts_with("HTTP/1.1 200 ")) << i << answered;
  }
  ASSERT_TRUE(holding.wait_for_held(12));
  const std::string served = testing::round_trip(server->port(), kWellBehaved);
  EXPECT_TRUE(served.starts_with("HTTP/1.1 200 ")) << served;
  for (const UniqueFd& fd : idle) EXPECT_TRUE(still_open(fd));
  holding.release();
  for (const UniqueFd& fd : busy) {
    EXPECT_TRUE(read_until(fd, "GET /hold ").starts_with("HTTP/1.1 200 "));
  }
}

TEST(HttpServer, AtTheServersCapANewConnectionClosesTheOldestIdleOne) {
  HttpServerOptions options;
  options.max_connections = 2;
  auto server = start(echo_handler, options);
  UniqueFd oldest = connect_to(server->port());
  send_text(oldest, kKeptAlive);
  read_until(oldest, "GET /kept ");
  UniqueFd newer = connect_to(server->port());
  send_text(newer, kKeptAlive);
  read_until(newer, "GET /kept ");
  // Both connections are idle and the server is full: the newcomer takes the oldest one's place.
  const std::string served = testing::round_trip(server->port(), kWellBehaved);
  EXPECT_TRUE(served.starts_with("HTTP/1.1 200 ")) << served;
  EXPECT_TRUE(closed_by_server(oldest));
  send_text(newer, kKeptAlive);
  EXPECT_TRUE(read_until(newer, "GET /kept ").starts_with("HTTP/1.1 200 "));
}

// A slow client: sends `start`, then one byte of `drip` after another, 50 ms apart, without ever
// completing its request, until the server answers or closes (whatever it sent is returned) or 20 s
// pass (then ""): a server that restarts its timeout on every byte keeps such a client forever.
std::string trickle(std::uint16_t port, const std::string& start, char drip) {
  UniqueFd fd = connect_to(port);
  if (!start.empty()) send_text(fd, start);
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  while (std::chrono::steady_clock::now() < give_up) {
    pollfd answer{.fd = fd.get(), .events = POLLIN, .revents = 0};
    if (::poll(&answer, 1, 50) != 0) return read_to_end(fd);
    if (::send(fd.get(), &drip, 1, MSG_NOSIGNAL) != 1) return read_to_end(fd);
  }
  return "";
}

TEST(HttpServer, SlowClientsGet408AtTheirDeadlineAndAWellBehavedOneIsServed) {
  HttpServerOptions options;
  options.max_connections = 4;
  options.head_timeout = 300ms;
  options.body_timeout = 300ms;
  auto server = start(echo_handler, options);
  // Every connection the server has: a silent one, two whose head never ends, one whose body
  // never does.
  std::vector<std::future<std::string>> slow;
  slow.push_back(std::async(std::launch::async, [&] {
    UniqueFd fd = connect_to(server->port());
    pollfd answer{.fd = fd.get(), .events = POLLIN, .revents = 0};
    ::poll(&answer, 1, 20'000);
    return read_to_end(fd);
  }));
  for (int i = 0; i < 2; ++i) {
    slow.push_back(std::async(std::launch::async, [&] {
      return trickle(server->port(), "POST /slow HTTP/1.1\r\nX-Slow: ", 'a');
    }));
  }
  slow.push_back(std::async(std::launch::async, [&] {
    return trickle(server->port(), "POST /slow HTTP/1.1\r\nContent-Length: 100000\r\n\r\n", 'b');
  }));
  for (auto& client : slow) {
    const std::string response = client.get();
    EXPECT_TRUE(response.starts_with("HTTP/1.1 408 ")) << response;
  }
  // Their connections are free now. The deadline holds for this client too: one that stalls
  // between connect and send for longer (a loaded machine) gets 408 as well, and tries again.
  std::string served;
  const auto give_up = std::chrono::steady_clock::now() + 20s;
  do {
    served = testing::round_trip(server->port(), kWellBehaved);
  } while (served.starts_with("HTTP/1.1 408 ") && std::chrono::steady_clock::now() < give_up);
  EXPECT_TRUE(served.starts_with("HTTP/1.1 200 ")) << served;
}

TEST(HttpServer, OneClientAddressCannotTakeEveryConnection) {
  HttpServerOptions options;
  options.head_timeout = 1h;  // the admitted slow connections stay for the whole test
  auto server = start(echo_handler, options);
  // 32 connections (the server's cap) from 127.0.0.2, each with a partial head.
  std::vector<UniqueFd> slow;
  for (int i = 0; i < 32; ++i) {
    slow.push_back(connect_from("127.0.0.2", server->port()));
    send_text(slow.back(), "POST /slow HTTP/1.1\r\nX-Slow: a");
  }
  // Accepted after them (one listen queue, in order), a client from 127.0.0.1 is served.
  const std::string served = testing::round_trip(server->port(), kWellBehaved);
  EXPECT_TRUE(served.starts_with("HTTP/1.1 200 ")) << served;
  // 8 of the slow ones were admitted and still wait; the server closed the 24 others.
  std::vector<pollfd> polled;
  for (const UniqueFd& fd : slow) {
    polled.push_back({.fd = fd.get(), .events = POLLIN, .revents = 0});
  }
  std::size_t closed = 0;
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  while (closed < 24 && std::chrono::steady_clock::now() < give_up) {
    ::poll(polled.data(), polled.size(), 100);
    closed = std::count_if(polled.begin(), polled.end(),
                           [](const pollfd& entry) { return entry.revents != 0; });
  }
  EXPECT_EQ(closed, 24u);
  for (std::size_t i = 0; i < slow.size(); ++i) {
    if (polled[i].revents == 0) continue;
    const std::string refused = read_to_end(slow[i]);
    EXPECT_TRUE(refused.empty() || refused.starts_with("HTTP/1.1 503 ")) << refused;
  }
}

TEST(HttpServer, SlowRequestsFromOneAddressAreCappedBesideItsBusyAndIdleConnections) {
  HttpServerOptions options;
  options.max_incomplete_per_peer = 4;
  options.head_timeout = 1h;  // the admitted slow requests stay for the whole test
  HoldingHandler holding;
  auto server = start(holding.handler(), options);
  // From 127.0.0.2: as many connections being answered as the cap, and as many kept alive.
  std::vector<UniqueFd> busy;
  std::vector<UniqueFd> idle;
  for (int i = 0; i < 4; ++i) {
    busy.push_back(connect_from("127.0.0.2", server->port()));
    send_text(busy.back(), kHold);
    idle.push_back(connect_from("127.0.0.2", server->port()));
    send_text(idle.back(), kKeptAlive);
    ASSERT_TRUE(read_until(idle.back(), "GET /kept ").starts_with("HTTP/1.1 200 "));
  }
  ASSERT_TRUE(holding.wait_for_held(4));
  // Those do not count; slow requests do, up to the cap, however they begin.
  std::vector<UniqueFd> slow;
  for (int i = 0; i < 4; ++i) {
    slow.push_back(connect_from("127.0.0.2", server->port()));
    send_text(slow.back(), "POST /slow HTTP/1.1\r\nX-Slow: a");
  }
  usleep(200'000);  // their heads read by their threads: the server waits on each client now
  UniqueFd one_more = connect_from("127.0.0.2", server->port());
  EXPECT_TRUE(read_to_end(one_more).starts_with("HTTP/1.1 503 "));
  // A kept-alive connection whose next request would wait for its rest is refused as well.
  for (const UniqueFd& fd : idle) {
    send_text(fd, "POST /slow HTTP/1.1\r\nContent-Length: 10\r\n\r\nab");
    const std::string refused = read_to_end(fd);
    EXPECT_TRUE(refused.starts_with("HTTP/1.1 503 ")) << refused;
    EXPECT_NE(refused.find("too many incomplete requests from this address"), std::string::npos);
  }
  for (const UniqueFd& fd : slow) EXPECT_TRUE(still_open(fd));
  // Another address is served; so is a request from 127.0.0.2 that arrives whole on a kept-alive
  // connection (it never waits).
  const std::string other = testing::round_trip(server->port(), kWellBehaved);
  EXPECT_TRUE(other.starts_with("HTTP/1.1 200 ")) << other;
  holding.release();
  for (const UniqueFd& fd : busy) {
    send_text(fd, kKeptAlive);
    EXPECT_NE(read_until(fd, "GET /kept ").find("GET /kept "), std::string::npos);
  }
}

TEST(HttpServer, AClientThatDoesNotReadIsDroppedAtTheWriteDeadline) {
  HttpServerOptions options;
  options.max_connections = 1;
  options.write_timeout = 300ms;
  std::promise<bool> big_sent;
  auto server = start(
      [&](const HttpRequest& request, HttpExchange& exchange) {
        if (request.path() != "/big") return echo_handler(request, exchange);
        // Far more than the socket buffers hold: the write waits for a reader that never comes.
        big_sent.set_value(exchange.respond(200, "text/plain", std::string(64u << 20, 'x')));
      },
      options);
  UniqueFd reader = connect_to(server->port());
  send_text(reader, "GET /big HTTP/1.1\r\n\r\n");
  auto sent = big_sent.get_future();
  ASSERT_EQ(sent.wait_for(20s), std::future_status::ready);
  EXPECT_FALSE(sent.get());
  // Its slot frees as the connection closes: a new client is served then (it may first find the
  // slot still taken, for the moment the closing takes).
  std::string served;
  const auto give_up = std::chrono::steady_clock::now() + 10s;
  do {
    served = testing::round_trip(server->port(), kWellBehaved);
  } while (served.starts_with("HTTP/1.1 503 ") && std::chrono::steady_clock::now() < give_up);
  EXPECT_TRUE(served.starts_with("HTTP/1.1 200 ")) << served;
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
  EXPECT_LT(std::chrono::steady_clock::now() - before, codemode::testing::slack(1s));
  EXPECT_EQ(read_to_end(fd).find("0\r\n\r\n"), std::string::npos);  // no clean end was faked
}

// For a server that tells connections apart: "X-Credential: yes" proves the connection.
void proving_handler(const HttpRequest& request, HttpExchange& exchange) {
  if (request.header("x-credential") == "yes") exchange.prove_connection();
  echo_handler(request, exchange);
}

constexpr char kProving[] = "GET /proof HTTP/1.1\r\nHost: a\r\nX-Credential: yes\r\n\r\n";
constexpr char kPlain[] = "GET /plain HTTP/1.1\r\nHost: a\r\n\r\n";

TEST(HttpServer, AnUnprovenConnectionClosesAfterItsAnswerAProvenOneStays) {
  auto server = start(proving_handler, {.max_unproven_connections = 2});
  UniqueFd plain = connect_to(server->port());
  send_text(plain, kPlain);
  const std::string refused = read_until(plain, "GET /plain ");
  EXPECT_TRUE(refused.starts_with("HTTP/1.1 200 ")) << refused;
  EXPECT_NE(refused.find("\r\nConnection: close\r\n"), std::string::npos) << refused;
  EXPECT_TRUE(closed_by_server(plain));

  UniqueFd proven = connect_to(server->port());
  send_text(proven, kProving);
  const std::string kept = read_until(proven, "GET /proof ");
  EXPECT_EQ(kept.find("Connection: close"), std::string::npos) << kept;
  // Proven once, kept: a later request without the credential is answered on it too.
  send_text(proven, kPlain);
  EXPECT_EQ(read_until(proven, "GET /plain ").find("Connection: close"), std::string::npos);
  EXPECT_TRUE(still_open(proven));
}

TEST(HttpServer, AWaitingUnprovenConnectionGivesWayAProvenOneNever) {
  HttpServerOptions options;
  options.max_connections = 4;
  options.max_unproven_connections = 2;
  options.head_timeout = 1h;  // nothing here ends by a deadline
  options.body_timeout = 1h;
  auto server = start(proving_handler, options);
  // Six clients that say nothing more (the first two sent a head whose body never comes): each new
  // one takes the place of the oldest.
  std::vector<UniqueFd> silent;
  for (int i = 0; i < 6; ++i) {
    silent.push_back(connect_to(server->port()));
    if (i >= 2) continue;
    send_text(silent.back(), "POST /slow HTTP/1.1\r\nContent-Length: 100\r\n\r\nab");
    usleep(50'000);  // read by its thread, so nothing is left unread in its socket
  }
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(closed_by_server(silent[i])) << i;
  EXPECT_TRUE(still_open(silent[4]));
  EXPECT_TRUE(still_open(silent[5]));
  // Clients with the credential get in, up to every connection of the server, and stay.
  std::vector<UniqueFd> proven;
  for (int i = 0; i < 4; ++i) {
    proven.push_back(connect_to(server->port()));
    send_text(proven.back(), kProving);
    const std::string served = read_until(proven.back(), "GET /proof ");
    EXPECT_TRUE(served.starts_with("HTTP/1.1 200 ")) << i << served;
  }
  EXPECT_TRUE(closed_by_server(silent[4]));
  EXPECT_TRUE(closed_by_server(silent[5]));
  // Every connection is proven now: none gives way, and a new one gets 503.
  const std::string full = testing::round_trip(server->port(), kProving);
  EXPECT_TRUE(full.starts_with("HTTP/1.1 503 ")) << full;
  for (const UniqueFd& fd : proven) EXPECT_TRUE(still_open(fd));
}

TEST(HttpServer, RefusesAnAddressThatIsNotIpv4) {
  HttpServerOptions options;
  options.address = "localhost";
  const auto server = HttpServer::start(options, echo_handler);
  ASSERT_FALSE(server.ok());
  EXPECT_EQ(server.error().rule, "http_listen");
}

}  // namespace
}  // namespace codemode::http
