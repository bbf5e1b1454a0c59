#include "core/json/json_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "codemode/json.h"

namespace codemode::internal {
namespace {

// The shortest decimal digits that read back as the double, and where the decimal point goes:
// value = 0.d1 d2 ... dk x 10^n (ECMAScript's k and n).
struct Decimal {
  char digits[24] = {};
  int k = 0;
  int n = 0;
};

// std::to_chars without a precision gives the shortest round-trip digits (and the closest to
// the value among those), which is what Number::toString requires of s, k and n.
Decimal shortest_decimal(double positive) {
  char sci[40];
  auto [end, ec] = std::to_chars(sci, sci + sizeof(sci), positive, std::chars_format::scientific);
  const std::string_view text(sci, static_cast<std::size_t>(end - sci));
  const std::size_t e = text.find('e');
  Decimal d;
  for (char c : text.substr(0, e)) {
    if (c != '.') d.digits[d.k++] = c;
  }
  int exponent = 0;
  std::string_view exp_text = text.substr(e + 1);
  const bool negative = exp_text.front() == '-';
  exp_text.remove_prefix(1);  // to_chars always writes the sign of the exponent
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
  d.n = (negative ? -exponent : exponent) + 1;
  return d;
}

// Length of the well-formed UTF-8 sequence starting at text[i], or 0 when it is ill-formed.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t at) -> unsigned {
    return at < text.size() ? static_cast<unsigned char>(text[at]) : 0x100;
  };
  const unsigned lead = byte(i);
  const auto cont = [&](std::size_t at, unsigned lo = 0x80, unsigned hi = 0xBF) {
    return byte(at) >= lo && byte(at) <= hi;
  };
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (lead == 0xE0) return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0;
  if (lead == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;  // no surrogates
  if (lead >= 0xE1 && lead <= 0xEF) return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (lead == 0xF0) return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (lead >= 0xF1 && lead <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (lead == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

// REQUIRES: a well-formed sequence starts at text[i]. Advances i past it.
char32_t decode(std::string_view text, std::size_t& i) {
  const std::size_t length = sequence_length(text, i);
  static constexpr unsigned kLeadMask[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t cp = static_cast<unsigned char>(text[i]) & kLeadMask[length];
  for (std::size_t j = 1; j < length; ++j) cp = (cp << 6) | (text[i + j] & 0x3F);
  i += length;
  return cp;
}

unsigned first_utf16_unit(char32_t cp) {
  return cp < 0x10000 ? cp : 0xD800 + ((cp - 0x10000) >> 10);
}

// The escape JSON.stringify writes for an ASCII byte, or empty when the byte is written as is.
std::string_view short_escape(unsigned char c) {
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    default:
      return {};
  }
}

}  // namespace

void NumberText::append(std::string_view part) {
  const std::size_t n = std::min(part.size(), sizeof(data_) - size_);
  std::copy_n(part.data(), n, data_ + size_);
  size_ += n;
}

NumberText format_number(double value) {
  NumberText text;
  if (value == 0) {  // both zeros
    text.append("0");
    return text;
  }
  if (value < 0) text.append("-");
  const Decimal d = shortest_decimal(std::fabs(value));
  const std::string_view digits(d.digits, static_cast<std::size_t>(d.k));
  static constexpr std::string_view kZeros = "000000000000000000000";
  if (d.k <= d.n && d.n <= 21) {
    text.append(digits);
    text.append(kZeros.substr(0, static_cast<std::size_t>(d.n - d.k)));
  } else if (0 < d.n && d.n <= 21) {
    text.append(digits.substr(0, static_cast<std::size_t>(d.n)));
    text.append(".");
    text.append(digits.substr(static_cast<std::size_t>(d.n)));
  } else if (-6 < d.n && d.n <= 0) {
    text.append("0.");
    text.append(kZeros.substr(0, static_cast<std::size_t>(-d.n)));
    text.append(digits);
  } else {
    text.append(digits.substr(0, 1));
    if (d.k > 1) text.append(".");
    text.append(digits.substr(1));
    text.append(d.n - 1 >= 0 ? "e+" : "e-");
    char exp[8];
    auto [end, ec] = std::to_chars(exp, exp + sizeof(exp), std::abs(d.n - 1));
    text.append(std::string_view(exp, static_cast<std::size_t>(end - exp)));
  }
  return text;
}

NumberText format_integer(std::int64_t value) {
  NumberText text;
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  text.append(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
  return text;
}

NumberText format_unsigned(std::uint64_t value) {
  NumberText text;
  char buffer[24];
  auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value);
  text.append(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
  return text;
}

bool is_plain_number(double value) {
  if (!std::isfinite(value)) return false;
  return std::fabs(value) <= static_cast<double>(kMaxSafeInteger) || std::trunc(value) != value;
}

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = sequence_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string cut_utf8(std::string text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text;
}

std::optional<std::size_t> quoted_length(std::string_view text) {
  std::size_t total = 2;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const std::size_t length = sequence_length(text, i);
      if (length == 0) return std::nullopt;
      total += length;
      i += length;
      continue;
    }
    const std::size_t escape = short_escape(c).size();
    total += escape != 0 ? escape : (c < 0x20 ? 6 : 1);
    ++i;
  }
  return total;
}

void append_quoted(std::string_view text, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (const std::string_view escape = short_escape(c); !escape.empty()) {
      out += escape;
    } else if (c < 0x20) {
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else {
      out += ch;
    }
  }
  out += '"';
}

bool utf16_less(std::string_view a, std::string_view b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const char32_t x = decode(a, i);
    const char32_t y = decode(b, j);
    if (x == y) continue;
    const unsigned ux = first_utf16_unit(x);
    const unsigned uy = first_utf16_unit(y);
    // Equal first units means the same high surrogate; low surrogates then order as code points.
    return ux != uy ? ux < uy : x < y;
  }
  return i == a.size() && j < b.size();
}

}  // namespace codemode::internal
