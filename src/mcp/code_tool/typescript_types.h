// The TypeScript type of the values a JSON Schema (draft 7, as MCP servers write them) accepts, for
// the declarations code mode shows a model. A description, not a check: the broker validates every
// call against the real schema, so where a construct has no faithful TypeScript form the type is
// widened (to `unknown` at worst), never narrowed. Descriptions become JSDoc.
#ifndef CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_TYPES_H_
#define CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_TYPES_H_

#include <string>

#include "codemode/json.h"

namespace codemode::mcp {

// Deeper schemas, and $ref cycles, become `unknown`.
inline constexpr int kMaxTypeDepth = 20;

// The type of `schema`, written for a line indented by `indent` spaces (nested object members are
// indented further). Internal references ("#", "#/definitions/x", "#/$defs/x") resolve against
// `schema` itself; any other reference is `unknown`. Never fails.
std::string typescript_type(const Json& schema, int indent = 0);

// `text` as the body of a JSDoc comment at `indent`: "/** text */" on one line, or one " * " line
// per line of text; "*/" inside the text is broken so the comment cannot end early. Ends with a
// newline. Empty text gives an empty string.
std::string jsdoc(const std::string& text, int indent);

// `count` spaces.
std::string spaces(int count);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_TYPESCRIPT_TYPES_H_
