// How JSON scalars are written as text, exactly as ECMAScript's JSON.stringify writes them, plus
// the UTF-8 and UTF-16 helpers the boundary and canonical JSON share. Internal to libcodemode.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_CORE_JSON_JSON_TEXT_H_
#define CODEMODE_CORE_JSON_JSON_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace codemode::internal {

// A number written as text. Large enough for any double or int64 in ECMAScript notation.
class NumberText {
 public:
  std::string_view view() const { return {data_, size_}; }

 private:
  friend NumberText format_number(double value);
  friend NumberText format_integer(std::int64_t value);
  friend NumberText format_unsigned(std::uint64_t value);
  void append(std::string_view part);
  char data_[40] = {};
  std::size_t size_ = 0;
};

// ECMAScript Number::toString (ES2023 6.1.6.1.20) applied to `value`: shortest round-trip digits,
// plain decimal for exponents in [-7, 21), otherwise "d.ddde+N"; -0 is "0".
// REQUIRES: std::isfinite(value).
NumberText format_number(double value);
NumberText format_integer(std::int64_t value);
NumberText format_unsigned(std::uint64_t value);

// True when JavaScript reads `value` as the same number: finite, and not an integer beyond
// 2^53 - 1 in magnitude (those would silently round in JavaScript).
bool is_plain_number(double value);

// True when `text` is well-formed UTF-8 (Unicode 15, table 3-7): no overlong forms, no encoded
// surrogates, nothing above U+10FFFF.
bool is_valid_utf8(std::string_view text);

// The longest prefix of `text` of at most `max_bytes` bytes that ends on a UTF-8 character
// boundary. REQUIRES: is_valid_utf8(text).
std::string cut_utf8(std::string text, std::size_t max_bytes);

// The length of `text` as JSON.stringify writes it, quotes included; nullopt when `text` is not
// valid UTF-8.
std::optional<std::size_t> quoted_length(std::string_view text);

// Appends `text` as JSON.stringify writes it: quotes; \" \\ \b \f \n \r \t; other controls below
// 0x20 as \u00xx (lowercase hex); everything else as raw UTF-8.
// REQUIRES: is_valid_utf8(text).
void append_quoted(std::string_view text, std::string& out);

// Orders valid UTF-8 strings by their UTF-16 code units, as RFC 8785 section 3.2.3 sorts keys.
// This differs from byte order when a character above U+FFFF meets one in U+E000..U+FFFF.
bool utf16_less(std::string_view a, std::string_view b);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_JSON_JSON_TEXT_H_
