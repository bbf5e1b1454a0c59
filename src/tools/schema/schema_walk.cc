#include "tools/schema/schema_walk.h"

#include <array>
#include <cctype>
#include <optional>
#include <unordered_set>
#include <utility>

#include "core/text/enum_names.h"

namespace codemode::internal {
namespace {

// How a keyword holds subschemas. Keywords not listed hold data or annotations, never schemas.
enum class Holds { kSchema, kSchemaOrArray, kArray, kMap };

// Each keyword once; a kind of holding for several.
constexpr EnumNames<Holds, 16> kSubschemaKeywords{{
    {Holds::kSchema, "additionalItems"},
    {Holds::kSchema, "additionalProperties"},
    {Holds::kSchema, "contains"},
    {Holds::kSchema, "propertyNames"},
    {Holds::kSchema, "not"},
    {Holds::kSchema, "if"},
    {Holds::kSchema, "then"},
    {Holds::kSchema, "else"},
    {Holds::kSchemaOrArray, "items"},
    {Holds::kArray, "allOf"},
    {Holds::kArray, "anyOf"},
    {Holds::kArray, "oneOf"},
    {Holds::kMap, "properties"},
    {Holds::kMap, "patternProperties"},
    {Holds::kMap, "definitions"},
    {Holds::kMap, "dependencies"},  // array members are property lists, not schemas
}};

constexpr std::array<std::string_view, 8> kSameInstanceKeywords{
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependencies"};

constexpr int kMaxRefHops = 32;

Holds holds_of(std::string_view keyword) {
  return value_of(kSubschemaKeywords, keyword).value_or(Holds::kSchema);
}

bool is_ascii_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool is_schema(const Json& value) { return value.is_object() || value.is_boolean(); }

void add_children(const Json& value, Holds holds, const std::string& pointer,
                  std::vector<SchemaAt>& out) {
  if (holds != Holds::kMap && is_schema(value)) {
    out.push_back({&value, pointer});
  } else if (holds != Holds::kSchema && holds != Holds::kMap && value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (is_schema(value[i])) out.push_back({&value[i], pointer + "/" + std::to_string(i)});
    }
  } else if (holds == Holds::kMap && value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (is_schema(it.value()))
        out.push_back({&it.value(), pointer + "/" + pointer_token(it.key())});
    }
  }
}

std::optional<std::string> percent_decode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      return std::nullopt;
    }
    out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
    i += 2;
  }
  return out;
}

std::string unescape_token(std::string_view token) {
  std::string out;
  for (std::size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[++i] == '0' ? '~' : '/';
    } else {
      out += token[i];
    }
  }
  return out;
}

const Json* member(const Json& node, const std::string& token) {
  if (node.is_object()) {
    const auto it = node.find(token);
    return it == node.end() ? nullptr : &*it;
  }
  const bool index = node.is_array() && !token.empty() && token.size() < 10 &&
                     token.find_first_not_of("0123456789") == std::string::npos &&
                     (token == "0" || token[0] != '0');
  if (!index || std::stoul(token) >= node.size()) return nullptr;
  return &node[std::stoul(token)];
}

const Json* resolve_pointer(const Json& root, std::string_view pointer) {
  const Json* node = &root;
  while (node != nullptr && !pointer.empty()) {
    pointer.remove_prefix(1);  // the '/' before each token
    const std::size_t end = std::min(pointer.find('/'), pointer.size());
    node = member(*node, unescape_token(pointer.substr(0, end)));
    pointer.remove_prefix(end);
  }
  return node;
}

const Json* find_by_id(const Json& root, std::string_view id) {
  const Json* found = nullptr;
  for_each_subschema(root, [&](const SchemaAt& at) {
    if (!at.schema->is_object()) return true;
    const auto it = at.schema->find("$id");
    if (it != at.schema->end() && it->is_string() && it->get_ref<const std::string&>() == id) {
      found = at.schema;
    }
    return found == nullptr;
  });
  return found;
}

// The node a subschema's local "$ref" points at, named by the ref text.
std::optional<SchemaAt> local_ref_target(const Json& root, const SchemaAt& at) {
  if (!at.schema->is_object()) return std::nullopt;
  const auto ref = at.schema->find("$ref");
  if (ref == at.schema->end() || !ref->is_string()) return std::nullopt;
  const std::string& text = ref->get_ref<const std::string&>();
  const Json* target = resolve_local_ref(root, text);
  if (target == nullptr) return std::nullopt;
  return SchemaAt{target, text};
}

}  // namespace

std::vector<SchemaAt> child_subschemas(const SchemaAt& at) {
  std::vector<SchemaAt> children;
  if (!at.schema->is_object()) return children;
  for (const auto& [holds, keyword] : kSubschemaKeywords) {
    const auto it = at.schema->find(keyword);
    if (it != at.schema->end()) {
      add_children(*it, holds, at.pointer + "/" + std::string(keyword), children);
    }
  }
  return children;
}

bool for_each_subschema(const Json& root, const std::function<bool(const SchemaAt&)>& visit) {
  return for_each_subschema(SchemaAt{&root, "#"}, visit);
}

bool for_each_subschema(const SchemaAt& start, const std::function<bool(const SchemaAt&)>& visit) {
  std::vector<SchemaAt> pending{start};
  while (!pending.empty()) {
    SchemaAt at = std::move(pending.back());
    pending.pop_back();
    if (!visit(at)) return false;
    std::vector<SchemaAt> children = child_subschemas(at);
    for (auto it = children.rbegin(); it != children.rend(); ++it)
      pending.push_back(std::move(*it));
  }
  return true;
}

bool for_each_reachable_subschema(const Json& root,
                                  const std::function<bool(const SchemaAt&)>& visit) {
  std::unordered_set<const Json*> visited;
  std::vector<SchemaAt> starts{{&root, "#"}};
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const SchemaAt start = starts[i];              // a copy: the walk below appends to `starts`
    if (visited.contains(start.schema)) continue;  // its whole subtree was walked already
    const bool finished = for_each_subschema(start, [&](const SchemaAt& at) {
      visited.insert(at.schema);
      if (!visit(at)) return false;
      if (const std::optional<SchemaAt> target = local_ref_target(root, at)) {
        starts.push_back(*target);
      }
      return true;
    });
    if (!finished) return false;
  }
  return true;
}

std::vector<const Json*> same_instance_subschemas(const Json& schema) {
  std::vector<SchemaAt> children;
  if (!schema.is_object()) return {};
  for (std::string_view keyword : kSameInstanceKeywords) {
    const auto it = schema.find(keyword);
    if (it != schema.end()) add_children(*it, holds_of(keyword), "", children);
  }
  std::vector<const Json*> out;
  for (const SchemaAt& child : children) out.push_back(child.schema);
  return out;
}

bool is_local_ref(std::string_view ref) { return ref.starts_with("#"); }

const Json* resolve_local_ref(const Json& root, std::string_view ref) {
  if (!is_local_ref(ref)) return nullptr;
  const std::optional<std::string> fragment = percent_decode(ref.substr(1));
  if (!fragment) return nullptr;
  if (fragment->empty() || fragment->front() == '/') return resolve_pointer(root, *fragment);
  return find_by_id(root, ref);
}

SchemaAt follow_refs(const Json& root, SchemaAt at) {
  for (int hop = 0; hop < kMaxRefHops; ++hop) {
    std::optional<SchemaAt> target = local_ref_target(root, at);
    if (!target) break;
    at = std::move(*target);
  }
  return at;
}

void erase_keyword(Json& root, std::string_view keyword) {
  std::vector<const Json*> holders;
  for_each_reachable_subschema(root, [&](const SchemaAt& at) {
    if (at.schema->is_object() && at.schema->contains(keyword)) holders.push_back(at.schema);
    return true;
  });
  // Every holder is a node of `root`, which the caller lets us modify; erasing one object member
  // leaves the other nodes where they are.
  for (const Json* holder : holders) const_cast<Json*>(holder)->erase(std::string(keyword));
}

std::string pointer_token(std::string_view name) {
  static constexpr std::string_view kKept = "-._!$&'()*+,;=:@";
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (char ch : name) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '~') {
      out += "~0";
    } else if (ch == '/') {
      out += "~1";
    } else if (is_ascii_alnum(ch) || kKept.find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

}  // namespace codemode::internal
