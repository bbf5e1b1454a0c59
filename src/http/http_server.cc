#include "http/http_server.h"

#include <cstdio>
#include <variant>

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http/http_socket.h"

namespace codemode::http {
namespace {

using internal::UniqueFd;

constexpr std::string_view kHeadEnd = "\r\n\r\n";

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

// Reads requests off one connection; bytes past a request stay for the next (pipelining). Each
// head and each body has one deadline for all of its bytes (see HttpServerOptions).
class RequestReader {
 public:
  using Next = std::optional<std::variant<HttpRequest, HttpRefusal>>;

  RequestReader(int fd, const HttpServerOptions& options)
      : fd_(fd), options_(options), started_(SocketClock::now()) {}

  // The next request, a refusal, or nullopt when the connection ended (or idled out) first.
  Next next() {
    SocketClock::time_point head_deadline = started_ + options_.head_timeout;
    if (requests_++ > 0) {
      if (buffer_.empty() && read_before(fd_, SocketClock::now() + options_.idle_timeout,
                                         buffer_) != SocketRead::kData) {
        return std::nullopt;  // idle: closed quietly, as a kept-alive connection may be
      }
      head_deadline = SocketClock::now() + options_.head_timeout;
    }
    std::size_t end;
    while ((end = buffer_.find(kHeadEnd)) == std::string::npos) {
      if (buffer_.size() > options_.max_head_bytes) {
        return HttpRefusal{431, "request head too large"};
      }
      const SocketRead read = read_before(fd_, head_deadline, buffer_);
      if (read != SocketRead::kData) return ended(read, "request head not received in time");
    }
    if (end > options_.max_head_bytes) return HttpRefusal{431, "request head too large"};
    auto parsed =
        parse_http_head(std::string_view(buffer_).substr(0, end), options_.max_body_bytes);
    buffer_.erase(0, end + kHeadEnd.size());
    auto* request = std::get_if<HttpRequest>(&parsed);
    if (request == nullptr) return parsed;
    const SocketClock::time_point body_deadline = SocketClock::now() + options_.body_timeout;
    while (buffer_.size() < request->content_length) {
      const SocketRead read = read_before(fd_, body_deadline, buffer_);
      if (read != SocketRead::kData) return ended(read, "request body not received in time");
    }
    request->body = buffer_.substr(0, request->content_length);
    buffer_.erase(0, request->content_length);
    return parsed;
  }

 private:
  static Next ended(SocketRead read, std::string_view late) {
    if (read == SocketRead::kTimedOut) return HttpRefusal{408, late};
    return std::nullopt;
  }

  int fd_;
  const HttpServerOptions& options_;
  const SocketClock::time_point started_;
  std::size_t requests_ = 0;
  std::string buffer_;
};

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

// The oldest unproven connection (from `peer`, when given) still waiting for the rest of its
// first request (head or body) with nothing unread in its socket, or nullptr. Unread bytes mean
// the client has spoken and its thread is about to read them: a client that sends its request at
// once is never chosen. REQUIRES: mutex_ held.
HttpServer::Connection* HttpServer::oldest_waiting_unproven(const std::uint32_t* peer) {
  for (Connection& connection : connections_) {  // in the order they were admitted
    if (connection.done || connection.evicted || connection.proven ||
        !connection.awaiting_request || (peer != nullptr && connection.peer != *peer)) {
      continue;
    }
    int unread = 0;
    if (::ioctl(connection.fd.get(), FIONREAD, &unread) == 0 && unread == 0) return &connection;
  }
  return nullptr;
}

// Why a connection from `peer` may not be served now (empty: it may). With
// max_unproven_connections, a full cap first closes the oldest unproven connection that is still
// waiting (HttpServerOptions). REQUIRES: mutex_ held.
std::string_view HttpServer::refusal_for(std::uint32_t peer) {
  for (;;) {
    std::size_t live = 0;
    std::size_t from_peer = 0;
    std::size_t unproven = 0;
    for (const Connection& connection : connections_) {
      if (connection.done || connection.evicted) continue;
      ++live;
      if (connection.peer == peer) ++from_peer;
      if (!connection.proven) ++unproven;
    }
    const bool peer_full = from_peer >= options_.max_connections_per_peer;
    const std::size_t unproven_cap = options_.max_unproven_connections;
    const std::string_view refusal = live >= options_.max_connections ? "too many connections"
                                     : peer_full ? "too many connections from this address"
                                     : unproven_cap > 0 && unproven >= unproven_cap
                                         ? "too many connections without a credential"
                                         : "";
    if (refusal.empty() || unproven_cap == 0) return refusal;
    Connection* waiting = oldest_waiting_unproven(peer_full ? &peer : nullptr);
    // Past the unproven cap with every unproven connection busy (being answered, or its request
    // unread), a slot that is free still admits: the newcomer may be the person with the token,
    // and the busy ones close after their answers.
    const bool only_the_unproven_cap = live < options_.max_connections && !peer_full;
    if (waiting == nullptr) return only_the_unproven_cap ? std::string_view() : refusal;
    // Its thread sees its reads end and finishes; the slot counts as free from now. Only the
    // reading side is shut: a client whose last bytes its thread took just before the check
    // still gets its answer (and, unproven, a closed connection after it).
    waiting->evicted = true;
    ::shutdown(waiting->fd.get(), SHUT_RD);
  }
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
  while (!stop.stop_requested()) {
    auto next = reader.next();
    connection.awaiting_request = false;
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
