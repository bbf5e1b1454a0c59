#include "console/console_access.h"

#include <algorithm>
#include <utility>

#include "core/random_hex.h"
#include "core/same_secret.h"

namespace codemode::console {
namespace {

constexpr std::size_t kMinTokenChars = 32;
constexpr std::size_t kMaxTokenChars = 256;

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  return text;
}

// The value of cookie `name` in a Cookie header, if present.
std::optional<std::string_view> cookie(const http::HttpRequest& request, std::string_view name) {
  const std::optional<std::string_view> header = request.header("cookie");
  if (!header) return std::nullopt;
  std::string_view rest = *header;
  while (!rest.empty()) {
    const std::size_t end = rest.find(';');
    const std::string_view pair = trimmed(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    const std::size_t equals = pair.find('=');
    if (equals != std::string_view::npos && pair.substr(0, equals) == name) {
      return pair.substr(equals + 1);
    }
  }
  return std::nullopt;
}

// The value of query parameter `name` in the request target (no percent-decoding: the values the
// console reads are hex or visible ASCII).
std::optional<std::string_view> query_parameter(const http::HttpRequest& request,
                                                std::string_view name) {
  const std::string_view target = request.target;
  const std::size_t question = target.find('?');
  if (question == std::string_view::npos) return std::nullopt;
  std::string_view rest = target.substr(question + 1);
  while (!rest.empty()) {
    const std::size_t end = rest.find('&');
    const std::string_view pair = rest.substr(0, end);
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    const std::size_t equals = pair.find('=');
    if (equals != std::string_view::npos && pair.substr(0, equals) == name) {
      return pair.substr(equals + 1);
    }
  }
  return std::nullopt;
}

}  // namespace

bool is_valid_access_token(std::string_view token) {
  return token.size() >= kMinTokenChars && token.size() <= kMaxTokenChars &&
         std::all_of(token.begin(), token.end(), [](char c) { return c >= '!' && c <= '~'; });
}

ConsoleAccess::ConsoleAccess(std::string access_token, bool loopback)
    : access_token_(std::move(access_token)), loopback_(loopback) {}

void ConsoleAccess::set_port(std::uint16_t port) {
  const std::lock_guard lock(mutex_);
  hosts_ = {"127.0.0.1:" + std::to_string(port), "localhost:" + std::to_string(port)};
}

bool ConsoleAccess::host_allowed(const http::HttpRequest& request) const {
  if (!loopback_) return true;
  const std::optional<std::string_view> host = request.header("host");
  const std::lock_guard lock(mutex_);
  return host && std::find(hosts_.begin(), hosts_.end(), *host) != hosts_.end();
}

ConsoleAccess::Identified ConsoleAccess::identify(const http::HttpRequest& request) {
  if (const std::optional<std::string_view> authorization = request.header("authorization")) {
    constexpr std::string_view kBearer = "Bearer ";
    if (authorization->starts_with(kBearer) &&
        internal::same_secret(authorization->substr(kBearer.size()), access_token_)) {
      return {.caller = Caller::kBearer};
    }
    return {};
  }
  const std::optional<std::string_view> id = cookie(request, kSessionCookie);
  if (!id) return {};
  const std::lock_guard lock(mutex_);
  const auto session = sessions_.find(std::string(*id));
  if (session == sessions_.end()) return {};
  if (std::chrono::steady_clock::now() - session->second.started > kSessionLifetime) {
    sessions_.erase(session);
    return {};
  }
  return {.caller = Caller::kSession, .session_id = session->first};
}

bool ConsoleAccess::login_token_valid(const http::HttpRequest& request) const {
  const std::optional<std::string_view> token = query_parameter(request, "token");
  return token && internal::same_secret(*token, access_token_);
}

std::optional<std::pair<std::string, std::string>> ConsoleAccess::start_session() {
  std::string id = internal::random_hex(32);
  std::string csrf = internal::random_hex(32);
  if (id.empty() || csrf.empty()) return std::nullopt;
  const std::lock_guard lock(mutex_);
  if (sessions_.size() >= kMaxSessions) {
    const auto oldest = std::min_element(
        sessions_.begin(), sessions_.end(),
        [](const auto& a, const auto& b) { return a.second.started < b.second.started; });
    sessions_.erase(oldest);
  }
  sessions_.emplace(id, Session{.csrf = csrf, .started = std::chrono::steady_clock::now()});
  return std::pair{std::move(id), std::move(csrf)};
}

std::string ConsoleAccess::csrf_token(const std::string& session_id) {
  const std::lock_guard lock(mutex_);
  const auto session = sessions_.find(session_id);
  return session == sessions_.end() ? std::string() : session->second.csrf;
}

bool ConsoleAccess::may_change_state(const http::HttpRequest& request, const Identified& caller) {
  const std::optional<std::string_view> host = request.header("host");
  const std::optional<std::string_view> origin = request.header("origin");
  const bool same_origin = origin && host && *origin == "http://" + std::string(*host);
  if (caller.caller == Caller::kBearer) return !origin || same_origin;
  if (caller.caller != Caller::kSession || !same_origin) return false;
  const std::optional<std::string_view> sent = request.header(kCsrfHeader);
  const std::string expected = csrf_token(caller.session_id);
  return sent && !expected.empty() && internal::same_secret(*sent, expected);
}

}  // namespace codemode::console
