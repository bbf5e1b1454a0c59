// The HTTP request head parser: names lower-cased, values trimmed, path without query, and the
// refusals with the status each deserves.
#include "http/http_request.h"

#include <gtest/gtest.h>

namespace codemode::http {
namespace {

TEST(HttpRequestHead, ParsesRequestLineAndHeaders) {
  const auto parsed = parse_http_head(
      "POST /mcp?session=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nMcp-Session-Id:  abc \r\n"
      "Content-Length: 12",
      100);
  const auto* request = std::get_if<HttpRequest>(&parsed);
  ASSERT_NE(request, nullptr);
  EXPECT_EQ(request->method, "POST");
  EXPECT_EQ(request->target, "/mcp?session=1");
  EXPECT_EQ(request->path(), "/mcp");
  EXPECT_EQ(request->header("mcp-session-id"), "abc");
  EXPECT_EQ(request->header("host"), "127.0.0.1");
  EXPECT_FALSE(request->header("origin").has_value());
  EXPECT_EQ(request->content_length, 12u);
}

TEST(HttpRequestHead, RefusesWithTheStatusThatFits) {
  const auto status = [](std::string_view head) {
    const auto parsed = parse_http_head(head, 10);
    const auto* refusal = std::get_if<HttpRefusal>(&parsed);
    return refusal ? refusal->status : 0;
  };
  EXPECT_EQ(status("GET / HTTP/1.1"), 0);
  EXPECT_EQ(status("GET / HTTP/2"), 505);
  EXPECT_EQ(status("GET  / HTTP/1.1"), 400);
  EXPECT_EQ(status("G(T / HTTP/1.1"), 400);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nBad Name: x"), 400);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nX: a\x01"), 400);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nContent-Length: 11"), 413);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nContent-Length: 1x"), 400);
  EXPECT_EQ(status("GET / HTTP/1.1\r\nTransfer-Encoding: gzip"), 501);
  EXPECT_EQ(status("GET /\r HTTP/1.1"), 400);
}

}  // namespace
}  // namespace codemode::http
