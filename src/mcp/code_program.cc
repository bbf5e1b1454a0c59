#include "mcp/code_program.h"

#include <cctype>
#include <map>
#include <set>

#include "mcp/tool_results.h"

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

std::string identifier(std::string_view text) {
  std::string name;
  for (char c : text) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
    name.push_back(ok ? c : '_');
  }
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) name.insert(0, "_");
  return name;
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
    CodeMethod method{.space = dot == std::string::npos ? "local" : identifier(id.substr(0, dot)),
                      .method = identifier(dot == std::string::npos ? id : id.substr(dot + 1)),
                      .tool_id = id,
                      .description = cut_utf8(tool.description(), kMaxHelpDescriptionBytes),
                      .input_schema = tool.input_schema().document()};
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

// Both scanners are hand-written and linear: the text is the model's, up to sourceBytes, and
// libstdc++'s std::regex recurses per character (a long input can exhaust the stack).
std::string strip_fence(std::string_view code) {
  const std::size_t first = code.find_first_not_of(" \t\r\n");
  const std::size_t last = code.find_last_not_of(" \t\r\n");
  if (first == std::string_view::npos) return std::string(code);
  std::string_view text = code.substr(first, last - first + 1);
  if (text.size() < 6 || !text.starts_with("```") || !text.ends_with("```")) {
    return std::string(code);
  }
  const std::size_t newline = text.find('\n');
  if (newline == std::string_view::npos || newline > text.size() - 3) return std::string(code);
  for (char c : text.substr(3, newline - 3)) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != ' ' && c != '\t' && c != '\r') {
      return std::string(code);  // not an info string: the text is not one fenced block
    }
  }
  std::string_view body = text.substr(newline + 1, text.size() - 3 - (newline + 1));
  if (body.ends_with("\n")) body.remove_suffix(1);
  if (body.ends_with("\r")) body.remove_suffix(1);
  return std::string(body);
}

namespace {

std::string_view skip_space(std::string_view text) {
  const std::size_t at = text.find_first_not_of(" \t\r\n");
  return at == std::string_view::npos ? std::string_view() : text.substr(at);
}

bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// `word` followed by something that cannot continue an identifier.
bool starts_with_word(std::string_view text, std::string_view word) {
  return text.starts_with(word) &&
         (text.size() == word.size() || !is_identifier_char(text[word.size()]));
}

}  // namespace

bool is_function_expression(std::string_view code) {
  std::string_view text = skip_space(code);
  if (starts_with_word(text, "async")) text = skip_space(text.substr(5));
  if (starts_with_word(text, "function")) return true;
  std::size_t end = 0;
  if (!text.empty() && text[0] == '(') {
    end = text.find_first_of("()", 1);
    if (end == std::string_view::npos || text[end] != ')') return false;
    ++end;
  } else {
    while (end < text.size() && is_identifier_char(text[end])) ++end;
    if (end == 0 || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  }
  return skip_space(text.substr(end)).starts_with("=>");
}

std::string wrap_program(std::string_view code, const std::vector<CodeMethod>& methods) {
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
  const std::string main = is_function_expression(code)
                               ? "const main = (\n" + std::string(code) + "\n);\n"
                               : "const main = async () => {\n" + std::string(code) + "\n};\n";
  return "async (input, tools) => {\n" + prelude + main +
         "const value = await main();\nreturn { result: value === undefined ? null : value };\n}";
}

std::string describe_code_tool(const std::vector<CodeMethod>& methods,
                               const std::vector<Tool>& tools, std::size_t max_bytes) {
  std::string text =
      "Run JavaScript (not TypeScript) in a sandbox. Send an async function body (or a function "
      "expression); `return` one JSON value, which comes back as {result}. There is no "
      "filesystem, network, environment, module or process API: only `codemode.<namespace>."
      "<method>(args)`, one async function per tool below, which resolves to the tool's output "
      "or throws an Error with enumerable `code` and `operation`. Return only the fields you "
      "need.\n\nMethods:\n";
  std::string methods_text;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    methods_text += "- codemode." + methods[i].space + "." + methods[i].method +
                    "(args: " + json_text(tools[i].input_schema().document()) +
                    "): " + tools[i].description() + "\n";
  }
  if (text.size() + methods_text.size() <= max_bytes) return text + methods_text;
  // Too large to list in full: the namespaces only.
  std::set<std::string> spaces;
  for (const CodeMethod& m : methods) spaces.insert(m.space);
  text += "(too many to list; namespaces:";
  for (const std::string& space : spaces) text += " codemode." + space;
  return text + ")\n";
}

}  // namespace codemode::mcp
