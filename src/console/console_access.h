// Who may use the approvals console, and how a browser proves it on every request
// (docs/console.md, "Access"):
//   - the access token: 32..256 visible characters, printed once at start in the login URL
//     (/login?token=...) or given in CODEMODE_CONSOLE_TOKEN; scripts may also send it as
//     "Authorization: Bearer <token>";
//   - /login with the token starts a session: a random id in an HttpOnly, SameSite=Strict cookie,
//     and a random CSRF token the page reads from /api/session;
//   - every request must name a Host the console serves (no DNS rebinding onto loopback);
//   - every state-changing request must also come from the console's own origin (Origin equals
//     "http://" + Host) and carry the session's CSRF token in X-Codemode-Csrf.
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

inline constexpr char kSessionCookie[] = "codemode_console";
inline constexpr char kCsrfHeader[] = "x-codemode-csrf";

// Whether `token` may be an access token: 32..256 characters in '!'..'~'.
bool is_valid_access_token(std::string_view token);

class ConsoleAccess {
 public:
  // `loopback`: the console listens on a loopback address, so it answers only to the Host values
  // "127.0.0.1:PORT" and "localhost:PORT" once set_port names the port (none before). Otherwise it
  // answers to any Host (it is reached by names it cannot know; the token still guards it).
  ConsoleAccess(std::string access_token, bool loopback);
  void set_port(std::uint16_t port);

  enum class Caller { kNobody, kSession, kBearer };
  struct Identified {
    Caller caller = Caller::kNobody;
    std::string session_id;  // for kSession
  };

  bool host_allowed(const http::HttpRequest& request) const;
  // Whether the request carries a live session cookie or the bearer token.
  Identified identify(const http::HttpRequest& request);
  // The ?token= of a /login request is the access token.
  bool login_token_valid(const http::HttpRequest& request) const;
  // A new session: {id, csrf token}; the oldest is dropped past kMaxSessions. nullopt when the
  // kernel gave no randomness.
  std::optional<std::pair<std::string, std::string>> start_session();
  // The CSRF token of a live session, empty if none.
  std::string csrf_token(const std::string& session_id);
  // For a state-changing request: its Origin is this console's, and (for a session) it carries
  // the session's CSRF token. A bearer caller is not a browser's ambient credential: its Origin,
  // if any, must still match.
  bool may_change_state(const http::HttpRequest& request, const Identified& caller);

  static constexpr std::size_t kMaxSessions = 64;
  static constexpr std::chrono::hours kSessionLifetime{12};

 private:
  struct Session {
    std::string csrf;
    std::chrono::steady_clock::time_point started;
  };

  const std::string access_token_;
  const bool loopback_;
  mutable std::mutex mutex_;
  std::vector<std::string> hosts_;           // guarded by mutex_
  std::map<std::string, Session> sessions_;  // by id; guarded by mutex_
};

}  // namespace codemode::console

#endif  // CODEMODE_CONSOLE_CONSOLE_ACCESS_H_
