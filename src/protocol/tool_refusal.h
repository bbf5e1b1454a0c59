// What a program sees from a refused or failed tools.call: a fixed message per code and the rule.
// Both ends answer with it (the executor's bridge, and the worker for the checks it makes itself:
// docs/protocol.md), so a program cannot tell who refused its call. The broker's own message never
// reaches the program.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_PROTOCOL_TOOL_REFUSAL_H_
#define CODEMODE_PROTOCOL_TOOL_REFUSAL_H_

#include <string_view>

#include "codemode/error.h"
#include "codemode/sandbox.h"

namespace codemode::internal {

// The fixed message a program sees in error.message for a tool call that ended with `code`.
// The broker's own message never reaches the program.
std::string_view bridge_message(ErrorCode code);

// A refused or failed tool call, as the program sees it: `code`, its fixed message, and `rule`
// when it is a rule name (is_rule_name), else the code in lower case.
CodeToolOutcome bridge_refusal(ErrorCode code, std::string_view rule);
// The same for an Error (its code and rule; never its message).
CodeToolOutcome bridge_refusal(const Error& error);

}  // namespace codemode::internal

#endif  // CODEMODE_PROTOCOL_TOOL_REFUSAL_H_
