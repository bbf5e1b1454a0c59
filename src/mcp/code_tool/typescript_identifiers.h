// JavaScript identifiers for the names code mode shows a program: a downstream server's name
// becomes a namespace (`codemode.<server>`) and each of its tools a method (`.<tool>(input)`).
// Tool and server names are chosen by others ("search-issues", "3d-render", "delete"), so each is
// made a valid identifier the same way in the TypeScript declarations and in the sandbox's
// wrappers; two names that become the same identifier are refused, never silently merged.
#ifndef CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_IDENTIFIERS_H_
#define CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_IDENTIFIERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"

namespace codemode::mcp {

// Whether `name` is an ASCII JavaScript IdentifierName that is not a reserved word (ES2022 reserved
// words, strict-mode future reserved words, and `arguments`/`eval`), so it can be written bare as a
// method or property name and bound as a variable.
bool is_plain_identifier(std::string_view name);

// `name` as an identifier: every character outside [A-Za-z0-9_$] becomes '_', a leading digit gets
// a '_' before it, a reserved word gets a '_' after it, and an empty name becomes "_".
//   "search-issues" -> "search_issues", "3d-render" -> "_3d_render", "delete" -> "delete_"
std::string sanitize_identifier(std::string_view name);

// The identifiers of `names`, in order. INVALID_CONFIG (rule "identifier_collision") when two
// different names give the same identifier; the message names both raw names (they are
// configuration, not data) and `what` ("tool", "server").
Result<std::vector<std::string>> sanitize_identifiers(const std::vector<std::string>& names,
                                                      std::string_view what);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_IDENTIFIERS_H_
