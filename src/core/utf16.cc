#include "core/utf16.h"

#include <cstdint>

namespace codemode::internal {
namespace {

// Length of the UTF-8 sequence that starts with `lead`, or 0 if `lead` cannot start one.
std::size_t sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

// Decodes the sequence at text[i] of length n; returns the code point or -1 when malformed.
std::int32_t decode(std::string_view text, std::size_t i, std::size_t n) {
  if (i + n > text.size()) return -1;
  std::int32_t code = static_cast<unsigned char>(text[i]) & (0xFF >> (n + 1));
  for (std::size_t k = 1; k < n; ++k) {
    const auto byte = static_cast<unsigned char>(text[i + k]);
    if ((byte & 0xC0) != 0x80) return -1;
    code = (code << 6) | (byte & 0x3F);
  }
  static constexpr std::int32_t kMinimum[] = {0, 0, 0x80, 0x800, 0x10000};
  if (n > 1 && code < kMinimum[n]) return -1;          // overlong
  if (code >= 0xD800 && code <= 0xDFFF) return -1;     // surrogate
  if (code > 0x10FFFF) return -1;
  return code;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequence_length(static_cast<unsigned char>(text[i]));
    if (n == 0 || decode(text, i, n) < 0) return false;
    i += n;
  }
  return true;
}

std::size_t utf16_length(std::string_view text) {
  std::size_t units = 0;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = sequence_length(static_cast<unsigned char>(text[i]));
    units += n == 4 ? 2 : 1;
    i += n == 0 ? 1 : n;
  }
  return units;
}

std::string truncate_utf16(std::string_view text, std::size_t max_units) {
  std::size_t units = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t n = sequence_length(static_cast<unsigned char>(text[i]));
    if (n == 0) n = 1;
    const std::size_t width = n == 4 ? 2 : 1;
    if (units + width > max_units) break;
    units += width;
    i += n;
  }
  return std::string(text.substr(0, i));
}

}  // namespace codemode::internal
