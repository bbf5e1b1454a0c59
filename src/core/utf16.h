// Lengths in UTF-16 code units, as JavaScript counts them: the limits on ids, texts and the
// program error are specified that way, while byte limits count UTF-8.
#ifndef CODEMODE_CORE_UTF16_H_
#define CODEMODE_CORE_UTF16_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace codemode::internal {

// Whether `text` is well-formed UTF-8 (no overlongs, no surrogates, nothing past U+10FFFF).
bool is_valid_utf8(std::string_view text);

// The number of UTF-16 code units `text` (valid UTF-8) would take.
std::size_t utf16_length(std::string_view text);

// The longest prefix of `text` (valid UTF-8) that fits in `max_units` UTF-16 code units, never
// splitting a character.
std::string truncate_utf16(std::string_view text, std::size_t max_units);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_UTF16_H_
