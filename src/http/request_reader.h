// Reads the requests of one HTTP connection off its socket, each head and each body against one
// deadline for all of its bytes (HttpServerOptions); bytes past a request stay for the next
// (pipelining). Used by HttpServer, one reader per connection thread.
#ifndef CODEMODE_HTTP_REQUEST_READER_H_
#define CODEMODE_HTTP_REQUEST_READER_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "http/http_request.h"
#include "http/http_server.h"
#include "http/http_socket.h"

namespace codemode::http {

class RequestReader {
 public:
  using Next = std::optional<std::variant<HttpRequest, HttpRefusal>>;

  // `options` must outlive the reader; `fd` is borrowed.
  RequestReader(int fd, const HttpServerOptions& options)
      : fd_(fd), options_(options), started_(SocketClock::now()) {}

  // Whether a request has begun: at once for the first, else once bytes of the next one arrive
  // within idle_timeout. False when the connection ended (or idled out) first.
  bool await_request();

  // The request begun, or a refusal; nullopt when the connection ended first. On a request after
  // the first, `may_wait` is asked once, before the reader first waits for more of its bytes
  // (never, when they are all there): false refuses the request (503).
  Next next(const std::function<bool()>& may_wait);

 private:
  bool read_more(SocketClock::time_point deadline, std::string_view late, Next& ended);

  int fd_;
  const HttpServerOptions& options_;
  const SocketClock::time_point started_;
  std::size_t requests_ = 0;
  std::string buffer_;
  const std::function<bool()>* may_wait_ = nullptr;  // until asked, for the current request
};

}  // namespace codemode::http

#endif  // CODEMODE_HTTP_REQUEST_READER_H_
