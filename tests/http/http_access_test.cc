// The access rules both HTTP servers apply (the MCP transport and the approvals console): the
// token's form and the listen rule, the bearer header, what counts as a loopback address, the Host
// allow-list against DNS rebinding, and the Origin check.
#include "http/http_access.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace codemode::http {
namespace {

const std::string kToken = "0123456789abcdefABCDEF._~-0123456789";  // 36 characters

HttpRequest request_with(std::vector<std::pair<std::string, std::string>> headers) {
  HttpRequest request;
  request.method = "POST";
  request.target = "/";
  request.headers = std::move(headers);
  return request;
}

TEST(HttpAccessToken, IsThirtyTwoToTwoHundredFiftySixUrlSafeCharacters) {
  EXPECT_TRUE(is_valid_access_token(std::string(32, 'a')));
  EXPECT_TRUE(is_valid_access_token(std::string(256, 'Z')));
  EXPECT_TRUE(is_valid_access_token(kToken));
  EXPECT_FALSE(is_valid_access_token(""));
  EXPECT_FALSE(is_valid_access_token(std::string(31, 'a')));
  EXPECT_FALSE(is_valid_access_token(std::string(257, 'a')));
  // Visible ASCII that a URL would have to encode, or that ends a header value's token.
  for (const char c : std::string("+/=!\"#$%&'()*,:;<>?@[\\]^`{|} \t\x7f")) {
    std::string token(32, 'a');
    token[16] = c;
    EXPECT_FALSE(is_valid_access_token(token)) << "character " << static_cast<int>(c);
  }
  EXPECT_FALSE(is_valid_access_token(std::string(30, 'a') + "\xC3\xA9"));  // é: not ASCII
}

TEST(HttpAccessListen, ANonLoopbackAddressNeedsATokenAndATokenMustBeValid) {
  EXPECT_EQ(check_listen("127.0.0.1", std::nullopt), ListenCheck::kAllowed);
  EXPECT_EQ(check_listen("127.3.2.1", std::nullopt), ListenCheck::kAllowed);
  EXPECT_EQ(check_listen("0.0.0.0", std::nullopt), ListenCheck::kTokenRequired);
  EXPECT_EQ(check_listen("192.168.1.2", std::nullopt), ListenCheck::kTokenRequired);
  EXPECT_EQ(check_listen("127.evil.com", std::nullopt), ListenCheck::kTokenRequired);
  EXPECT_EQ(check_listen("0.0.0.0", kToken), ListenCheck::kAllowed);
  EXPECT_EQ(check_listen("127.0.0.1", kToken), ListenCheck::kAllowed);
  for (const char* token : {"", "s3cret-t0ken", "two words and more than thirty-two characters"}) {
    EXPECT_EQ(check_listen("127.0.0.1", std::string(token)), ListenCheck::kInvalidToken) << token;
    EXPECT_EQ(check_listen("0.0.0.0", std::string(token)), ListenCheck::kInvalidToken) << token;
  }
}

TEST(HttpAccessLoopback, ParsesTheAddressRatherThanMatchingItsText) {
  for (const char* address : {"127.0.0.1", "127.255.0.1", "127.0.0.0", "127.255.255.255", "::1",
                              "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1", "::ffff:127.9.8.7"}) {
    EXPECT_TRUE(is_loopback_address(address)) << address;
  }
  for (const char* address :
       {"128.0.0.1", "126.255.255.255", "0.0.0.0", "10.0.0.1", "::", "::2", "::ffff:128.0.0.1",
        "::127.0.0.1",  // IPv4-compatible, not mapped: another address
        "127.evil.com", "127.0.0.1.evil.com", "localhost", "127.1", "127.0.0.01", "127.0.0.256",
        "[::1]", " 127.0.0.1", "127.0.0.1 ", "", "127.0.0.1:80"}) {
    EXPECT_FALSE(is_loopback_address(address)) << address;
  }
  // A NUL in the text does not cut it short.
  EXPECT_FALSE(is_loopback_address(std::string_view("127.0.0.1\0.evil.com", 19)));
}

TEST(HttpAccessBearer, TakesTheCredentialOfExactlyBearerAndOneSpace) {
  EXPECT_EQ(bearer_credential("Bearer abc"), "abc");
  EXPECT_EQ(bearer_credential("Bearer "), "");
  EXPECT_EQ(bearer_credential("Bearer  abc"), " abc");  // then no valid token matches it
  EXPECT_FALSE(bearer_credential("bearer abc"));
  EXPECT_FALSE(bearer_credential("BEARER abc"));
  EXPECT_FALSE(bearer_credential("Basic YWJj"));
  EXPECT_FALSE(bearer_credential("Bearer"));
  EXPECT_FALSE(bearer_credential("Bearerabc"));
  EXPECT_FALSE(bearer_credential(""));
}

TEST(HttpAccessBearer, TheRequestMustCarryTheWholeToken) {
  const HttpAccess access("127.0.0.1", kToken, {});
  EXPECT_TRUE(access.has_token());
  EXPECT_TRUE(access.has_bearer_token(request_with({{"authorization", "Bearer " + kToken}})));
  EXPECT_FALSE(access.has_bearer_token(request_with({})));
  EXPECT_FALSE(access.has_bearer_token(request_with({{"authorization", "bearer " + kToken}})));
  EXPECT_FALSE(access.has_bearer_token(request_with({{"authorization", kToken}})));
  EXPECT_FALSE(access.has_bearer_token(
      request_with({{"authorization", "Bearer " + kToken.substr(0, kToken.size() - 1)}})));
  EXPECT_FALSE(
      access.has_bearer_token(request_with({{"authorization", "Bearer " + kToken + "x"}})));
  std::string wrong = kToken;
  wrong.back() = 'x';
  EXPECT_FALSE(access.has_bearer_token(request_with({{"authorization", "Bearer " + wrong}})));
  EXPECT_TRUE(access.is_token(kToken));
  EXPECT_FALSE(access.is_token(wrong));
  EXPECT_FALSE(access.is_token(""));
}

TEST(HttpAccessBearer, WithoutATokenNoBearerIsAccepted) {
  const HttpAccess access("127.0.0.1", std::nullopt, {});
  EXPECT_FALSE(access.has_token());
  EXPECT_FALSE(access.has_bearer_token(request_with({{"authorization", "Bearer "}})));
  EXPECT_FALSE(access.is_token(""));
}

TEST(HttpAccessHost, OnLoopbackOnlyTheNamesOfTheBoundPortAreServed) {
  EXPECT_TRUE(is_served_host("127.0.0.1:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(is_served_host("localhost:8080", "127.0.0.1", 8080));
  EXPECT_TRUE(is_served_host("127.0.0.2:8080", "127.0.0.2", 8080));
  EXPECT_TRUE(is_served_host("127.0.0.1:8080", "127.0.0.2", 8080));
  for (const char* host :
       {"127.0.0.1", "localhost", "127.0.0.1:8081", "localhost:80", "127.0.0.1:8080x",
        "attacker.example:8080", "127.evil.com:8080", "127.0.0.1.evil.com:8080",
        "localhost.evil.com:8080", "LOCALHOST:8080", "[::1]:8080", "127.0.0.3:8080", "", ":8080"}) {
    EXPECT_FALSE(is_served_host(host, "127.0.0.1", 8080)) << host;
  }
  // Port 80: clients leave the default port out.
  EXPECT_TRUE(is_served_host("localhost", "127.0.0.1", 80));
  EXPECT_TRUE(is_served_host("127.0.0.1", "127.0.0.1", 80));
  EXPECT_FALSE(is_served_host("localhost:80", "127.0.0.1", 80));
  // Not bound yet: nothing.
  EXPECT_FALSE(is_served_host("127.0.0.1:0", "127.0.0.1", 0));
  EXPECT_FALSE(is_served_host("127.0.0.1", "127.0.0.1", 0));
  // An IPv6 loopback address is named in brackets.
  EXPECT_TRUE(is_served_host("[::1]:8080", "::1", 8080));
  EXPECT_FALSE(is_served_host("::1:8080", "::1", 8080));
}

TEST(HttpAccessHost, OffLoopbackEveryHostIsServed) {
  for (const char* host : {"approvals.example", "10.0.0.1:8080", "anything", ""}) {
    EXPECT_TRUE(is_served_host(host, "0.0.0.0", 8080)) << host;
  }
  const HttpAccess access("0.0.0.0", kToken, {});
  EXPECT_FALSE(access.listens_on_loopback());
  EXPECT_TRUE(access.host_allowed(request_with({})));
  EXPECT_TRUE(access.host_allowed(request_with({{"host", "approvals.example"}})));
}

TEST(HttpAccessHost, ARequestMustNameAServedHostOnceThePortIsKnown) {
  HttpAccess access("127.0.0.1", std::nullopt, {});
  EXPECT_TRUE(access.listens_on_loopback());
  const HttpRequest local = request_with({{"host", "localhost:4321"}});
  EXPECT_FALSE(access.host_allowed(local)) << "no port yet";
  access.set_port(4321);
  EXPECT_TRUE(access.host_allowed(local));
  EXPECT_TRUE(access.host_allowed(request_with({{"host", "127.0.0.1:4321"}})));
  EXPECT_FALSE(access.host_allowed(request_with({})));
  EXPECT_FALSE(access.host_allowed(request_with({{"host", "rebound.example:4321"}})));
  EXPECT_FALSE(access.host_allowed(request_with({{"host", "127.evil.com:4321"}})));
}

TEST(HttpAccessOrigin, NoneTheServersOwnOrAConfiguredOne) {
  HttpAccess access("127.0.0.1", std::nullopt, {"https://approvals.example"});
  access.set_port(4321);
  const auto allowed = [&](std::string host, std::string origin) {
    std::vector<std::pair<std::string, std::string>> headers;
    if (!host.empty()) headers.emplace_back("host", std::move(host));
    if (!origin.empty()) headers.emplace_back("origin", std::move(origin));
    return access.origin_allowed(request_with(std::move(headers)));
  };
  EXPECT_TRUE(allowed("127.0.0.1:4321", ""));  // not a browser's cross-site request
  EXPECT_TRUE(allowed("127.0.0.1:4321", "http://127.0.0.1:4321"));
  EXPECT_TRUE(allowed("localhost:4321", "http://localhost:4321"));
  EXPECT_TRUE(allowed("127.0.0.1:4321", "https://approvals.example"));
  // Another origin, even another port or scheme of the same host, or the Host's name under
  // another of the served names.
  EXPECT_FALSE(allowed("127.0.0.1:4321", "http://localhost:4321"));
  EXPECT_FALSE(allowed("127.0.0.1:4321", "http://127.0.0.1:6274"));
  EXPECT_FALSE(allowed("127.0.0.1:4321", "http://localhost"));
  EXPECT_FALSE(allowed("127.0.0.1:4321", "https://127.0.0.1:4321"));
  EXPECT_FALSE(allowed("127.0.0.1:4321", "http://[::1]:4321"));
  EXPECT_FALSE(allowed("127.0.0.1:4321", "https://evil.example"));
  EXPECT_FALSE(allowed("127.0.0.1:4321", "null"));
  EXPECT_FALSE(allowed("127.0.0.1:4321", "https://approvals.example.evil"));
  EXPECT_FALSE(allowed("127.0.0.1:4321", "http://127.0.0.1:4321/"));
  // Own origin only under a Host the server serves (a rebound name is not its own), and never
  // without a Host.
  EXPECT_FALSE(allowed("rebound.example:4321", "http://rebound.example:4321"));
  EXPECT_FALSE(allowed("", "http://127.0.0.1:4321"));
  EXPECT_TRUE(allowed("", "https://approvals.example"));
}

TEST(HttpAccessOrigin, OffLoopbackTheOwnOriginIsThatOfTheHostAsked) {
  const HttpAccess access("0.0.0.0", kToken, {});
  EXPECT_TRUE(access.origin_allowed(request_with(
      {{"host", "approvals.example:8809"}, {"origin", "http://approvals.example:8809"}})));
  EXPECT_FALSE(access.origin_allowed(
      request_with({{"host", "approvals.example:8809"}, {"origin", "http://other.example:8809"}})));
}

}  // namespace
}  // namespace codemode::http
