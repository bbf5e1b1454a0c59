#include "worker/program_location.h"

#include <cstddef>

#include "core/text/utf16.h"

namespace codemode::worker {
namespace {

// The length of the line terminator at `at`, or 0.
std::size_t terminator_at(std::string_view text, std::size_t at) {
  if (text[at] == '\n') return 1;
  if (text[at] == '\r') return at + 1 < text.size() && text[at + 1] == '\n' ? 2 : 1;
  // U+2028 and U+2029 are E2 80 A8 and E2 80 A9 in UTF-8.
  if (static_cast<unsigned char>(text[at]) == 0xE2 && at + 2 < text.size() &&
      static_cast<unsigned char>(text[at + 1]) == 0x80 &&
      (static_cast<unsigned char>(text[at + 2]) == 0xA8 ||
       static_cast<unsigned char>(text[at + 2]) == 0xA9)) {
    return 3;
  }
  return 0;
}

// Line `line` (1-based) of `text`, without its terminator; nullopt past the last line.
std::optional<std::string_view> line_of(std::string_view text, std::int64_t line) {
  std::size_t start = 0;
  std::int64_t current = 1;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t terminator = terminator_at(text, at);
    if (terminator == 0) {
      ++at;
      continue;
    }
    if (current == line) return text.substr(start, at - start);
    at += terminator;
    start = at;
    ++current;
  }
  if (current == line) return text.substr(start);
  return std::nullopt;
}

}  // namespace

std::optional<ProgramErrorLocation> locate(const CompiledText& compiled, std::int64_t line,
                                           std::int64_t column) {
  const std::int64_t text_line = line - compiled.line_offset;
  const std::int64_t text_column = text_line == 1 ? column - compiled.first_line_columns : column;
  if (text_line < 1 || text_column < 1) return std::nullopt;
  const std::optional<std::string_view> source_line = line_of(compiled.text, text_line);
  if (!source_line) return std::nullopt;
  return ProgramErrorLocation{.line = text_line,
                              .column = text_column,
                              .source_line = internal::truncate_utf16(
                                  *source_line, ProgramErrorLocation::kMaxSourceLineUnits)};
}

}  // namespace codemode::worker
