#include "core/text/utf16.h"

namespace codemode::internal {
namespace {

// One character of the UTF-8 text: how many bytes it takes and how many UTF-16 units it makes.
struct Sequence {
  std::size_t bytes = 1;
  std::size_t units = 1;
};

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

std::size_t expected_bytes(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead & 0xE0) == 0xC0) return 2;
  if ((lead & 0xF0) == 0xE0) return 3;
  if ((lead & 0xF8) == 0xF0) return 4;
  return 1;  // a stray continuation byte or an invalid lead: one replacement character
}

// Only the shape of the sequence is checked (lead byte plus continuation bytes); that is enough to
// keep a truncation from splitting it.
Sequence sequence_at(std::string_view utf8, std::size_t pos) {
  const std::size_t length = expected_bytes(static_cast<unsigned char>(utf8[pos]));
  if (length == 1 || pos + length > utf8.size()) return {};
  for (std::size_t i = 1; i < length; ++i) {
    if (!is_continuation(static_cast<unsigned char>(utf8[pos + i]))) return {};
  }
  return {.bytes = length, .units = length == 4 ? std::size_t{2} : std::size_t{1}};
}

}  // namespace

std::size_t utf16_length(std::string_view utf8) {
  std::size_t units = 0;
  for (std::size_t pos = 0; pos < utf8.size();) {
    const Sequence sequence = sequence_at(utf8, pos);
    units += sequence.units;
    pos += sequence.bytes;
  }
  return units;
}

std::string truncate_utf16(std::string_view utf8, std::size_t max_units) {
  std::size_t units = 0;
  std::size_t pos = 0;
  while (pos < utf8.size()) {
    const Sequence sequence = sequence_at(utf8, pos);
    if (units + sequence.units > max_units) break;
    units += sequence.units;
    pos += sequence.bytes;
  }
  return std::string(utf8.substr(0, pos));
}

}  // namespace codemode::internal
