// Who may use an HTTP server of codemode: the one set of access rules that the MCP Streamable HTTP
// transport (src/mcp/transport/streamable_http.h) and the approvals console
// (src/console/console_access.h) both apply, so that the two cannot drift apart
// (docs/security.md, "HTTP access: the rules both servers share"):
//   - an access token is 32..256 characters of A-Z a-z 0-9 . _ ~ - (it travels unencoded in a
//     URL and in a header); a client sends it as "Authorization: Bearer <token>", and it is
//     compared in constant time;
//   - a server may listen on an address that is not loopback only with a token: anything that can
//     connect would otherwise be served;
//   - on a loopback address a request must name a Host the server serves (127.0.0.1:PORT,
//     localhost:PORT or ADDRESS:PORT), so that a page whose DNS name was rebound to 127.0.0.1
//     cannot reach it under that name; on any other address every Host is served (the server
//     cannot know the names it is reached by; the token guards it);
//   - a request with an Origin must come from the server's own origin ("http://" + a served Host)
//     or from one the server was configured with (a page behind a TLS proxy).
// What a server answers to a request that fails a check, and which requests need the token, is
// the server's own.
//
// Ownership and thread-safety: the free functions keep no state. HttpAccess keeps its own copies
// of what it is given and is immutable once set_port has named the port; every method may be
// called from several connection threads at once, set_port included.
#ifndef CODEMODE_HTTP_HTTP_ACCESS_H_
#define CODEMODE_HTTP_HTTP_ACCESS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http_request.h"

namespace codemode::http {

inline constexpr std::size_t kMinAccessTokenChars = 32;
inline constexpr std::size_t kMaxAccessTokenChars = 256;

// Whether `token` may be an access token: kMinAccessTokenChars..kMaxAccessTokenChars characters of
// [A-Za-z0-9._~-], which a URL carries unencoded. The minimum keeps out a word someone chose: even
// as hex, 32 random characters hold 128 bits.
bool is_valid_access_token(std::string_view token);

// Whether `address` is an IP address literal of this machine's loopback interface: IPv4
// 127.0.0.0/8, IPv6 ::1, or the IPv4-mapped IPv6 form of the former (::ffff:127.x.y.z), which
// names the same IPv4 address. Only literals count: a name ("localhost", "127.evil.com") is
// whatever DNS says at the time, and abbreviated IPv4 forms ("127.1") are not addresses here.
bool is_loopback_address(std::string_view address);

// The credential of an Authorization header value "Bearer <credential>", or nullopt for any other
// value. The scheme is matched exactly as written here ("bearer" is refused), followed by exactly
// one space: what every client sends, and nothing to guess at.
std::optional<std::string_view> bearer_credential(std::string_view authorization);

// Whether `host` (a Host header's value) is one that a server listening on `listen_address` and
// `port` serves: on a loopback address 127.0.0.1, localhost or the address itself, each followed
// by ":PORT" (and without it only on port 80, as clients omit the default port); on any other
// address, every host. Compared exactly: clients send these names in lower case.
bool is_served_host(std::string_view host, std::string_view listen_address, std::uint16_t port);

enum class ListenCheck {
  kAllowed,
  kTokenRequired,  // the address is not loopback and there is no token
  kInvalidToken,   // the token is set but not is_valid_access_token
};

// Whether a server may listen on `listen_address` guarded by `token` (nullopt: none).
ListenCheck check_listen(std::string_view listen_address, const std::optional<std::string>& token);

// The per-request checks of one server. Its listen address and token should have passed
// check_listen.
class HttpAccess {
 public:
  // `listen_address`: the address the server listens on. `token`: the bearer token; nullopt when
  // there is none (has_bearer_token is then always false). `origins`: origins allowed besides
  // the server's own, exactly as browsers send them ("https://approvals.example").
  HttpAccess(std::string listen_address, std::optional<std::string> token,
             std::vector<std::string> origins);
  HttpAccess(const HttpAccess&) = delete;
  HttpAccess& operator=(const HttpAccess&) = delete;

  // Names the port the server was bound to. Until then a server on loopback serves no Host.
  void set_port(std::uint16_t port);

  bool listens_on_loopback() const { return loopback_; }
  bool has_token() const { return token_.has_value(); }

  // Whether the request names a Host this server serves (is_served_host); a request without one
  // is refused on loopback.
  bool host_allowed(const HttpRequest& request) const;
  // Whether the request has no Origin (it is not a browser's cross-site request: browsers send
  // one on every request that is not a same-origin GET or HEAD), or its Origin is
  // "http://" + its Host (that Host served), or one of `origins`.
  bool origin_allowed(const HttpRequest& request) const;
  // Whether `given` is the token, compared in constant time; false when there is none.
  bool is_token(std::string_view given) const;
  // Whether the request carries "Authorization: Bearer <the token>".
  bool has_bearer_token(const HttpRequest& request) const;

 private:
  const std::string listen_address_;
  const bool loopback_;
  const std::optional<std::string> token_;
  const std::vector<std::string> origins_;
  std::atomic<std::uint16_t> port_ = 0;  // 0 until set_port
};

}  // namespace codemode::http

#endif  // CODEMODE_HTTP_HTTP_ACCESS_H_
