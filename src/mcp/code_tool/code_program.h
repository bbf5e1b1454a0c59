// The `code` tool's program text: what a model sends (an async function body, or a function
// expression, optionally inside a markdown fence) wrapped into a codemode program
// `async (input, tools) => ...` whose global `codemode` object holds one async wrapper per
// tool, `codemode.<namespace>.<method>(args)`, generated from the tool ids:
//   "<namespace>.<rest>" -> namespace <namespace>, method <rest>, each made an identifier by
//   sanitize_identifier (typescript_identifiers.h, as the declarations do); an id without "."
//   goes to namespace "local". Two tools that land on one name are a collision: the code tool
//   refuses to start.
// A wrapper resolves to the tool's output, or throws an Error whose enumerable `operation` is the
// tool id and whose enumerable `code` names the rule that failed the call (code_prelude.h), as
// docs/mcp.md's table ("What a failed method call throws") maps it:
//   rule of the call              code in the program
//   max_tool_calls                host_calls_limit
//   max_tool_concurrency          host_concurrency_limit
//   host_result_bytes_limit       host_result_bytes_limit
//   cumulative_host_bytes_limit   cumulative_host_bytes_limit
//   server_host_operations_limit  server_host_operations_limit
//   <class>_limit                 <class>_limit
//   input_schema                  invalid_arguments
//   any other                     the rule (tool_failed, tool_timeout, cancelled, ...)
// with the table's message for the mapped ones (rule_table in code_program.cc), else (and for
// input_schema, whose message names the failing argument: "/customerId: must be string") the
// call's own message, written by codemode.
// Any other method of a namespace throws `unknown_method` naming the closest method.
// `tools.call` stays available as well, unmapped: {status, error:{code, rule, message}}.
// codemode.help() lists the namespaces and methods, codemode.help("ns.method") describes one
// (description, input schema), codemode.search(text) finds methods by name or description; all
// three are answered inside the program from an embedded table, with no tool call. A namespace
// named "help" or "search" is a collision.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_MCP_CODE_TOOL_CODE_PROGRAM_H_
#define CODEMODE_MCP_CODE_TOOL_CODE_PROGRAM_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/program.h"
#include "codemode/tool.h"

#include "mcp/code_tool/code_input.h"
#include "mcp/code_tool/code_prelude.h"

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

struct ProgramOptions {
  // The cap of console capture's logs (code_prelude.h); 0: no `console`.
  std::int64_t console_log_bytes = 0;
  // The result's cap as compact JSON, measured in the worker first (code_prelude.h).
  std::int64_t final_result_bytes = 48 << 10;
  // The quota classes' names, whose refusals the program sees as "<name>_limit".
  std::vector<std::string> quota_classes;
  // kModel: the worker compiles the model's code as sent (no host classification; TypeScript
  // erased there) and its console's lines come back in the outcome, not through the prelude.
  ProgramProfile profile = ProgramProfile::kStandard;
};

// The program sources of a code tool's invocations: the prelude for `methods` and `options` is
// built once, and each source() adds one invocation's code (code_prelude.h, ProgramText).
// Thread-safety: source() may be called from many threads at once.
class ProgramTemplate {
 public:
  explicit ProgramTemplate(const std::vector<CodeMethod>& methods,
                           const ProgramOptions& options = {});

  // The program source for one invocation of the model's `code` (code_input.h); its result is the
  // envelope of code_prelude.h.
  std::string source(const CodeInput& code) const;

 private:
  ProgramText text_;
  ProgramProfile profile_;
};

// ProgramTemplate(methods, options).source(code).
std::string wrap_program(const CodeInput& code, const std::vector<CodeMethod>& methods,
                         const ProgramOptions& options = {});

// What the code tool's guidance mentions beyond what every program has.
struct CodeToolGuidance {
  bool console_logs = false;     // a sentence on console capture (consoleLogs)
  bool content_handles = false;  // a sentence on content handles (content_handles.h)
  // kModel: TypeScript is accepted, and the model profile's globals and queueing are named.
  ProgramProfile profile = ProgramProfile::kStandard;
};

// The code tool's description: guidance, then the TypeScript declarations of every method
// (typescript_declarations.h), within `max_bytes`. REQUIRES: `methods` = code_methods(tools).
Result<std::string> describe_code_tool(const std::vector<CodeMethod>& methods,
                                       const std::vector<Tool>& tools, std::size_t max_bytes,
                                       CodeToolGuidance guidance = {});

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_CODE_PROGRAM_H_
