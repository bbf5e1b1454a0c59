#include "mcp/code_tool/typescript_types.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

#include "mcp/code_tool/typescript_identifiers.h"

namespace codemode::mcp {
namespace {

std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
  std::string text;
  for (const std::string& part : parts) {
    if (!text.empty()) text += separator;
    text += part;
  }
  return text;
}

// A union or intersection in parentheses, so it binds inside `T[]` and other unions.
std::string grouped(const std::vector<std::string>& parts, std::string_view separator) {
  if (parts.empty()) return "never";
  if (parts.size() == 1) return parts.front();
  return "(" + joined(parts, separator) + ")";
}

// A JSON value as a TypeScript literal type: JSON text is valid TypeScript for every JSON value.
std::string literal(const Json& value) {
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string property_key(const std::string& name) {
  return is_plain_identifier(name) ? name : literal(Json(name));
}

// The value at a "#/..." JSON pointer in `root`, or nullptr.
const Json* resolve_reference(const Json& root, const std::string& reference) {
  if (reference == "#") return &root;
  if (!reference.starts_with("#/")) return nullptr;
  try {
    const Json::json_pointer pointer(reference.substr(1));
    return root.contains(pointer) ? &root.at(pointer) : nullptr;
  } catch (const Json::exception&) {
    return nullptr;  // a malformed pointer: the type is unknown, nothing fails
  }
}

class TypeWriter {
 public:
  explicit TypeWriter(const Json& root) : root_(root) {}

  std::string type_of(const Json& schema, int indent) {
    if (schema.is_boolean()) return schema.get<bool>() ? "unknown" : "never";
    if (!schema.is_object() || depth_ >= kMaxTypeDepth) return "unknown";
    ++depth_;
    std::string type = nullable(schema, combined(schema, indent));
    --depth_;
    return type;
  }

 private:
  std::string nullable(const Json& schema, std::string type) {
    const auto flag = schema.find("nullable");  // OpenAPI 3.0, common in MCP servers' schemas
    if (flag == schema.end() || *flag != true || type == "unknown") return type;
    return "(" + type + " | null)";
  }

  // The first keyword that decides the type, in this order.
  std::string combined(const Json& schema, int indent) {
    if (schema.contains("$ref")) return referenced(schema["$ref"], indent);
    if (schema.contains("const")) return literal(schema["const"]);
    if (schema.contains("enum") && schema["enum"].is_array()) return enumerated(schema["enum"]);
    for (const char* keyword : {"anyOf", "oneOf"}) {
      if (schema.contains(keyword)) return alternatives(schema[keyword], " | ", indent);
    }
    if (schema.contains("allOf")) return alternatives(schema["allOf"], " & ", indent);
    return typed(schema, indent);
  }

  std::string referenced(const Json& reference, int indent) {
    if (!reference.is_string()) return "unknown";
    const std::string& name = reference.get_ref<const std::string&>();
    const Json* target = resolve_reference(root_, name);
    if (target == nullptr || in_progress_.contains(name)) return "unknown";  // external or a cycle
    in_progress_.insert(name);
    std::string type = type_of(*target, indent);
    in_progress_.erase(name);
    return type;
  }

  std::string enumerated(const Json& values) {
    std::vector<std::string> parts;
    for (const Json& value : values) parts.push_back(literal(value));
    return grouped(parts, " | ");
  }

  std::string alternatives(const Json& schemas, std::string_view separator, int indent) {
    if (!schemas.is_array()) return "unknown";
    std::vector<std::string> parts;
    for (const Json& schema : schemas) parts.push_back(type_of(schema, indent));
    return grouped(parts, separator);
  }

  std::string typed(const Json& schema, int indent) {
    const auto type = schema.find("type");
    if (type != schema.end() && type->is_array()) {
      std::vector<std::string> parts;
      for (const Json& name : *type) parts.push_back(of_type_name(schema, name, indent));
      return grouped(parts, " | ");
    }
    if (type != schema.end()) return of_type_name(schema, *type, indent);
    if (schema.contains("properties")) return object(schema, indent);
    if (schema.contains("items")) return array(schema, indent);
    return "unknown";
  }

  std::string of_type_name(const Json& schema, const Json& name, int indent) {
    if (name == "string") return "string";
    if (name == "number" || name == "integer") return "number";
    if (name == "boolean") return "boolean";
    if (name == "null") return "null";
    if (name == "array") return array(schema, indent);
    if (name == "object") return object(schema, indent);
    return "unknown";
  }

  std::string array(const Json& schema, int indent) {
    const auto items = schema.find("items");
    if (items == schema.end()) return "unknown[]";
    if (!items->is_array()) return "Array<" + type_of(*items, indent) + ">";
    std::vector<std::string> parts;  // draft 7's tuple form
    for (const Json& item : *items) parts.push_back(type_of(item, indent));
    return "[" + joined(parts, ", ") + "]";
  }

  std::string object(const Json& schema, int indent) {
    const auto properties = schema.find("properties");
    const bool has_properties =
        properties != schema.end() && properties->is_object() && !properties->empty();
    const std::string extra = additional(schema, has_properties, indent);
    if (!has_properties) return extra.empty() ? "{}" : "{ " + extra + " }";
    std::string text = "{\n";
    for (const auto& [name, property] : properties->items()) {
      text += member(schema, name, property, indent + 2);
    }
    if (!extra.empty()) text += spaces(indent + 2) + extra + "\n";
    return text + spaces(indent) + "}";
  }

  std::string member(const Json& schema, const std::string& name, const Json& property,
                     int indent) {
    const Json description = property.is_object() ? property.value("description", Json()) : Json();
    std::string text = description.is_string() ? jsdoc(description.get<std::string>(), indent) : "";
    const std::string optional = is_required(schema, name) ? "" : "?";
    return text + spaces(indent) + property_key(name) + optional + ": " +
           type_of(property, indent) + ";\n";
  }

  static bool is_required(const Json& schema, const std::string& name) {
    const auto required = schema.find("required");
    if (required == schema.end() || !required->is_array()) return false;
    for (const Json& entry : *required) {
      if (entry == name) return true;
    }
    return false;
  }

  // The index signature for properties not named, or "" when there may be none. Absent or true
  // allows any other property, but only says so when no property is named (a record).
  std::string additional(const Json& schema, bool has_properties, int indent) {
    const auto extra = schema.find("additionalProperties");
    if (extra == schema.end() || *extra == true) {
      return has_properties ? "" : "[key: string]: unknown;";
    }
    if (*extra == false) return "";
    return "[key: string]: " + type_of(*extra, indent + 2) + ";";
  }

  const Json& root_;
  std::set<std::string> in_progress_;  // references being expanded: a cycle stops at unknown
  int depth_ = 0;
};

// A line of a comment body, with "*/" broken so the comment cannot end inside it.
std::string comment_line(std::string_view line) {
  std::string text;
  for (std::size_t i = 0; i < line.size(); ++i) {
    text.push_back(line[i]);
    if (line[i] == '*' && i + 1 < line.size() && line[i + 1] == '/') text.push_back(' ');
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    lines.push_back(comment_line(std::string_view(text).substr(start, end - start)));
    start = end + 1;
  }
  while (!lines.empty() && lines.back().empty()) lines.pop_back();
  return lines;
}

}  // namespace

std::string typescript_type(const Json& schema, int indent) {
  return TypeWriter(schema).type_of(schema, indent);
}

std::string jsdoc(const std::string& text, int indent) {
  const std::vector<std::string> lines = lines_of(text);
  if (lines.empty()) return "";
  const std::string pad = spaces(indent);
  if (lines.size() == 1) return pad + "/** " + lines.front() + " */\n";
  std::string comment = pad + "/**\n";
  for (const std::string& line : lines)
    comment += pad + (line.empty() ? " *\n" : " * " + line + "\n");
  return comment + pad + " */\n";
}

std::string spaces(int count) { return std::string(static_cast<std::size_t>(count), ' '); }

}  // namespace codemode::mcp
