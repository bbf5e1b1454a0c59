// A small HTTP/1.1 server for the MCP Streamable HTTP transport: bound to one address (loopback by
// default), a thread per connection up to a cap (and a smaller cap per client address on the
// connections still receiving a request, and optionally one for connections whose client has not
// proven who it is), persistent connections, bounded heads and bodies, and responses either whole
// or as a server-sent-event stream (chunked). Every read and write has a deadline for the whole of
// what it carries (a head, a body, a response, an event), so a client that trickles bytes cannot
// keep its connection for longer than that. It knows nothing of MCP: a handler gets each request
// and answers through its HttpExchange.
//
// Why not cpp-httplib (the library first planned for it): its timeouts restart on every read, so a
// client that trickles a byte at a time holds a connection and its thread indefinitely; it has no
// cap per client address, no way to close a connection on every refusal, and no way to stop a
// handler blocked on a server-sent-event write when the server stops. Each of those is a finding of
// the 2026-12 security review (docs/security.md). The head parser is fuzzed
// (fuzz/http_head_fuzzer.cc).
//
// Ownership and thread-safety: start returns the owner; destroying it stops accepting, shuts
// every connection down (a handler blocked on its exchange sees stop_requested and failed writes)
// and joins every thread. The handler runs on connection threads, several at once.
#ifndef CODEMODE_HTTP_HTTP_SERVER_H_
#define CODEMODE_HTTP_HTTP_SERVER_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "codemode/error.h"

#include "core/process/unique_fd.h"
#include "http/http_request.h"

namespace codemode::http {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// The answer to one request. Exactly one of respond or start_event_stream is used; a handler that
// uses neither gets a 500 sent for it. Writes return false once the client is gone.
class HttpExchange {
 public:
  // Each response, and each event, must be sent whole within `write_timeout`. `proven`: the
  // connection's proof (HttpServerOptions::max_unproven_connections), which must outlive the
  // exchange; nullptr when the server does not tell connections apart.
  HttpExchange(int fd, std::stop_token stop, std::chrono::milliseconds write_timeout,
               std::atomic<bool>* proven = nullptr)
      : fd_(fd), stop_(std::move(stop)), write_timeout_(write_timeout), proven_(proven) {}

  // A "Connection: close" among `headers` also closes the connection after this response.
  bool respond(int status, std::string_view content_type, std::string_view body,
               const HttpHeaders& headers = {});
  // 200, Content-Type text/event-stream, chunked. Then send_event for each event and finish.
  bool start_event_stream(const HttpHeaders& headers = {});
  // One event: "data: <data>\n\n". `data` must not contain a line break (compact JSON has none).
  bool send_event(std::string_view data);
  // Ends the event stream (the last chunk).
  bool finish();
  // This request proved who its client is (it carried a credential the handler accepted): on a
  // server with max_unproven_connections, its connection stays open for further requests and no
  // longer counts as unproven. Call before answering; no effect on other servers.
  void prove_connection();

  bool answered() const { return answered_; }
  // Whether the connection must close after this exchange (an unfinished stream, a failed write).
  bool must_close() const { return must_close_; }
  // Fires when the server stops.
  const std::stop_token& stop_token() const { return stop_; }

 private:
  bool write(std::string_view bytes);
  bool write_whole(std::string_view bytes) const;
  // Whether this answer must close an unproven connection ("Connection: close" added).
  bool closes_unproven(HttpHeaders& headers) const;

  int fd_;
  std::stop_token stop_;
  std::chrono::milliseconds write_timeout_;
  bool answered_ = false;
  bool streaming_ = false;
  bool must_close_ = false;
  bool unproven_stream_ = false;  // a stream on an unproven connection: it closes after finish
  std::atomic<bool>* proven_;
};

using HttpHandler = std::function<void(const HttpRequest& request, HttpExchange& exchange)>;

struct HttpServerOptions {
  std::string address = "127.0.0.1";  // an IPv4 address literal
  std::uint16_t port = 0;             // 0: the kernel picks one (see HttpServer::port)
  std::size_t max_head_bytes = 16 * 1024;
  std::size_t max_body_bytes = 4u << 20;
  // Every connection the server holds, each with a thread and its buffers: the memory bound. A
  // new connection that finds it reached closes the oldest idle connection (kept alive between
  // requests, nothing of the next one received; with max_unproven_connections, only an unproven
  // one) and takes its place; when none is idle it gets 503 and is closed.
  std::size_t max_connections = 32;
  // Connections from one client address still receiving a request: a new connection until its
  // first request has arrived whole, a kept-alive one from the first byte of its next request
  // until that has. A well-behaved client's request arrives at once, so these are the slow
  // clients. Past it a new connection from that address gets 503 and is closed, and so does a
  // kept-alive connection whose next request would wait for more of its bytes. Connections whose
  // requests are being answered, and idle ones, do not count: several clients share one address
  // (agents on one host, everyone behind a gateway or reverse proxy), and each MCP client holds
  // connections of its own.
  std::size_t max_incomplete_per_peer = 8;
  // Deadlines for the whole of what they bound, however the bytes trickle in. A request's head
  // must be complete within head_timeout of the connection's start (its first request) or of its
  // first byte (later ones), its body within body_timeout of the head; else 408 and the connection
  // closes. Between requests a connection waits idle_timeout for the next one, then closes.
  std::chrono::milliseconds head_timeout = std::chrono::seconds(10);
  std::chrono::milliseconds body_timeout = std::chrono::seconds(30);
  std::chrono::milliseconds idle_timeout = std::chrono::seconds(60);
  // Each response, or each event of a stream, must be sent whole within it (a client that does
  // not read is dropped).
  std::chrono::milliseconds write_timeout = std::chrono::seconds(30);
  // 0: every connection is alike (the MCP transport). Otherwise connections are unproven until a
  // request on them proves its client (HttpExchange::prove_connection: it carried a credential),
  // and unproven ones hold no slot beyond their one request: each closes after its first answer
  // ("Connection: close"), and a new connection that finds this cap, max_connections or
  // max_incomplete_per_peer reached closes the oldest unproven one still waiting for its
  // request (nothing of it unread in the socket) rather than being refused. When none is waiting
  // (each is being answered, or its request is unread), a new connection is still admitted while
  // max_connections and max_incomplete_per_peer allow: 503 only when every slot is taken. So a
  // client without a credential cannot keep one that has it out by holding connections open; only
  // by keeping every slot busy with requests in flight at once. (A client that connects and then
  // waits cannot be told from one that is about to send its credential, so it is the one that
  // waits that goes.)
  std::size_t max_unproven_connections = 0;
};

class HttpServer {
 public:
  // Binds and listens, then accepts on a thread of its own. INVALID_CONFIG (rule "http_listen")
  // when the address is not an IPv4 literal or cannot be bound.
  static Result<std::unique_ptr<HttpServer>> start(HttpServerOptions options, HttpHandler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  std::uint16_t port() const { return port_; }

 private:
  // What a connection's thread is doing, for the caps (HttpServerOptions).
  enum class Phase : std::uint8_t {
    kReceiving,  // waiting for a request, or the rest of one: from the start, or its first byte
    kAnswering,  // the request is whole (or refused): the handler has it
    kIdle,       // kept alive between requests, nothing of the next one received yet
  };
  struct Connection {
    internal::UniqueFd fd;
    std::uint32_t peer = 0;  // the client's IPv4 address, network order
    std::jthread thread;
    std::atomic<bool> done = false;  // set before the client can see the connection close
    // With max_unproven_connections: set once a request on it proved its client.
    std::atomic<bool> proven = false;
    std::atomic<Phase> phase = Phase::kReceiving;
    bool evicted = false;  // closed to make room for another; guarded by mutex_
  };
  // The live connections as the caps see them when a connection from `peer` arrives.
  struct Census {
    std::size_t live = 0;
    std::size_t incomplete_from_peer = 0;  // kReceiving
    std::size_t unproven = 0;
  };

  HttpServer(HttpServerOptions options, HttpHandler handler, internal::UniqueFd listener,
             std::uint16_t port);
  void accept_loop(std::stop_token stop);
  void admit(internal::UniqueFd fd, std::uint32_t peer);
  std::string_view refusal_for(std::uint32_t peer);
  Census census(std::uint32_t peer, const Connection* except);
  Connection* oldest_waiting_unproven(const std::uint32_t* peer);
  Connection* oldest_idle();
  bool may_wait_for_rest(Connection& connection);
  void serve(Connection& connection, std::stop_token stop);
  void reap_finished_connections();

  const HttpServerOptions options_;
  const HttpHandler handler_;
  internal::UniqueFd listener_;
  const std::uint16_t port_;
  std::stop_source stop_;
  std::mutex mutex_;
  std::list<Connection> connections_;  // guarded by mutex_
  std::jthread acceptor_;              // last: stops first
};

}  // namespace codemode::http

#endif  // CODEMODE_HTTP_HTTP_SERVER_H_
