#include "core/text/identifiers.h"

#include <algorithm>
#include <cctype>

namespace codemode::internal {
namespace {

bool is_ascii_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }
bool is_identifier_tail(char c) {
  return is_ascii_letter(c) || is_ascii_digit(c) || c == '.' || c == '_' || c == '/' || c == '-';
}

}  // namespace

bool is_identifier(std::string_view text) {
  if (text.empty() || text.size() > 128 || !is_ascii_letter(text.front())) return false;
  return std::all_of(text.begin() + 1, text.end(), is_identifier_tail);
}

bool is_plain_name(std::string_view text, std::size_t max_chars, std::string_view punctuation) {
  const auto alphanumeric = [](char c) { return is_ascii_letter(c) || is_ascii_digit(c); };
  if (text.empty() || text.size() > max_chars || !alphanumeric(text.front())) return false;
  return std::all_of(text.begin() + 1, text.end(), [&](char c) {
    return alphanumeric(c) || punctuation.find(c) != std::string_view::npos;
  });
}

bool is_rule_name(std::string_view text) {
  if (text.empty() || text.size() > 64 || text.front() < 'a' || text.front() > 'z') return false;
  return std::all_of(text.begin() + 1, text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || is_ascii_digit(c) || c == '_';
  });
}

std::string default_rule(ErrorCode code) {
  std::string rule(to_string(code));
  for (char& c : rule) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return rule;
}

}  // namespace codemode::internal
