#include "workflow/definition/reviewable_text.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace codemode::internal {
namespace {

struct Range {
  char32_t first;
  char32_t last;
};

// Controls (category Cc) but TAB, LF and CR; the line and paragraph separators (Zl, Zp); format
// characters (Cf); and Default_Ignorable_Code_Point, which adds the invisible letters and marks
// (Hangul fillers, variation selectors, the combining grapheme joiner). Unicode 14, as the
// engine. In code point order, for the binary search.
constexpr std::array<Range, 29> kHidden{{
    {0x0000, 0x0008},   {0x000B, 0x000C},   {0x000E, 0x001F},   {0x007F, 0x009F},
    {0x00AD, 0x00AD},   {0x034F, 0x034F},   {0x0600, 0x0605},   {0x061C, 0x061C},
    {0x06DD, 0x06DD},   {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},
    {0x115F, 0x1160},   {0x17B4, 0x17B5},   {0x180B, 0x180F},   {0x200B, 0x200F},
    {0x2028, 0x202E},   {0x2060, 0x206F},   {0x3164, 0x3164},   {0xFE00, 0xFE0F},
    {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},   {0xFFF0, 0xFFFB},   {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x13438}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
    {0xE0000, 0xE0FFF},
}};

bool is_hidden(char32_t code_point) {
  const auto* after =
      std::upper_bound(kHidden.begin(), kHidden.end(), code_point,
                       [](char32_t value, const Range& range) { return value < range.first; });
  return after != kHidden.begin() && code_point <= (after - 1)->last;
}

// Decodes the character at `text[at]` and moves `at` past it. REQUIRES: valid UTF-8.
char32_t next_code_point(std::string_view text, std::size_t& at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  char32_t code_point = length == 1   ? lead
                        : length == 2 ? lead & 0x1Fu
                        : length == 3 ? lead & 0x0Fu
                                      : lead & 0x07u;
  for (std::size_t i = 1; i < length; ++i) {
    code_point = (code_point << 6) | (static_cast<unsigned char>(text[at + i]) & 0x3Fu);
  }
  at += length;
  return code_point;
}

std::string code_point_name(char32_t code_point) {
  std::array<char, 16> text{};
  std::snprintf(text.data(), text.size(), "U+%04X", static_cast<unsigned>(code_point));
  return text.data();
}

}  // namespace

std::optional<HiddenCharacter> find_hidden_character(std::string_view utf8) {
  std::size_t line = 1;
  std::size_t column = 1;
  std::size_t at = 0;
  while (at < utf8.size()) {
    const char32_t code_point = next_code_point(utf8, at);
    const bool crlf = code_point == U'\r' && at < utf8.size() && utf8[at] == '\n';
    if ((code_point == U'\r' && !crlf) || is_hidden(code_point)) {
      return HiddenCharacter{.code_point = code_point, .line = line, .column = column};
    }
    if (code_point == U'\n' || crlf) {
      at += crlf ? 1 : 0;
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::nullopt;
}

Status check_phase_source(std::string_view phase_id, std::string_view source) {
  const std::optional<HiddenCharacter> hidden = find_hidden_character(source);
  if (!hidden) return Status();
  const std::string what = hidden->code_point == U'\r'
                               ? "a carriage return not followed by a line feed (U+000D)"
                               : code_point_name(hidden->code_point);
  return Error::invalid_config(
      "phase_source_characters",
      "Phase \"" + std::string(phase_id) + "\": its source holds " + what + " at line " +
          std::to_string(hidden->line) + ", column " + std::to_string(hidden->column) +
          ". A durable phase's source may hold no lone carriage return, line or paragraph "
          "separator, control, format or invisible character, not even in a string or a "
          "comment: write its escape (such as \\u202E) instead.");
}

}  // namespace codemode::internal
