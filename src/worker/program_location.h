// Where an error sits in the program's own text, from where it sits in what the engine compiled:
// the engine compiles a text inside a wrapper (library programs in parentheses, a model's code for
// the MCP code tool as a function body), so its lines and first-line columns are shifted by the
// wrapper, and a location is reported only in the text the program's author wrote.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_WORKER_PROGRAM_LOCATION_H_
#define CODEMODE_WORKER_PROGRAM_LOCATION_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "codemode/sandbox.h"

namespace codemode::worker {

// One text of the program's, as the engine compiled it: the engine's line = line + line_offset,
// and on the text's first line the engine's column = column + first_line_columns.
struct CompiledText {
  std::string filename;  // the engine's name for the compiled script
  std::string_view text;
  std::int64_t line_offset = 0;
  std::int64_t first_line_columns = 0;
};

// The location in `compiled.text` of the engine's (1-based) `line` and `column`, with that line
// of the text (ECMAScript line terminators: LF, CR, CRLF, U+2028, U+2029) capped at
// ProgramErrorLocation::kMaxSourceLineUnits UTF-16 units; nullopt when the engine's position lies
// in the wrapper rather than in the text.
std::optional<ProgramErrorLocation> locate(const CompiledText& compiled, std::int64_t line,
                                           std::int64_t column);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_PROGRAM_LOCATION_H_
