#include "console/console_access.h"

#include <algorithm>
#include <utility>

#include "codemode/json.h"

#include "core/crypto/random_hex.h"
#include "core/crypto/same_secret.h"

namespace codemode::console {
namespace {

constexpr std::size_t kMinTokenChars = 32;
constexpr std::size_t kMaxTokenChars = 256;

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

bool is_valid_access_token(std::string_view token) {
  return token.size() >= kMinTokenChars && token.size() <= kMaxTokenChars &&
         std::all_of(token.begin(), token.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '~' || c == '-';
         });
}

ConsoleAccess::ConsoleAccess(std::string access_token, std::string loopback_address,
                             std::string public_origin)
    : access_token_(std::move(access_token)),
      loopback_address_(std::move(loopback_address)),
      public_origin_(std::move(public_origin)) {}

void ConsoleAccess::set_port(std::uint16_t port) {
  const std::string suffix = port == 80 ? "" : ":" + std::to_string(port);
  const std::lock_guard lock(mutex_);
  hosts_ = {"127.0.0.1" + suffix, "localhost" + suffix, loopback_address_ + suffix};
}

bool ConsoleAccess::host_allowed(const http::HttpRequest& request) const {
  if (loopback_address_.empty()) return true;
  const std::optional<std::string_view> host = request.header("host");
  const std::lock_guard lock(mutex_);
  return host && std::find(hosts_.begin(), hosts_.end(), *host) != hosts_.end();
}

ConsoleAccess::Caller ConsoleAccess::identify(const http::HttpRequest& request) {
  if (const std::optional<std::string_view> authorization = request.header("authorization")) {
    constexpr std::string_view kBearer = "Bearer ";
    return authorization->starts_with(kBearer) &&
                   internal::same_secret(authorization->substr(kBearer.size()), access_token_)
               ? Caller::kBearer
               : Caller::kNobody;
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
  return token && internal::same_secret(*token, access_token_);
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

bool ConsoleAccess::same_origin(const http::HttpRequest& request) const {
  const std::optional<std::string_view> origin = request.header("origin");
  if (!origin) return true;  // not a browser's cross-site request: browsers send Origin on POST
  const std::optional<std::string_view> host = request.header("host");
  if (host && *origin == "http://" + std::string(*host)) return true;
  return !public_origin_.empty() && *origin == public_origin_;
}

}  // namespace codemode::console
