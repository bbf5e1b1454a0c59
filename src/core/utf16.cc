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

}  // namespace

// is_valid_utf8 is defined once, in core/json_text.cc (the json branch brought the same function).

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
