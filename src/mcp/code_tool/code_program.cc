#include "mcp/code_tool/code_program.h"

#include <cctype>
#include <map>
#include <set>

#include "codemode/rules.h"

#include "core/json/json_text.h"
#include "mcp/catalog/mcp_codes.h"
#include "mcp/catalog/tool_results.h"
#include "mcp/code_tool/code_prelude.h"
#include "mcp/code_tool/typescript_declarations.h"
#include "mcp/code_tool/typescript_identifiers.h"
#include "mcp/policy/mcp_policy.h"

namespace codemode::mcp {
namespace {

constexpr std::size_t kMaxHelpDescriptionBytes = 512;
constexpr std::size_t kMaxHelpTableBytes = 256u << 10;

using internal::cut_utf8;

// What a failed call's rule becomes in the program, where docs/mcp.md's table ("What a failed
// method call throws") maps it: the code its Error carries and the message, or null for the call's
// own (input_schema's names the failing argument). Any other rule is the code as it is, with
// codemode's message for the call.
Json rule_table(const std::vector<std::string>& quota_classes) {
  Json table{
      {rules::kMaxToolCalls, {codes::kHostCallsLimit, "host-call budget exhausted"}},
      {rules::kMaxToolConcurrency,
       {codes::kHostConcurrencyLimit, "concurrent host-call budget exhausted"}},
      {rules::kHostResultBytesLimit,
       {rules::kHostResultBytesLimit, "host result exceeds the per-call byte budget"}},
      {rules::kCumulativeHostBytesLimit,
       {rules::kCumulativeHostBytesLimit, "cumulative host-result byte budget exhausted"}},
      {rules::kContentBlocksLimit, {rules::kContentBlocksLimit, "content-block budget exhausted"}},
      {rules::kContentBytesLimit, {rules::kContentBytesLimit, "content-byte budget exhausted"}},
      {rules::kServerHostOperationsLimit,
       {rules::kServerHostOperationsLimit, "server host-operation capacity is exhausted"}},
      {rules::kInputSchema, {codes::kInvalidArguments, nullptr}},
  };
  for (const std::string& name : quota_classes) {
    table[name + "_limit"] = {name + "_limit", quota_exhausted_message(name)};
  }
  return table;
}

// The body of the model's own async function (code_prelude.h): strict, as the program is; a body
// as it is; a function expression called with no arguments. The text stays on lines of its own,
// so that a trailing line comment cannot swallow what follows it. Whatever the text does with
// `return (` and `)()`, it does inside its own function, as a body could.
std::string function_body(const CodeInput& code) {
  return code.form == CodeForm::kFunctionExpression
             ? "'use strict';\nreturn (\n" + code.source + "\n)();"
             : "'use strict';\n" + code.source;
}

}  // namespace

Result<std::vector<CodeMethod>> code_methods(const std::vector<Tool>& tools) {
  std::vector<CodeMethod> methods;
  std::set<std::pair<std::string, std::string>> seen;
  for (const Tool& tool : tools) {
    const std::string& id = tool.id();
    const std::size_t dot = id.find('.');
    CodeMethod method{.server = dot == std::string::npos ? "local" : id.substr(0, dot),
                      .tool = dot == std::string::npos ? id : id.substr(dot + 1),
                      .tool_id = id,
                      .description = cut_utf8(tool.description(), kMaxHelpDescriptionBytes),
                      .input_schema = tool.input_schema().document()};
    method.space = sanitize_identifier(method.server);
    method.method = sanitize_identifier(method.tool);
    // help and search are codemode's own, and every namespace has its own help: a tool cannot
    // take their place.
    const bool reserved =
        method.space == "help" || method.space == "search" || method.method == "help";
    if (reserved || !seen.emplace(method.space, method.method).second) {
      return Error::conflict("method_name_collision",
                             "Two tools have the same codemode method name.");
    }
    methods.push_back(std::move(method));
  }
  return methods;
}

namespace {

ProgramText program_text(const std::vector<CodeMethod>& methods, const ProgramOptions& options) {
  Json table = Json::array();
  for (const CodeMethod& m : methods) {
    table.push_back({m.space, m.method, m.tool_id, m.description, m.input_schema});
  }
  // The program's source is capped (1 MiB) and the model's code needs room: past this, help()
  // describes methods without their schemas.
  if (json_text(table).size() > kMaxHelpTableBytes) {
    for (Json& row : table) row[4] = nullptr;
  }
  // The model profile's console is the worker's (its lines come back in the outcome), so the
  // prelude defines none there.
  const bool model = options.profile == ProgramProfile::kModel;
  return ProgramText(table, rule_table(options.quota_classes),
                     model ? 0 : options.console_log_bytes, options.final_result_bytes, model);
}

}  // namespace

ProgramTemplate::ProgramTemplate(const std::vector<CodeMethod>& methods,
                                 const ProgramOptions& options)
    : text_(program_text(methods, options)), profile_(options.profile) {}

std::string ProgramTemplate::source(const CodeInput& code) const {
  return text_.source(profile_ == ProgramProfile::kModel ? code.source : function_body(code));
}

std::string wrap_program(const CodeInput& code, const std::vector<CodeMethod>& methods,
                         const ProgramOptions& options) {
  return ProgramTemplate(methods, options).source(code);
}

Result<std::string> describe_code_tool(const std::vector<CodeMethod>& methods,
                                       const std::vector<Tool>& tools, std::size_t max_bytes,
                                       CodeToolGuidance notes) {
  const bool model = notes.profile == ProgramProfile::kModel;
  std::vector<ToolDeclaration> declarations;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const Json& output = tools[i].output_schema().document();
    declarations.push_back({.server = methods[i].server,
                            .tool = methods[i].tool,
                            .description = tools[i].description(),
                            .input_schema = methods[i].input_schema,
                            .output_schema = output == Json::object() ? Json() : output});
  }
  const std::string guidance =
      std::string(model ? "Run JavaScript or TypeScript (types are erased) in a sandbox. "
                        : "Run JavaScript (not TypeScript) in a sandbox. ") +
      "Send an async function body (or a function expression); `return` one JSON value, which "
      "comes back as {result}. There is no filesystem, network, environment, module or process "
      "API: only the `codemode` object declared below, whose methods resolve to a tool's output "
      "or throw an Error with enumerable `code` (tool_failed, invalid_arguments, "
      "host_calls_limit, ...) and `operation`; codemode.help(), codemode.help(\"ns.method\") and "
      "codemode.search(text) describe them without calling anything. " +
      (model ? "console, setTimeout, URL, TextEncoder, structuredClone and crypto.randomUUID "
               "work as in Node.js; calls beyond the concurrency limit wait their turn. "
             : "") +
      (notes.console_logs ? "console.log (info, warn, error, debug) lines come back, bounded, as "
                            "{logs} beside the result. "
                          : "") +
      (notes.content_handles
           ? "A tool's image, audio or resource arrives as a small {\"$codemode\":\"content\", "
             "handle, type, mimeType, bytes} object; return it, anywhere in the result, to show "
             "the user the content itself. "
           : "") +
      "Return only the fields you need.\n\n";
  Result<std::string> rendered = render_declarations(
      declarations, max_bytes > guidance.size() ? max_bytes - guidance.size() : 0);
  if (!rendered.ok()) return std::move(rendered).error();
  return guidance + *rendered;
}

}  // namespace codemode::mcp
