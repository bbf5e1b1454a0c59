#include "http/http_request.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace codemode::http {
namespace {

// RFC 9110 token characters.
bool is_token_char(char c) {
  if (std::isalnum(static_cast<unsigned char>(c))) return true;
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_token(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), is_token_char);
}

// Visible ASCII, space, tab and bytes >= 0x80 (obs-text): never a control character.
bool is_field_value(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return byte == '\t' || byte >= 0x20 ? byte != 0x7F : false;
  });
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The lines of a head, split at CRLF. A bare LF or CR is refused: it is how requests are smuggled
// past proxies that split lines differently.
std::optional<std::vector<std::string_view>> head_lines(std::string_view head) {
  std::vector<std::string_view> lines;
  while (true) {
    const std::size_t end = head.find("\r\n");
    const std::string_view line = head.substr(0, end);
    if (line.find_first_of("\r\n") != std::string_view::npos) return std::nullopt;
    lines.push_back(line);
    if (end == std::string_view::npos) return lines;
    head.remove_prefix(end + 2);
  }
}

std::optional<HttpRefusal> parse_request_line(std::string_view line, HttpRequest& request) {
  const std::size_t first = line.find(' ');
  const std::size_t second = line.find(' ', first + 1);
  if (first == std::string_view::npos || second == std::string_view::npos) {
    return HttpRefusal{400, "malformed request line"};
  }
  const std::string_view method = line.substr(0, first);
  const std::string_view target = line.substr(first + 1, second - first - 1);
  const std::string_view version = line.substr(second + 1);
  if (!is_token(method) || !target.starts_with('/') || !is_field_value(target) ||
      target.find(' ') != std::string_view::npos) {
    return HttpRefusal{400, "malformed request line"};
  }
  if (version != "HTTP/1.1") return HttpRefusal{505, "only HTTP/1.1 is served"};
  request.method = std::string(method);
  request.target = std::string(target);
  return std::nullopt;
}

std::optional<HttpRefusal> parse_header(std::string_view line, HttpRequest& request) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) {
    return HttpRefusal{400, "malformed header"};  // also obsolete line folding (leading space)
  }
  const std::string_view value = trimmed(line.substr(colon + 1));
  if (!is_field_value(value)) return HttpRefusal{400, "malformed header"};
  request.headers.emplace_back(lower(line.substr(0, colon)), std::string(value));
  return std::nullopt;
}

std::optional<HttpRefusal> read_content_length(HttpRequest& request, std::size_t max_body_bytes) {
  if (request.header("transfer-encoding")) {
    return HttpRefusal{501, "Transfer-Encoding is not accepted; send Content-Length"};
  }
  const auto count =
      std::count_if(request.headers.begin(), request.headers.end(),
                    [](const auto& header) { return header.first == "content-length"; });
  if (count == 0) return std::nullopt;
  const std::string_view text = *request.header("content-length");
  std::size_t length = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), length);
  if (count > 1 || text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return HttpRefusal{400, "malformed Content-Length"};
  }
  if (length > max_body_bytes) return HttpRefusal{413, "request body too large"};
  request.content_length = length;
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> HttpRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

std::string_view HttpRequest::path() const {
  return std::string_view(target).substr(0, target.find('?'));
}

std::variant<HttpRequest, HttpRefusal> parse_http_head(std::string_view head,
                                                       std::size_t max_body_bytes) {
  const std::optional<std::vector<std::string_view>> lines = head_lines(head);
  if (!lines) return HttpRefusal{400, "bare CR or LF in the request head"};
  HttpRequest request;
  if (auto refused = parse_request_line(lines->front(), request)) return *refused;
  for (std::size_t i = 1; i < lines->size(); ++i) {
    if (auto refused = parse_header((*lines)[i], request)) return *refused;
  }
  if (auto refused = read_content_length(request, max_body_bytes)) return *refused;
  return request;
}

std::string_view http_reason_phrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 202:
      return "Accepted";
    case 204:
      return "No Content";
    case 303:
      return "See Other";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 409:
      return "Conflict";
    case 405:
      return "Method Not Allowed";
    case 406:
      return "Not Acceptable";
    case 408:
      return "Request Timeout";
    case 411:
      return "Length Required";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 501:
      return "Not Implemented";
    case 503:
      return "Service Unavailable";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

}  // namespace codemode::http
