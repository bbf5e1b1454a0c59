#include "mcp/code_tool/typescript_declarations.h"

#include <map>
#include <utility>

#include "mcp/code_tool/typescript_identifiers.h"
#include "mcp/code_tool/typescript_types.h"

namespace codemode::mcp {
namespace {

// The tools grouped by server, both in first-seen order, as identifiers.
struct Namespace {
  std::string identifier;
  std::vector<const ToolDeclaration*> tools;
  std::vector<std::string> methods;  // identifiers, parallel to tools
};

Result<std::vector<Namespace>> group_by_server(const std::vector<ToolDeclaration>& tools) {
  std::vector<std::string> servers;
  std::map<std::string, std::vector<const ToolDeclaration*>> members;
  for (const ToolDeclaration& tool : tools) {
    if (!members.contains(tool.server)) servers.push_back(tool.server);
    members[tool.server].push_back(&tool);
  }
  Result<std::vector<std::string>> identifiers = sanitize_identifiers(servers, "server");
  if (!identifiers.ok()) return std::move(identifiers).error();
  std::vector<Namespace> namespaces;
  for (std::size_t i = 0; i < servers.size(); ++i) {
    std::vector<std::string> names;
    for (const ToolDeclaration* tool : members[servers[i]]) names.push_back(tool->tool);
    Result<std::vector<std::string>> methods = sanitize_identifiers(names, "tool");
    if (!methods.ok()) return std::move(methods).error();
    namespaces.push_back({(*identifiers)[i], members[servers[i]], std::move(*methods)});
  }
  return namespaces;
}

std::string output_type(const ToolDeclaration& tool, int indent) {
  return tool.output_schema.is_null() ? "unknown" : typescript_type(tool.output_schema, indent);
}

std::string method(const ToolDeclaration& tool, const std::string& identifier, int indent) {
  return jsdoc(tool.description, indent) + spaces(indent) + identifier +
         "(input: " + typescript_type(tool.input_schema, indent) + "): Promise<" +
         output_type(tool, indent) + ">;\n";
}

std::string full(const std::vector<Namespace>& namespaces) {
  std::string text = "declare const codemode: {\n";
  for (const Namespace& space : namespaces) {
    text += "  readonly " + space.identifier + ": {\n";
    for (std::size_t i = 0; i < space.tools.size(); ++i) {
      text += method(*space.tools[i], space.methods[i], 4);
    }
    text += "  };\n";
  }
  return text + "};\n";
}

constexpr const char* kDiscoveryNote =
    "// Types omitted to keep this short: codemode.help(\"server.tool\") returns a method's\n"
    "// declaration, codemode.search(text) finds methods.\n";

std::string method_names(const std::vector<Namespace>& namespaces) {
  std::string text = kDiscoveryNote;
  text += "declare const codemode: {\n";
  for (const Namespace& space : namespaces) {
    text += "  readonly " + space.identifier + ": {\n";
    for (const std::string& name : space.methods) {
      text += "    " + name + "(input: object): Promise<unknown>;\n";
    }
    text += "  };\n";
  }
  return text + "};\n";
}

std::string server_names(const std::vector<Namespace>& namespaces) {
  std::string text = kDiscoveryNote;
  text += "declare const codemode: {\n";
  for (const Namespace& space : namespaces) {
    text += "  readonly " + space.identifier +
            ": Record<string, (input: object) => Promise<unknown>>;\n";
  }
  return text + "};\n";
}

}  // namespace

std::string render_method_declaration(const ToolDeclaration& tool, int indent) {
  return method(tool, sanitize_identifier(tool.tool), indent);
}

Result<std::string> render_declarations(const std::vector<ToolDeclaration>& tools,
                                        std::size_t max_bytes) {
  Result<std::vector<Namespace>> namespaces = group_by_server(tools);
  if (!namespaces.ok()) return std::move(namespaces).error();
  std::string text = full(*namespaces);
  if (text.size() <= max_bytes) return text;
  text = method_names(*namespaces);
  if (text.size() <= max_bytes) return text;
  return server_names(*namespaces);
}

}  // namespace codemode::mcp
