#include "console/console_access.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "codemode/json.h"

#include "core/crypto/random_hex.h"

namespace codemode::console {
namespace {

// The value of query parameter `name` in the request target (no percent-decoding: the token is
// made of characters a URL carries as they are).
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

ConsoleAccess::ConsoleAccess(std::string access_token, std::string listen_address,
                             std::string public_origin)
    : http_(std::move(listen_address), std::move(access_token),
            public_origin.empty() ? std::vector<std::string>()
                                  : std::vector<std::string>{std::move(public_origin)}) {}

ConsoleAccess::Caller ConsoleAccess::identify(const http::HttpRequest& request) {
  // A request that sends a token is judged by it alone, never by a session beside it.
  if (request.header("authorization")) {
    return http_.has_bearer_token(request) ? Caller::kBearer : Caller::kNobody;
  }
  const std::optional<std::string_view> id = request.header(kSessionHeader);
  if (!id) return Caller::kNobody;
  const std::string key = sha256_hex(*id);
  const std::lock_guard lock(mutex_);
  const auto session = sessions_.find(key);
  if (session == sessions_.end()) return Caller::kNobody;
  if (std::chrono::steady_clock::now() - session->second > kSessionLifetime) {
    sessions_.erase(session);
    return Caller::kNobody;
  }
  return Caller::kSession;
}

bool ConsoleAccess::login_token_valid(const http::HttpRequest& request) const {
  const std::optional<std::string_view> token = query_parameter(request, "token");
  return token && http_.is_token(*token);
}

std::string ConsoleAccess::start_session() {
  std::string id = internal::random_hex(32);
  if (id.empty()) return {};
  const std::lock_guard lock(mutex_);
  if (sessions_.size() >= kMaxSessions) {
    sessions_.erase(
        std::min_element(sessions_.begin(), sessions_.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; }));
  }
  sessions_.emplace(sha256_hex(id), std::chrono::steady_clock::now());
  return id;
}

}  // namespace codemode::console
