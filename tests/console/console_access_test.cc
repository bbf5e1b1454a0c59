// The approvals console's access (console_access.h) without a browser: who a request is (the
// bearer token, a session, nobody), the login link's token, the sessions' cap, and the Host and
// Origin rules it takes from http/http_access.h.
#include "console/console_access.h"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace codemode::console {
namespace {

using http::HttpRequest;

const std::string kToken(40, 'k');

HttpRequest request_with(std::string target,
                         std::vector<std::pair<std::string, std::string>> headers) {
  HttpRequest request;
  request.method = "GET";
  request.target = std::move(target);
  request.headers = std::move(headers);
  return request;
}

TEST(ConsoleAccess, TheBearerTokenOrALiveSessionIdentifiesACaller) {
  ConsoleAccess access(kToken, "127.0.0.1", "");
  const std::string session = access.start_session();
  ASSERT_EQ(session.size(), 64u);
  EXPECT_EQ(access.identify(request_with("/api/runs", {{"authorization", "Bearer " + kToken}})),
            ConsoleAccess::Caller::kBearer);
  EXPECT_EQ(access.identify(request_with("/api/runs", {{kSessionHeader, session}})),
            ConsoleAccess::Caller::kSession);
  EXPECT_EQ(access.identify(request_with("/api/runs", {})), ConsoleAccess::Caller::kNobody);
  EXPECT_EQ(access.identify(request_with("/api/runs", {{kSessionHeader, std::string(64, '0')}})),
            ConsoleAccess::Caller::kNobody);
  EXPECT_EQ(access.identify(request_with("/api/runs", {{kSessionHeader, ""}})),
            ConsoleAccess::Caller::kNobody);
  for (const std::string& authorization :
       {"bearer " + kToken, "Bearer " + kToken.substr(1), "Bearer " + kToken + "k", kToken,
        std::string("Basic a2s=")}) {
    EXPECT_EQ(access.identify(request_with("/api/runs", {{"authorization", authorization}})),
              ConsoleAccess::Caller::kNobody)
        << authorization;
  }
  // A wrong token is not made good by a live session beside it.
  EXPECT_EQ(access.identify(request_with(
                "/api/runs", {{"authorization", "Bearer wrong"}, {kSessionHeader, session}})),
            ConsoleAccess::Caller::kNobody);
}

TEST(ConsoleAccess, TheLoginLinkMustCarryTheWholeToken) {
  const ConsoleAccess access(kToken, "127.0.0.1", "");
  EXPECT_TRUE(access.login_token_valid(request_with("/login?token=" + kToken, {})));
  EXPECT_TRUE(access.login_token_valid(request_with("/login?x=1&token=" + kToken + "&y=2", {})));
  EXPECT_FALSE(access.login_token_valid(request_with("/login", {})));
  EXPECT_FALSE(access.login_token_valid(request_with("/login?token=", {})));
  EXPECT_FALSE(access.login_token_valid(request_with("/login?token=" + kToken + "k", {})));
  EXPECT_FALSE(access.login_token_valid(request_with("/login?token=" + kToken.substr(1), {})));
  EXPECT_FALSE(access.login_token_valid(request_with("/login?mytoken=" + kToken, {})));
}

TEST(ConsoleAccess, PastTheCapTheOldestSessionIsDropped) {
  ConsoleAccess access(kToken, "127.0.0.1", "");
  const std::string first = access.start_session();
  for (std::size_t i = 1; i < ConsoleAccess::kMaxSessions; ++i) access.start_session();
  EXPECT_EQ(access.identify(request_with("/api/runs", {{kSessionHeader, first}})),
            ConsoleAccess::Caller::kSession);
  const std::string last = access.start_session();
  EXPECT_EQ(access.identify(request_with("/api/runs", {{kSessionHeader, first}})),
            ConsoleAccess::Caller::kNobody);
  EXPECT_EQ(access.identify(request_with("/api/runs", {{kSessionHeader, last}})),
            ConsoleAccess::Caller::kSession);
}

TEST(ConsoleAccess, OnLoopbackItAnswersOnlyToItsOwnHostAndOrigin) {
  ConsoleAccess access(kToken, "127.0.0.2", "https://approvals.example");
  const HttpRequest own = request_with("/api/runs", {{"host", "127.0.0.2:8809"}});
  EXPECT_FALSE(access.host_allowed(own)) << "before the port is known";
  access.set_port(8809);
  for (const char* host : {"127.0.0.1:8809", "localhost:8809", "127.0.0.2:8809"}) {
    EXPECT_TRUE(access.host_allowed(request_with("/", {{"host", host}}))) << host;
  }
  for (const char* host : {"attacker.example:8809", "127.evil.com:8809", "127.0.0.2", ""}) {
    EXPECT_FALSE(access.host_allowed(request_with("/", {{"host", host}}))) << host;
  }
  const auto origin_allowed = [&](const char* origin) {
    return access.origin_allowed(
        request_with("/api/runs", {{"host", "localhost:8809"}, {"origin", origin}}));
  };
  EXPECT_TRUE(access.origin_allowed(own));
  EXPECT_TRUE(origin_allowed("http://localhost:8809"));
  EXPECT_TRUE(origin_allowed("https://approvals.example"));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:8809"));
  EXPECT_FALSE(origin_allowed("http://localhost:8810"));
  EXPECT_FALSE(origin_allowed("http://evil.example"));
}

TEST(ConsoleAccess, OffLoopbackItAnswersToAnyHost) {
  ConsoleAccess access(kToken, "0.0.0.0", "");
  access.set_port(8809);
  EXPECT_TRUE(access.host_allowed(request_with("/", {{"host", "approvals.internal:8809"}})));
  EXPECT_TRUE(access.host_allowed(request_with("/", {})));
}

}  // namespace
}  // namespace codemode::console
