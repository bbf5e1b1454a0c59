// Who may use the approvals console, and how a browser proves it on every request
// (docs/console.md, "Access"). The rules it shares with the MCP HTTP transport (the token's form,
// the bearer header, the Host and Origin checks) are http/http_access.h's; the console adds:
//   - the access token is required on every address, loopback included: printed once at start in
//     the login URL (/login?token=...) or given in CODEMODE_CONSOLE_TOKEN; scripts may also send
//     it as "Authorization: Bearer <token>";
//   - /login with the token starts a session and redirects to "/#session=<id>": the page keeps
//     the id in sessionStorage (scoped to this origin, port included) and sends it as the header
//     X-Codemode-Session on every API request. No cookie: a browser would send a cookie to every
//     port of the host, so any local listener could collect it. A custom header is never sent by
//     another site's page (no CORS is answered), so it is also the defence against cross-site
//     requests;
//   - every request must name a Host the console serves and, when it has an Origin, come from the
//     console's own origin ("http://" + Host, or the configured public origin behind a TLS proxy).
// Thread-safety: every method may be called from several connection threads at once.
#ifndef CODEMODE_CONSOLE_CONSOLE_ACCESS_H_
#define CODEMODE_CONSOLE_CONSOLE_ACCESS_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "http/http_access.h"
#include "http/http_request.h"

namespace codemode::console {

inline constexpr char kSessionHeader[] = "x-codemode-session";

class ConsoleAccess {
 public:
  // `listen_address`: where the console listens (http::HttpAccess). `public_origin`: the origin
  // the page has behind a proxy ("https://approvals.example"), or empty.
  ConsoleAccess(std::string access_token, std::string listen_address, std::string public_origin);
  // Names the bound port: on loopback the console then answers to Host 127.0.0.1:PORT,
  // localhost:PORT and ADDRESS:PORT (without ":PORT" for port 80), and to none before.
  void set_port(std::uint16_t port) { http_.set_port(port); }

  enum class Caller { kNobody, kSession, kBearer };

  bool host_allowed(const http::HttpRequest& request) const { return http_.host_allowed(request); }
  // Whether the request has no Origin or the console's own (http::HttpAccess::origin_allowed).
  bool origin_allowed(const http::HttpRequest& request) const {
    return http_.origin_allowed(request);
  }
  // Whether the request carries a live session's id or the bearer token.
  Caller identify(const http::HttpRequest& request);
  // The ?token= of a /login request is the access token.
  bool login_token_valid(const http::HttpRequest& request) const;
  // A new session's id; the oldest session is dropped past kMaxSessions. Empty when the kernel
  // gave no randomness.
  std::string start_session();

  static constexpr std::size_t kMaxSessions = 64;
  static constexpr std::chrono::hours kSessionLifetime{12};

 private:
  http::HttpAccess http_;
  std::mutex mutex_;
  // By SHA-256 of the session id, so a lookup's timing says nothing about the id.
  std::map<std::string, std::chrono::steady_clock::time_point> sessions_;  // guarded by mutex_
};

}  // namespace codemode::console

#endif  // CODEMODE_CONSOLE_CONSOLE_ACCESS_H_
