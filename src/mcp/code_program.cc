#include "mcp/code_program.h"

#include <cctype>
#include <map>
#include <set>

#include "mcp/tool_results.h"
#include "mcp/typescript_declarations.h"
#include "mcp/typescript_identifiers.h"

namespace codemode::mcp {
namespace {

constexpr std::size_t kMaxHelpDescriptionBytes = 512;
constexpr std::size_t kMaxHelpTableBytes = 256u << 10;

std::string cut_utf8(std::string text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  text.resize(cut);
  return text;
}

// The prelude: builds `codemode` from the method table over the program's own `tools.call`.
// Written once here; the table is spliced in as JSON, which is valid JavaScript.
constexpr std::string_view kPrelude = R"js(
  const codemode = (() => {
    const failure = (code, operation, message) => {
      const error = new Error(message);
      Object.defineProperty(error, 'code', { value: code, enumerable: true });
      Object.defineProperty(error, 'operation', { value: operation, enumerable: true });
      return error;
    };
    const wrapper = (id) => async (args) => {
      const answer = await tools.call(id, args === undefined ? {} : args);
      if (answer.status === 'succeeded') return answer.output;
      throw failure(String(answer.error.code).toLowerCase(), id, answer.error.message);
    };
    const distance = (a, b) => {
      const row = Array.from({ length: b.length + 1 }, (_, i) => i);
      for (let i = 1; i <= a.length; i++) {
        let previous = row[0];
        row[0] = i;
        for (let j = 1; j <= b.length; j++) {
          const kept = row[j];
          row[j] = Math.min(row[j] + 1, row[j - 1] + 1,
                            previous + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
          previous = kept;
        }
      }
      return row[b.length];
    };
    const closest = (key, known) => known.slice().sort((a, b) =>
        distance(key, a) - distance(key, b) || a.localeCompare(b))[0];
    const unknown = (name, key, known) => {
      const best = closest(key, known);
      const hint = best === undefined ? '' : ` Did you mean '${best}'?`;
      return failure('unknown_method', `${name}.${key}`,
                     `Unknown method '${name}.${key}'.${hint} Call codemode.help() for the list.`);
    };
    const guarded = (name, target) => new Proxy(Object.freeze(target), {
      get(object, key) {
        if (typeof key === 'symbol' || Object.prototype.hasOwnProperty.call(object, key)) {
          return object[key];
        }
        throw unknown(name, key, Object.keys(object));
      },
    });
    const spaces = {};
    const catalog = [];
    for (const [space, method, id, description, inputSchema] of METHODS) {
      (spaces[space] = spaces[space] || {})[method] = wrapper(id);
      catalog.push(Object.freeze({ name: `${space}.${method}`, description, inputSchema }));
    }
    const root = {};
    for (const space of Object.keys(spaces)) {
      root[space] = guarded(`codemode.${space}`, spaces[space]);
    }
    // Answered here, from the table: no tool call, nothing counted.
    root.help = (name) => {
      if (name === undefined) {
        return { namespaces: Object.keys(spaces), methods: catalog.map((entry) => entry.name),
                 usage: 'await codemode.<namespace>.<method>(args); help(name) describes one; ' +
                        'search(text) finds methods.' };
      }
      const key = String(name).replace(/^codemode\./, '');
      const found = catalog.find((entry) => entry.name === key);
      if (found) return found;
      throw unknown('codemode', key, catalog.map((entry) => entry.name));
    };
    root.search = (text) => {
      const needle = String(text).toLowerCase();
      return catalog.filter((entry) => entry.name.toLowerCase().includes(needle) ||
                                       entry.description.toLowerCase().includes(needle))
                    .map(({ name, description }) => ({ name, description }));
    };
    return guarded('codemode', root);
  })();
)js";

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
    // help and search are codemode's own; a namespace cannot take their place.
    const bool reserved = method.space == "help" || method.space == "search";
    if (reserved || !seen.emplace(method.space, method.method).second) {
      return Error{ErrorCode::kConflict, "method_name_collision",
                   "Two tools have the same codemode method name."};
    }
    methods.push_back(std::move(method));
  }
  return methods;
}

std::string wrap_program(const CodeInput& code, const std::vector<CodeMethod>& methods) {
  Json table = Json::array();
  for (const CodeMethod& m : methods) {
    table.push_back({m.space, m.method, m.tool_id, m.description, m.input_schema});
  }
  // The program's source is capped (1 MiB) and the model's code needs room: past this, help()
  // describes methods without their schemas.
  if (json_text(table).size() > kMaxHelpTableBytes) {
    for (Json& row : table) row[4] = nullptr;
  }
  std::string prelude(kPrelude);
  prelude.replace(prelude.find("METHODS"), 7, json_text(table));
  // The model's text stays on lines of its own, so a trailing line comment cannot swallow the
  // wrapper's closing tokens.
  const std::string main = code.form == CodeForm::kFunctionExpression
                               ? "const main = (\n" + code.source + "\n);\n"
                               : "const main = async () => {\n" + code.source + "\n};\n";
  return "async (input, tools) => {\n" + prelude + main +
         "const value = await main();\nreturn { result: value === undefined ? null : value };\n}";
}

Result<std::string> describe_code_tool(const std::vector<CodeMethod>& methods,
                                       const std::vector<Tool>& tools, std::size_t max_bytes) {
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
      "Run JavaScript (not TypeScript) in a sandbox. Send an async function body (or a function "
      "expression); `return` one JSON value, which comes back as {result}. There is no "
      "filesystem, network, environment, module or process API: only the `codemode` object "
      "declared below, whose methods resolve to a tool's output or throw an Error with "
      "enumerable `code` and `operation`; codemode.help(), codemode.help(\"ns.method\") and "
      "codemode.search(text) describe them without calling anything. Return only the fields you "
      "need.\n\n";
  Result<std::string> rendered = render_declarations(
      declarations, max_bytes > guidance.size() ? max_bytes - guidance.size() : 0);
  if (!rendered.ok()) return std::move(rendered).error();
  return guidance + *rendered;
}

}  // namespace codemode::mcp
