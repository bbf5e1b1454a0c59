// Fuzzes the HTTP request head parser (src/http/http_request.h): the first code that reads
// bytes from anyone who can reach `codemode mcp --transport http`.
//
// Input: byte 0 picks the body cap; the rest is the head. Invariants:
//   - a refusal is one of the statuses the parser documents, with a fixed reason;
//   - an accepted request has a token method, an origin-form target without spaces or controls,
//     lower-case token header names, trimmed values without CR, LF or NUL, and a Content-Length
//     within the cap (only when exactly one such header, all digits, was sent);
//   - writing the accepted request back as a head and parsing it again gives the same request.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

#include "fuzz_check.h"
#include "http/http_request.h"

namespace codemode::fuzz {
namespace {

using http::HttpRefusal;
using http::HttpRequest;

bool is_lower_token(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

bool has_control(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && byte != '\t') || byte == 0x7F;
  });
}

std::string written_back(const HttpRequest& request) {
  std::string head = request.method + " " + request.target + " HTTP/1.1";
  for (const auto& [name, value] : request.headers) head += "\r\n" + name + ": " + value;
  return head;
}

void check_request(const HttpRequest& request, std::size_t max_body) {
  FUZZ_CHECK(!request.method.empty());
  FUZZ_CHECK(request.target.starts_with('/'));
  FUZZ_CHECK(request.target.find(' ') == std::string::npos && !has_control(request.target));
  for (const auto& [name, value] : request.headers) {
    FUZZ_CHECK(is_lower_token(name));
    FUZZ_CHECK(!has_control(value));
    FUZZ_CHECK(value.empty() || (value.front() != ' ' && value.back() != ' ' &&
                                 value.front() != '\t' && value.back() != '\t'));
  }
  FUZZ_CHECK(request.content_length <= max_body);
  FUZZ_CHECK(!request.header("transfer-encoding"));
  FUZZ_CHECK(request.body.empty());
}

void check_round_trip(const HttpRequest& request, std::size_t max_body) {
  const auto again = http::parse_http_head(written_back(request), max_body);
  const auto* same = std::get_if<HttpRequest>(&again);
  FUZZ_CHECK(same != nullptr);
  FUZZ_CHECK(same->method == request.method && same->target == request.target);
  FUZZ_CHECK(same->headers == request.headers);
  FUZZ_CHECK(same->content_length == request.content_length);
}

}  // namespace
}  // namespace codemode::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codemode::fuzz;
  if (size < 1) return 0;
  static constexpr std::array<std::size_t, 4> kCaps{0, 10, 4096, 4u << 20};
  const std::size_t max_body = kCaps[data[0] % kCaps.size()];
  const auto parsed = codemode::http::parse_http_head(as_text(data + 1, size - 1), max_body);
  if (const auto* refusal = std::get_if<HttpRefusal>(&parsed)) {
    FUZZ_CHECK(refusal->status == 400 || refusal->status == 413 || refusal->status == 501 ||
               refusal->status == 505);
    FUZZ_CHECK(!refusal->reason.empty());
    return 0;
  }
  const auto& request = std::get<HttpRequest>(parsed);
  check_request(request, max_body);
  check_round_trip(request, max_body);
  return 0;
}
