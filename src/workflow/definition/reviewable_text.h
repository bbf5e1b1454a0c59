// A durable phase runs only after a person has read its source, so the source may hold only
// characters a reader sees where the engine sees them: no line break a viewer might not draw
// (a lone carriage return, U+2028, U+2029), no control and no invisible or format character
// (bidirectional controls, zero-width characters, tag characters, variation selectors, ...),
// not even inside string literals or comments. A program that needs one writes its escape
// (`\u202E`), which every viewer shows. docs/workflows.md lists the exact set.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_WORKFLOW_DEFINITION_REVIEWABLE_TEXT_H_
#define CODEMODE_WORKFLOW_DEFINITION_REVIEWABLE_TEXT_H_

#include <cstddef>
#include <optional>
#include <string_view>

#include "codemode/error.h"

namespace codemode::internal {

// A character a reviewer could miss, and where it is as the engine counts positions: lines end
// at LF, CRLF, CR, U+2028 and U+2029 (inside strings and comments too); line and column start
// at 1; a column counts characters (code points). Positions are in the source as written: the
// engine, which wraps the source in parentheses, counts one column more on line 1.
struct HiddenCharacter {
  char32_t code_point = 0;
  std::size_t line = 0;
  std::size_t column = 0;
};

// The first such character of `utf8`, or nullopt. TAB, LF and CR directly followed by LF are
// ordinary. REQUIRES: `utf8` is valid UTF-8.
std::optional<HiddenCharacter> find_hidden_character(std::string_view utf8);

// INVALID_CONFIG (rule "phase_source_characters") naming the phase, the character's code point
// and its line:column, never the source itself.
Status check_phase_source(std::string_view phase_id, std::string_view source);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_DEFINITION_REVIEWABLE_TEXT_H_
