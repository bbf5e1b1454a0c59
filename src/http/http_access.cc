#include "http/http_access.h"

#include <algorithm>
#include <utility>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "core/crypto/same_secret.h"

namespace codemode::http {

bool is_valid_access_token(std::string_view token) {
  return token.size() >= kMinAccessTokenChars && token.size() <= kMaxAccessTokenChars &&
         std::all_of(token.begin(), token.end(), [](char c) {
           return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == '~' || c == '-';
         });
}

bool is_loopback_address(std::string_view address) {
  // inet_pton reads up to a NUL: a text holding one is not an address.
  if (address.find('\0') != std::string_view::npos) return false;
  const std::string text(address);
  in_addr ipv4{};
  if (::inet_pton(AF_INET, text.c_str(), &ipv4) == 1) return (ntohl(ipv4.s_addr) >> 24) == 127;
  in6_addr ipv6{};
  if (::inet_pton(AF_INET6, text.c_str(), &ipv6) != 1) return false;
  return IN6_IS_ADDR_LOOPBACK(&ipv6) || (IN6_IS_ADDR_V4MAPPED(&ipv6) && ipv6.s6_addr[12] == 127);
}

std::optional<std::string_view> bearer_credential(std::string_view authorization) {
  constexpr std::string_view kBearer = "Bearer ";
  if (!authorization.starts_with(kBearer)) return std::nullopt;
  return authorization.substr(kBearer.size());
}

bool is_served_host(std::string_view host, std::string_view listen_address, std::uint16_t port) {
  if (!is_loopback_address(listen_address)) return true;
  if (port == 0) return false;  // not bound yet
  const std::string suffix = port == 80 ? "" : ":" + std::to_string(port);
  const bool ipv6 = listen_address.find(':') != std::string_view::npos;
  const std::string own =
      ipv6 ? "[" + std::string(listen_address) + "]" : std::string(listen_address);
  return host == "127.0.0.1" + suffix || host == "localhost" + suffix || host == own + suffix;
}

ListenCheck check_listen(std::string_view listen_address, const std::optional<std::string>& token) {
  if (!token) {
    return is_loopback_address(listen_address) ? ListenCheck::kAllowed
                                               : ListenCheck::kTokenRequired;
  }
  return is_valid_access_token(*token) ? ListenCheck::kAllowed : ListenCheck::kInvalidToken;
}

HttpAccess::HttpAccess(std::string listen_address, std::optional<std::string> token,
                       std::vector<std::string> origins)
    : listen_address_(std::move(listen_address)),
      loopback_(is_loopback_address(listen_address_)),
      token_(std::move(token)),
      origins_(std::move(origins)) {}

void HttpAccess::set_port(std::uint16_t port) { port_.store(port); }

bool HttpAccess::host_allowed(const HttpRequest& request) const {
  if (!loopback_) return true;
  const std::optional<std::string_view> host = request.header("host");
  return host && is_served_host(*host, listen_address_, port_.load());
}

bool HttpAccess::origin_allowed(const HttpRequest& request) const {
  const std::optional<std::string_view> origin = request.header("origin");
  if (!origin) return true;
  const std::optional<std::string_view> host = request.header("host");
  if (host && host_allowed(request) && *origin == "http://" + std::string(*host)) return true;
  return std::find(origins_.begin(), origins_.end(), *origin) != origins_.end();
}

bool HttpAccess::is_token(std::string_view given) const {
  return token_ && internal::same_secret(given, *token_);
}

bool HttpAccess::has_bearer_token(const HttpRequest& request) const {
  const std::optional<std::string_view> authorization = request.header("authorization");
  if (!authorization) return false;
  const std::optional<std::string_view> credential = bearer_credential(*authorization);
  return credential && is_token(*credential);
}

}  // namespace codemode::http
