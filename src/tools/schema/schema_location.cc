#include "tools/schema/schema_location.h"

#include <array>
#include <charconv>
#include <optional>
#include <string_view>

#include "tools/schema/schema_walk.h"

namespace codemode::internal {
namespace {

constexpr std::array<std::string_view, 5> kBranchingKeywords{"allOf", "anyOf", "oneOf", "not",
                                                             "if"};

// One step of the walk: the subschema and the part of the value it applies to.
struct Position {
  SchemaAt at;
  const Json* value;
};

const Json* find_member(const Json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// The subschema that checks member `key` of an object, or nullopt.
std::optional<SchemaAt> member_schema(const SchemaAt& at, const SchemaPatterns& patterns,
                                      const std::string& key) {
  const Json& schema = *at.schema;
  if (const Json* properties = find_member(schema, "properties");
      properties && properties->is_object()) {
    if (const Json* sub = find_member(*properties, key)) {
      return SchemaAt{sub, at.pointer + "/properties/" + pointer_token(key)};
    }
  }
  if (const Json* by_pattern = find_member(schema, "patternProperties");
      by_pattern && by_pattern->is_object()) {
    for (auto it = by_pattern->begin(); it != by_pattern->end(); ++it) {
      if (patterns.search(it.key(), key).value_or(false)) {
        return SchemaAt{&it.value(), at.pointer + "/patternProperties/" + pointer_token(it.key())};
      }
    }
  }
  if (const Json* additional = find_member(schema, "additionalProperties")) {
    return SchemaAt{additional, at.pointer + "/additionalProperties"};  // the key stays out
  }
  return std::nullopt;
}

// The subschema that checks element `index` of an array, or nullopt.
std::optional<SchemaAt> element_schema(const SchemaAt& at, std::size_t index) {
  const Json* items = find_member(*at.schema, "items");
  if (items == nullptr) return std::nullopt;
  if (!items->is_array()) return SchemaAt{items, at.pointer + "/items"};
  if (index < items->size()) {
    return SchemaAt{&(*items)[index], at.pointer + "/items/" + std::to_string(index)};
  }
  if (const Json* additional = find_member(*at.schema, "additionalItems")) {
    return SchemaAt{additional, at.pointer + "/additionalItems"};
  }
  return std::nullopt;
}

// Moves one segment down the value and the schema; nullopt when the schema has no direct child
// for it.
std::optional<Position> descend(const Position& here, const SchemaPatterns& patterns,
                                const std::string& segment) {
  if (!here.at.schema->is_object()) return std::nullopt;
  if (here.value->is_object()) {
    const Json* member = find_member(*here.value, segment);
    std::optional<SchemaAt> sub = member ? member_schema(here.at, patterns, segment) : std::nullopt;
    if (sub) return Position{std::move(*sub), member};
  } else if (here.value->is_array()) {
    std::size_t index = 0;
    const auto [end, error] =
        std::from_chars(segment.data(), segment.data() + segment.size(), index);
    const bool valid = error == std::errc() && end == segment.data() + segment.size() &&
                       index < here.value->size();
    std::optional<SchemaAt> sub = valid ? element_schema(here.at, index) : std::nullopt;
    if (sub) return Position{std::move(*sub), &(*here.value)[index]};
  }
  return std::nullopt;
}

std::string with_branching_keyword(const SchemaAt& at) {
  if (!at.schema->is_object()) return at.pointer;
  for (std::string_view keyword : kBranchingKeywords) {
    if (at.schema->contains(keyword)) return at.pointer + "/" + std::string(keyword);
  }
  return at.pointer;
}

// "[name]" -> "name"
std::string segment_of(const std::string& context) {
  return context.size() >= 2 ? context.substr(1, context.size() - 2) : context;
}

}  // namespace

std::string failing_schema_location(const Json& root, const SchemaPatterns& patterns,
                                    const Json& value, const std::vector<std::string>& value_path) {
  Position here{follow_refs(root, {&root, "#"}), &value};
  for (std::size_t i = 1; i < value_path.size(); ++i) {
    std::optional<Position> next = descend(here, patterns, segment_of(value_path[i]));
    if (!next) return with_branching_keyword(here.at);
    here = std::move(*next);
    here.at = follow_refs(root, std::move(here.at));
  }
  return here.at.pointer;
}

}  // namespace codemode::internal
