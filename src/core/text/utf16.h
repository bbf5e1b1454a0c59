// Length limits in codemode are counted as JavaScript counts them: in UTF-16 code units (a
// character outside the Basic Multilingual Plane counts 2), while the strings themselves are UTF-8.
// These helpers convert between the two views without decoding into a second buffer.
//
// Malformed UTF-8 is not refused here (the JSON boundary does that): each byte that does not start
// a well-formed sequence counts as one unit, as the replacement character it would become.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_CORE_TEXT_UTF16_H_
#define CODEMODE_CORE_TEXT_UTF16_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace codemode::internal {

// The number of UTF-16 code units `utf8` has as a JavaScript string.
std::size_t utf16_length(std::string_view utf8);

// The longest prefix of `utf8` that is at most `max_units` UTF-16 code units. It never ends inside
// a UTF-8 sequence nor between the two halves of a surrogate pair.
std::string truncate_utf16(std::string_view utf8, std::size_t max_units);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_TEXT_UTF16_H_
