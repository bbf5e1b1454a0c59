#include "mcp/http_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cstdio>
#include <variant>

namespace codemode::mcp {
namespace {

using internal::UniqueFd;

constexpr std::string_view kHeadEnd = "\r\n\r\n";

Error listen_error(std::string message) {
  return Error{ErrorCode::kInvalidConfig, "http_listen", std::move(message)};
}

bool write_all_to(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t written = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
  return true;
}

std::string status_line_and_headers(int status, const HttpHeaders& headers) {
  std::string text = "HTTP/1.1 " + std::to_string(status) + " " +
                     std::string(http_reason_phrase(status)) + "\r\n";
  for (const auto& [name, value] : headers) text += name + ": " + value + "\r\n";
  return text;
}

std::string chunk(std::string_view data) {
  char size[32];
  const int length = std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  return std::string(size, static_cast<std::size_t>(length)) + std::string(data) + "\r\n";
}

void set_timeouts(int fd, std::chrono::seconds timeout) {
  const timeval value{.tv_sec = static_cast<time_t>(timeout.count()), .tv_usec = 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, sizeof value);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, sizeof value);
}

// Reads requests off one connection; bytes past a request stay for the next (pipelining).
class RequestReader {
 public:
  RequestReader(int fd, const HttpServerOptions& options) : fd_(fd), options_(options) {}

  // The next request, a refusal, or nullopt when the connection ended or timed out first.
  std::optional<std::variant<HttpRequest, HttpRefusal>> next() {
    std::size_t end;
    while ((end = buffer_.find(kHeadEnd)) == std::string::npos) {
      if (buffer_.size() > options_.max_head_bytes) {
        return HttpRefusal{431, "request head too large"};
      }
      if (!fill()) return std::nullopt;
    }
    if (end > options_.max_head_bytes) return HttpRefusal{431, "request head too large"};
    auto parsed = parse_http_head(std::string_view(buffer_).substr(0, end), options_.max_body_bytes);
    buffer_.erase(0, end + kHeadEnd.size());
    if (auto* request = std::get_if<HttpRequest>(&parsed); request && !read_body(*request)) {
      return std::nullopt;
    }
    return parsed;
  }

 private:
  bool read_body(HttpRequest& request) {
    while (buffer_.size() < request.content_length) {
      if (!fill()) return false;
    }
    request.body = buffer_.substr(0, request.content_length);
    buffer_.erase(0, request.content_length);
    return true;
  }

  bool fill() {
    char bytes[16 * 1024];
    while (true) {
      const ssize_t got = ::recv(fd_, bytes, sizeof bytes, 0);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;  // closed, shut down by stop, or idle past the timeout
      buffer_.append(bytes, static_cast<std::size_t>(got));
      return true;
    }
  }

  int fd_;
  const HttpServerOptions& options_;
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

bool HttpExchange::write(std::string_view bytes) {
  if (!write_all_to(fd_, bytes)) must_close_ = true;
  return !must_close_;
}

bool HttpExchange::respond(int status, std::string_view content_type, std::string_view body,
                           const HttpHeaders& headers) {
  if (answered_) return false;
  answered_ = true;
  HttpHeaders all = headers;
  if (!content_type.empty()) all.emplace_back("Content-Type", std::string(content_type));
  all.emplace_back("Content-Length", std::to_string(body.size()));
  return write(status_line_and_headers(status, all) + "\r\n" + std::string(body));
}

bool HttpExchange::start_event_stream(const HttpHeaders& headers) {
  if (answered_) return false;
  answered_ = streaming_ = true;
  must_close_ = true;  // until finish() ends the stream cleanly
  HttpHeaders all = headers;
  all.emplace_back("Content-Type", "text/event-stream");
  all.emplace_back("Cache-Control", "no-cache");
  all.emplace_back("Transfer-Encoding", "chunked");
  return write_all_to(fd_, status_line_and_headers(200, all) + "\r\n");
}

bool HttpExchange::send_event(std::string_view data) {
  if (!streaming_ || data.find_first_of("\r\n") != std::string_view::npos) return false;
  return write_all_to(fd_, chunk("data: " + std::string(data) + "\n\n"));
}

bool HttpExchange::finish() {
  if (!streaming_) return false;
  streaming_ = false;
  must_close_ = !write_all_to(fd_, "0\r\n\r\n");
  return !must_close_;
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
    UniqueFd fd(::accept4(listener_.get(), nullptr, nullptr, SOCK_CLOEXEC));
    if (!fd.valid()) {
      if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE) continue;
      return;  // the listener was shut down
    }
    reap_finished_connections();
    admit(std::move(fd));
  }
}

void HttpServer::admit(UniqueFd fd) {
  std::lock_guard lock(mutex_);
  if (connections_.size() >= options_.max_connections) {
    set_timeouts(fd.get(), std::chrono::seconds(1));
    HttpExchange(fd.get(), stop_.get_token())
        .respond(503, "text/plain", "too many connections", {{"Connection", "close"}});
    return;
  }
  set_timeouts(fd.get(), options_.idle_timeout);
  Connection& connection = connections_.emplace_back();
  connection.fd = std::move(fd);
  connection.thread = std::jthread([this, &connection] { serve(connection, stop_.get_token()); });
}

void HttpServer::serve(Connection& connection, std::stop_token stop) {
  RequestReader reader(connection.fd.get(), options_);
  while (!stop.stop_requested()) {
    auto next = reader.next();
    if (!next) break;
    HttpExchange exchange(connection.fd.get(), stop);
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
  ::shutdown(connection.fd.get(), SHUT_RDWR);
  connection.done = true;
}

void HttpServer::reap_finished_connections() {
  std::lock_guard lock(mutex_);
  connections_.remove_if([](Connection& connection) {
    if (!connection.done) return false;
    connection.thread.join();
    return true;
  });
}

}  // namespace codemode::mcp
