// How a schema failure is written for a reader who must fix the value: "<where>: <reason>", where
// <where> is the JSON Pointer (RFC 6901) of the failing place in the value, or "(root)".
//
// The text is printable ASCII, whatever the names hold: "~" and "/" in a reference token are
// escaped as RFC 6901 asks ("~0", "~1"), a backslash is doubled, and every other byte outside
// 0x20..0x7E is written "\xNN" (so a name cannot inject a line break, a terminal escape or a
// right-to-left override into a log). A pointer is at most kMaxPointerBytes and a quoted name at
// most kMaxNameBytes; a longer one is cut where an escape does not split and ends in "...".
//
// Thread-safety: pure functions. Internal to libcodemode.
#ifndef CODEMODE_TOOLS_SCHEMA_FAILURE_TEXT_H_
#define CODEMODE_TOOLS_SCHEMA_FAILURE_TEXT_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace codemode::internal {

inline constexpr std::size_t kMaxPointerBytes = 200;
inline constexpr std::size_t kMaxNameBytes = 100;

// The pointer of `tokens` (member names, or array indices in decimal), "(root)" when empty.
std::string pointer_text(const std::vector<std::string>& tokens);

// `name` between double quotes, with '"' and '\' escaped and the rest as above.
std::string quoted_name(std::string_view name);

}  // namespace codemode::internal

#endif  // CODEMODE_TOOLS_SCHEMA_FAILURE_TEXT_H_
