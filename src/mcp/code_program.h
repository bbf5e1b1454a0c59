// The `code` tool's program text: what a model sends (an async function body, or a function
// expression, optionally inside a markdown fence) wrapped into a codemode program
// `async (input, tools) => ...` whose global-looking `codemode` object holds one async wrapper per
// tool, `codemode.<namespace>.<method>(args)`, generated from the tool ids:
//   "<namespace>.<rest>" -> namespace <namespace>, method <rest>, each made an identifier by
//   sanitize_identifier (typescript_identifiers.h, as the declarations do); an id without "."
//   goes to namespace "local". Two tools that land on one name are a collision: the code tool
//   refuses to start.
// A wrapper resolves to the tool's output, or throws an Error whose enumerable `code` is the
// failure's code in lower case ("tool_failed", "invalid_input", "limit_exceeded", ...) and whose
// enumerable `operation` is the tool id. Any other method of a namespace throws `unknown_method`
// naming the closest method. `tools.call` stays available as well.
// codemode.help() lists the namespaces and methods, codemode.help("ns.method") describes one
// (description, input schema), codemode.search(text) finds methods by name or description; all
// three are answered inside the program from an embedded table, with no tool call. A namespace
// named "help" or "search" is a collision.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_MCP_CODE_PROGRAM_H_
#define CODEMODE_MCP_CODE_PROGRAM_H_

#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/tool.h"

#include "mcp/code_input.h"

namespace codemode::mcp {

struct CodeMethod {
  std::string server;  // the raw namespace: the tool id before its first "." ("local" without)
  std::string tool;    // the raw method: the rest of the id
  std::string space;   // sanitize_identifier(server)
  std::string method;  // sanitize_identifier(tool)
  std::string tool_id;
  std::string description;  // the tool's, at most 512 bytes, for codemode.help()
  Json input_schema;        // the tool's input schema document, for codemode.help(name)
};

// The wrapper table. CONFLICT (rule "method_name_collision") naming nothing but the rule when two
// tools sanitize to one name.
Result<std::vector<CodeMethod>> code_methods(const std::vector<Tool>& tools);

// The program source for one invocation of the model's `code` (code_input.h).
std::string wrap_program(const CodeInput& code, const std::vector<CodeMethod>& methods);

// The code tool's description: guidance, then the TypeScript declarations of every method
// (typescript_declarations.h), within `max_bytes`. REQUIRES: `methods` = code_methods(tools).
Result<std::string> describe_code_tool(const std::vector<CodeMethod>& methods,
                                       const std::vector<Tool>& tools, std::size_t max_bytes);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_PROGRAM_H_
