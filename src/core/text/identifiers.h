// Shared checks for the identifiers and short texts that definitions and options carry.
#ifndef CODEMODE_CORE_TEXT_IDENTIFIERS_H_
#define CODEMODE_CORE_TEXT_IDENTIFIERS_H_

#include <string>
#include <string_view>

#include "codemode/error.h"

namespace codemode::internal {

// ^[A-Za-z][A-Za-z0-9._/-]{0,127}$ — the id of a tool, program or adapter.
bool is_identifier(std::string_view text);

// ^[A-Za-z0-9][A-Za-z0-9<punctuation>]{0,max_chars-1}$ — a name that cannot be read as a flag
// or a path: a container name, an OCI runtime, a builder or scanner id.
bool is_plain_name(std::string_view text, std::size_t max_chars, std::string_view punctuation);

// ^[a-z][a-z0-9_]{0,63}$ — an Error's rule as it may cross into the sandbox (a tool call's
// refusal): a name, never a sentence, so it cannot carry data.
bool is_rule_name(std::string_view text);

// The rule a refusal carries when its own is not a rule name: the code in lower case
// ("tool_failed" for TOOL_FAILED).
std::string default_rule(ErrorCode code);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_TEXT_IDENTIFIERS_H_
