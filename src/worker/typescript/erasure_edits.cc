#include "worker/typescript/erasure_edits.h"

#include "worker/typescript/js_scanner.h"

namespace codemode::worker::typescript {

bool EditList::put(std::string_view source, Span span, char c, bool from_back) {
  for (std::uint32_t i = 0; i < span.end - span.start; ++i) {
    const std::uint32_t offset = from_back ? span.end - 1 - i : span.start + i;
    const auto byte = static_cast<unsigned char>(source[offset]);
    if (byte < 0x80 && byte != '\n' && byte != '\r') {
      puts_.push_back({offset, c});
      return true;
    }
  }
  return false;
}

std::string EditList::apply(std::string_view source) const {
  std::string text(source);
  for (const Span& span : blanks_) {
    std::size_t i = span.start;
    while (i < span.end) {
      if (const std::size_t terminator = line_terminator_length(source, i); terminator > 0) {
        i += terminator;  // kept: lines stay where they were
        continue;
      }
      // The same byte length and the same UTF-16 length (see the header).
      switch (utf8_sequence_length(source, i)) {
        case 2:
          text.replace(i, 2, "\xC2\xA0");
          i += 2;
          break;
        case 3:
          text.replace(i, 3, "\xE3\x80\x80");
          i += 3;
          break;
        case 4:
          text.replace(i, 4, "\xC2\xA0\xC2\xA0");
          i += 4;
          break;
        default:
          text[i++] = ' ';
      }
    }
  }
  for (const Put& put : puts_) text[put.offset] = put.c;
  return text;
}

}  // namespace codemode::worker::typescript
