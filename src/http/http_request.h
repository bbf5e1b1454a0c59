// One HTTP/1.1 request as the MCP HTTP transport reads it: the request line and headers parsed
// strictly from a bounded head, the body by Content-Length only. Anything it does not need (chunked
// request bodies, obsolete line folding, HTTP/1.0 keep-alive rules) is refused with the status a
// client can act on, rather than guessed at.
#ifndef CODEMODE_HTTP_HTTP_REQUEST_H_
#define CODEMODE_HTTP_HTTP_REQUEST_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace codemode::http {

struct HttpRequest {
  std::string method;  // "POST", "GET", "DELETE", ...: a token, case kept
  std::string target;  // origin-form: starts with '/'
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed
  std::size_t content_length = 0;
  std::string body;

  // The value of the first header `name` (lower case), if present.
  std::optional<std::string_view> header(std::string_view name) const;
  // The path of the target, without its query.
  std::string_view path() const;
};

// Why a head was refused: the status to answer with (400, 411, 413, 431, 501, 505) and the
// fixed reason sent as the body.
struct HttpRefusal {
  int status;
  std::string_view reason;
};

// Parses a head: everything before the blank line that ends it, without that blank line (so it
// ends with the last header's value). Content-Length is read into content_length (at most
// `max_body_bytes`); Transfer-Encoding is refused (501); a repeated or malformed Content-Length is
// 400.
std::variant<HttpRequest, HttpRefusal> parse_http_head(std::string_view head,
                                                       std::size_t max_body_bytes);

// Reason phrases for the statuses the MCP transport and the console send.
std::string_view http_reason_phrase(int status);

}  // namespace codemode::http

#endif  // CODEMODE_HTTP_HTTP_REQUEST_H_
