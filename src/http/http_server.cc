#include "http/http_server.h"

#include <cstdio>
#include <functional>
#include <utility>
#include <variant>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http/http_socket.h"
#include "http/request_reader.h"

namespace codemode::http {
namespace {

using internal::UniqueFd;

Error listen_error(std::string message) {
  return Error::invalid_config("http_listen", std::move(message));
}

std::string status_line_and_headers(int status, const HttpHeaders& headers) {
  std::string text =
      "HTTP/1.1 " + std::to_string(status) + " " + std::string(http_reason_phrase(status)) + "\r\n";
  for (const auto& [name, value] : headers) text += name + ": " + value + "\r\n";
  return text;
}

std::string chunk(std::string_view data) {
  char size[32];
  const int length = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  return std::string(size, static_cast<std::size_t>(length)) + std::string(data) + "\r\n";
}

// Whether nothing the client sent is waiting in `fd`'s socket: its thread has taken every byte, so
// the server is waiting on the client, not the other way round.
bool nothing_unread(int fd) {
  int unread = 0;
  return ::ioctl(fd, FIONREAD, &unread) == 0 && unread == 0;
}

std::optional<sockaddr_in> ipv4_address(const std::string& address, std::uint16_t port) {
  sockaddr_in socket_address{};
  socket_address.sin_family = AF_INET;
  socket_address.sin_port = htons(port);
  if (::inet_pton(AF_INET, address.c_str(), &socket_address.sin_addr) != 1) return std::nullopt;
  return socket_address;
}

Result<std::pair<UniqueFd, std::uint16_t>> listen_on(const HttpServerOptions& options) {
  const std::optional<sockaddr_in> address = ipv4_address(options.address, options.port);
  if (!address) return listen_error("The listen address is not an IPv4 address.");
  UniqueFd fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  const int reuse = 1;
  if (!fd.valid() || ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &reuse, sizeof reuse) != 0 ||
      ::bind(fd.get(), reinterpret_cast<const sockaddr*>(&*address), sizeof *address) != 0 ||
      ::listen(fd.get(), 64) != 0) {
    return listen_error("The listen address could not be bound.");
  }
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  if (::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&bound), &length) != 0) {
    return listen_error("The listen address could not be read back.");
  }
  return std::pair{std::move(fd), ntohs(bound.sin_port)};
}

}  // namespace

bool HttpExchange::write_whole(std::string_view bytes) const {
  return write_before(fd_, bytes, SocketClock::now() + write_timeout_);
}

bool HttpExchange::write(std::string_view bytes) {
  if (!write_whole(bytes)) must_close_ = true;
  return !must_close_;
}

void HttpExchange::prove_connection() {
  if (proven_ != nullptr) *proven_ = true;
}

bool HttpExchange::closes_unproven(HttpHeaders& headers) const {
  if (proven_ == nullptr || *proven_) return false;
  for (const auto& [name, value] : headers) {
    if (name == "Connection" && value == "close") return true;
  }
  headers.emplace_back("Connection", "close");
  return true;
}

bool HttpExchange::respond(int status, std::string_view content_type, std::string_view body,
                           const HttpHeaders& headers) {
  if (answered_) return false;
  answered_ = true;
  HttpHeaders all = headers;
  closes_unproven(all);
  if (!content_type.empty()) all.emplace_back("Content-Type", std::string(content_type));
  all.emplace_back("Content-Length", std::to_string(body.size()));
  const bool written = write(status_line_and_headers(status, all) + "\r\n" + std::string(body));
  // A response that says so ends its connection: a refused or unproven client keeps no slot.
  for (const auto& [name, value] : all) {
    if (name == "Connection" && value == "close") must_close_ = true;
  }
  return written;
}

bool HttpExchange::start_event_stream(const HttpHeaders& headers) {
  if (answered_) return false;
  answered_ = streaming_ = true;
  HttpHeaders all = headers;
  const bool closes = closes_unproven(all);
  must_close_ = true;  // until finish() ends the stream cleanly
  unproven_stream_ = closes;
  all.emplace_back("Content-Type", "text/event-stream");
  all.emplace_back("Cache-Control", "no-cache");
  all.emplace_back("Transfer-Encoding", "chunked");
  return write_whole(status_line_and_headers(200, all) + "\r\n");
}

bool HttpExchange::send_event(std::string_view data) {
  if (!streaming_ || data.find_first_of("\r\n") != std::string_view::npos) return false;
  return write_whole(chunk("data: " + std::string(data) + "\n\n"));
}

bool HttpExchange::finish() {
  if (!streaming_) return false;
  streaming_ = false;
  const bool written = write_whole("0\r\n\r\n");
  must_close_ = !written || unproven_stream_;
  return written;
}

Result<std::unique_ptr<HttpServer>> HttpServer::start(HttpServerOptions options,
                                                      HttpHandler handler) {
  auto listening = listen_on(options);
  if (!listening.ok()) return std::move(listening).error();
  auto [fd, port] = std::move(*listening);
  return std::unique_ptr<HttpServer>(
      new HttpServer(std::move(options), std::move(handler), std::move(fd), port));
}

HttpServer::HttpServer(HttpServerOptions options, HttpHandler handler, UniqueFd listener,
                       std::uint16_t port)
    : options_(std::move(options)),
      handler_(std::move(handler)),
      listener_(std::move(listener)),
      port_(port),
      acceptor_([this](std::stop_token stop) { accept_loop(stop); }) {}

HttpServer::~HttpServer() {
  stop_.request_stop();
  acceptor_.request_stop();
  ::shutdown(listener_.get(), SHUT_RDWR);  // wakes accept()
  acceptor_.join();
  std::lock_guard lock(mutex_);
  for (Connection& connection : connections_) ::shutdown(connection.fd.get(), SHUT_RDWR);
  for (Connection& connection : connections_) connection.thread.join();
}

void HttpServer::accept_loop(std::stop_token stop) {
  while (!stop.stop_requested()) {
    sockaddr_in peer{};
    socklen_t length = sizeof peer;
    UniqueFd fd(
        ::accept4(listener_.get(), reinterpret_cast<sockaddr*>(&peer), &length, SOCK_CLOEXEC));
    if (!fd.valid()) {
      if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE) continue;
      return;  // the listener was shut down
    }
    reap_finished_connections();
    admit(std::move(fd), peer.sin_addr.s_addr);
  }
}

// REQUIRES: mutex_ held.
HttpServer::Census HttpServer::census(std::uint32_t peer, const Connection* except) {
  Census counted;
  for (const Connection& connection : connections_) {
    if (connection.done || connection.evicted || &connection == except) continue;
    ++counted.live;
    if (!connection.proven) ++counted.unproven;
    if (connection.peer == peer && connection.phase == Phase::kReceiving) {
      ++counted.incomplete_from_peer;
    }
  }
  return counted;
}

// The oldest unproven connection (from `peer`, when given) still waiting for the rest of its
// first request (head or body) with nothing unread in its socket, or nullptr. Unread bytes mean
// the client has spoken and its thread is about to read them: a client that sends its request at
// once is never chosen. Unproven connections close after their first answer, so one receiving is
// on its first request. REQUIRES: mutex_ held.
HttpServer::Connection* HttpServer::oldest_waiting_unproven(const std::uint32_t* peer) {
  for (Connection& connection : connections_) {  // in the order they were admitted
    if (connection.done || connection.evicted || connection.proven ||
        connection.phase != Phase::kReceiving || (peer != nullptr && connection.peer != *peer)) {
      continue;
    }
    if (nothing_unread(connection.fd.get())) return &connection;
  }
  return nullptr;
}

// The oldest idle connection (kept alive, nothing of a next request received), or nullptr.
// A proven one is never chosen: on a server that tells connections apart, the clients with a
// credential keep theirs. REQUIRES: mutex_ held.
HttpServer::Connection* HttpServer::oldest_idle() {
  for (Connection& connection : connections_) {
    if (!connection.done && !connection.evicted && !connection.proven &&
        connection.phase == Phase::kIdle && nothing_unread(connection.fd.get())) {
      return &connection;
    }
  }
  return nullptr;
}

// Why a connection from `peer` may not be served now (empty: it may). A full server first closes
// the oldest idle connection; with max_unproven_connections, a full cap closes the oldest
// unproven connection that is still waiting (HttpServerOptions). REQUIRES: mutex_ held.
std::string_view HttpServer::refusal_for(std::uint32_t peer) {
  for (;;) {
    const Census counted = census(peer, nullptr);
    const bool full = counted.live >= options_.max_connections;
    const bool peer_full = counted.incomplete_from_peer >= options_.max_incomplete_per_peer;
    const std::size_t unproven_cap = options_.max_unproven_connections;
    const std::string_view refusal = full        ? "too many connections"
                                     : peer_full ? "too many incomplete requests from this address"
                                     : unproven_cap > 0 && counted.unproven >= unproven_cap
                                         ? "too many connections without a credential"
                                         : "";
    if (refusal.empty()) return refusal;
    Connection* room = full && !peer_full ? oldest_idle() : nullptr;
    if (room == nullptr && unproven_cap == 0) return refusal;
    if (room == nullptr) {
      room = oldest_waiting_unproven(peer_full ? &peer : nullptr);
      // Past the unproven cap with every unproven connection busy (being answered, or its request
      // unread), a slot that is free still admits: the newcomer may be the person with the token,
      // and the busy ones close after their answers.
      if (room == nullptr) return !full && !peer_full ? std::string_view() : refusal;
    }
    // Its thread sees its reads end and finishes; the slot counts as free from now. Only the
    // reading side is shut: a client whose last bytes its thread took just before the check
    // still gets its answer (and, unproven, a closed connection after it).
    room->evicted = true;
    ::shutdown(room->fd.get(), SHUT_RD);
  }
}

// Whether a later request on kept-alive `connection` may wait for the rest of its bytes: not when
// its address already has max_incomplete_per_peer other connections receiving. (A first request
// was counted on admission.) A refused connection stops counting at once, so that one checked
// after it does not count it too.
bool HttpServer::may_wait_for_rest(Connection& connection) {
  std::lock_guard lock(mutex_);
  if (census(connection.peer, &connection).incomplete_from_peer <
      options_.max_incomplete_per_peer) {
    return true;
  }
  connection.phase = Phase::kAnswering;  // its refusal
  return false;
}

void HttpServer::admit(UniqueFd fd, std::uint32_t peer) {
  std::lock_guard lock(mutex_);
  if (const std::string_view refusal = refusal_for(peer); !refusal.empty()) {
    // On the accepting thread, so briefly: a fresh connection's send buffer takes it at once.
    HttpExchange(fd.get(), stop_.get_token(), std::chrono::milliseconds(100))
        .respond(503, "text/plain", refusal, {{"Connection", "close"}});
    ::shutdown(fd.get(), SHUT_WR);
    discard_pending(fd.get());
    return;
  }
  Connection& connection = connections_.emplace_back();
  connection.fd = std::move(fd);
  connection.peer = peer;
  connection.thread = std::jthread([this, &connection] { serve(connection, stop_.get_token()); });
}

void HttpServer::serve(Connection& connection, std::stop_token stop) {
  RequestReader reader(connection.fd.get(), options_);
  std::atomic<bool>* proven = options_.max_unproven_connections > 0 ? &connection.proven : nullptr;
  const std::function<bool()> may_wait = [this, &connection] {
    return may_wait_for_rest(connection);
  };
  while (!stop.stop_requested()) {
    if (!reader.await_request()) break;
    connection.phase = Phase::kReceiving;
    auto next = reader.next(may_wait);
    connection.phase = Phase::kAnswering;
    if (!next) break;
    HttpExchange exchange(connection.fd.get(), stop, options_.write_timeout, proven);
    if (auto* refusal = std::get_if<HttpRefusal>(&*next)) {
      exchange.respond(refusal->status, "text/plain", refusal->reason, {{"Connection", "close"}});
      break;
    }
    const HttpRequest& request = std::get<HttpRequest>(*next);
    try {
      handler_(request, exchange);
    } catch (...) {
      // A handler's exception must not end the server (it runs on this connection's thread).
    }
    if (!exchange.answered()) exchange.respond(500, "text/plain", "no response");
    if (exchange.must_close() || request.header("connection") == "close") break;
    connection.phase = Phase::kIdle;
  }
  // Counted free before the client sees the close, so that a client that reconnects then finds
  // the slot free.
  connection.done = true;
  ::shutdown(connection.fd.get(), SHUT_RDWR);
}

void HttpServer::reap_finished_connections() {
  std::lock_guard lock(mutex_);
  connections_.remove_if([](Connection& connection) {
    if (!connection.done) return false;
    connection.thread.join();
    return true;
  });
}

}  // namespace codemode::http
