// Who may use the approvals console, and how a browser proves it on every request
// (docs/console.md, "Access"):
//   - the access token: 32..256 characters of A-Z a-z 0-9 . _ ~ -, printed once at start in the
//     login URL (/login?token=...) or given in CODEMODE_CONSOLE_TOKEN; scripts may also send it
//     as "Authorization: Bearer <token>";
//   - /login with the token starts a session and redirects to "/#session=<id>": the page keeps
//     the id in sessionStorage (scoped to this origin, port included) and sends it as the header
//     X-Codemode-Session on every API request. No cookie: a browser would send a cookie to every
//     port of the host, so any local listener could collect it. A custom header is never sent by
//     another site's page (no CORS is answered), so it is also the defence against cross-site
//     requests;
//   - every request must name a Host the console serves (no DNS rebinding onto loopback);
//   - a state-changing request must also come from the console's own origin ("http://" + Host,
//     or the configured public origin behind a TLS proxy).
// Thread-safety: every method may be called from several connection threads at once.
#ifndef CODEMODE_CONSOLE_CONSOLE_ACCESS_H_
#define CODEMODE_CONSOLE_CONSOLE_ACCESS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "http/http_request.h"

namespace codemode::console {

inline constexpr char kSessionHeader[] = "x-codemode-session";

// Whether `token` may be an access token: 32..256 characters of [A-Za-z0-9._~-], so that it
// travels in a URL unencoded.
bool is_valid_access_token(std::string_view token);

class ConsoleAccess {
 public:
  // `loopback_address`: the console listens on this loopback address (empty: on another address,
  // where it answers to any Host, being reached by names it cannot know; the token still guards
  // it). `public_origin`: the origin the page has behind a proxy ("https://approvals.example"),
  // or empty.
  ConsoleAccess(std::string access_token, std::string loopback_address, std::string public_origin);
  // Names the bound port: on loopback the console then answers to Host 127.0.0.1:PORT,
  // localhost:PORT and ADDRESS:PORT (without ":PORT" for port 80), and to none before.
  void set_port(std::uint16_t port);

  enum class Caller { kNobody, kSession, kBearer };

  bool host_allowed(const http::HttpRequest& request) const;
  // Whether the request carries a live session's id or the bearer token.
  Caller identify(const http::HttpRequest& request);
  // The ?token= of a /login request is the access token.
  bool login_token_valid(const http::HttpRequest& request) const;
  // A new session's id; the oldest session is dropped past kMaxSessions. Empty when the kernel
  // gave no randomness.
  std::string start_session();
  // For a state-changing request by an identified caller: its Origin, if any, is this console's.
  // A browser's request always has one (the page sends decisions with fetch).
  bool same_origin(const http::HttpRequest& request) const;

  static constexpr std::size_t kMaxSessions = 64;
  static constexpr std::chrono::hours kSessionLifetime{12};

 private:
  const std::string access_token_;
  const std::string loopback_address_;
  const std::string public_origin_;
  mutable std::mutex mutex_;
  std::vector<std::string> hosts_;  // guarded by mutex_
  // By SHA-256 of the session id, so a lookup's timing says nothing about the id.
  std::map<std::string, std::chrono::steady_clock::time_point> sessions_;  // guarded by mutex_
};

}  // namespace codemode::console

#endif  // CODEMODE_CONSOLE_CONSOLE_ACCESS_H_
