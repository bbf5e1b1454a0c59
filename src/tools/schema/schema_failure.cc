#include "tools/schema/schema_failure.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/schema/failure_text.h"
#include "tools/schema/schema_walk.h"

namespace codemode::internal {
namespace {

// Where in the value, as reference tokens, and why.
struct Failure {
  std::vector<std::string> at;
  std::string reason;
};
using Found = std::optional<Failure>;

const Json* find_member(const Json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

// A keyword's value when it is a number, for the limits: null otherwise.
const Json* number_keyword(const Json& schema, std::string_view keyword) {
  const Json* limit = find_member(schema, keyword);
  return limit != nullptr && limit->is_number() ? limit : nullptr;
}

// A limit from the schema as JavaScript writes the number.
std::string number_text(const Json& number) {
  Result<std::string> text = serialize_json(number);
  return text.ok() ? *text : number.dump();
}

std::string count_text(const Json& count, std::string_view one, std::string_view many) {
  return number_text(count) + " " + std::string(count == 1 ? one : many);
}

bool has_type(const Json& value, std::string_view type) {
  if (type == "null") return value.is_null();
  if (type == "boolean") return value.is_boolean();
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "number") return value.is_number();
  if (type == "integer") return value.is_number_integer();  // integral floats are integers here
  return false;
}

// The same rule as valijson_multiple_of.cc: exact for an integer divisor, one epsilon otherwise.
bool is_multiple(const Json& value, const Json& divisor) {
  if (divisor.is_number_integer() && value.is_number_integer()) {
    return value.get<std::int64_t>() % divisor.get<std::int64_t>() == 0;
  }
  const double number = value.get<double>();
  const double by = divisor.get<double>();
  if (!std::isfinite(number)) return false;
  if (divisor.is_number_integer()) return std::fmod(number, by) == 0.0;
  return number == 0.0 ||
         std::fabs(std::remainder(number, by)) <= std::numeric_limits<double>::epsilon();
}

// Code points, as valijson counts a string's length.
std::size_t code_points(const std::string& text) {
  std::size_t count = 0;
  for (char ch : text) count += (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  return count;
}

// What the walk below reads at one (subschema, value) pair. `at` is the value's place; it grows
// and shrinks as the walk descends, and a failure copies it.
class Explainer {
 public:
  Explainer(const Json& root, const SchemaPatterns& patterns) : root_(root), patterns_(patterns) {}

  Found explain(const Json& schema, const Json& value);
  bool exhausted() const { return steps_ > kMaxExplainSteps; }

 private:
  Found fail(std::string reason) const { return Failure{at_, std::move(reason)}; }
  bool matches(const Json& schema, const Json& value);
  Found explain_below(const Json& schema, const Json& value, std::string token);

  Found type_failure(const Json& schema, const Json& value) const;
  Found equality_failure(const Json& schema, const Json& value) const;
  Found number_failure(const Json& schema, const Json& value) const;
  Found string_failure(const Json& schema, const Json& value) const;
  Found array_failure(const Json& schema, const Json& value);
  Found object_failure(const Json& schema, const Json& value);
  Found member_failure(const Json& schema, const std::string& key, const Json& member);
  Found member_value_failure(const Json& schema, const std::string& key, const Json& member);
  Found dependency_failure(const Json& schema, const Json& value);
  Found branch_failure(const Json& schema, const Json& value);

  const Json& root_;
  const SchemaPatterns& patterns_;
  std::vector<std::string> at_;
  std::size_t steps_ = 0;
};

Found Explainer::explain(const Json& schema, const Json& value) {
  if (++steps_ > kMaxExplainSteps) return std::nullopt;  // exhausted(): the caller gives up
  const Json& node = *follow_refs(root_, {&schema, ""}).schema;
  if (node.is_boolean()) return node.get<bool>() ? std::nullopt : fail("not allowed");
  if (!node.is_object()) return std::nullopt;
  for (auto check : {&Explainer::type_failure, &Explainer::equality_failure,
                     &Explainer::number_failure, &Explainer::string_failure}) {
    if (Found found = (this->*check)(node, value)) return found;
  }
  for (auto check :
       {&Explainer::array_failure, &Explainer::object_failure, &Explainer::branch_failure}) {
    if (Found found = (this->*check)(node, value)) return found;
  }
  return std::nullopt;
}

bool Explainer::matches(const Json& schema, const Json& value) {
  return !explain(schema, value).has_value();
}

Found Explainer::explain_below(const Json& schema, const Json& value, std::string token) {
  at_.push_back(std::move(token));
  Found found = explain(schema, value);
  at_.pop_back();
  return found;
}

Found Explainer::type_failure(const Json& schema, const Json& value) const {
  const Json* type = find_member(schema, "type");
  if (type == nullptr) return std::nullopt;
  const Json types = type->is_array() ? *type : Json::array({*type});
  std::string names;
  for (const Json& name : types) {
    if (!name.is_string()) continue;
    if (has_type(value, name.get_ref<const std::string&>())) return std::nullopt;
    names += (names.empty() ? "" : " or ") + name.get<std::string>();
  }
  return fail("must be " + names);
}

Found Explainer::equality_failure(const Json& schema, const Json& value) const {
  if (const Json* allowed = find_member(schema, "enum"); allowed && allowed->is_array()) {
    bool found = false;
    for (const Json& candidate : *allowed) found = found || candidate == value;
    if (!found) return fail("must be one of the allowed values");
  }
  if (const Json* constant = find_member(schema, "const"); constant && *constant != value) {
    return fail("must equal the allowed value (const)");
  }
  return std::nullopt;
}

Found Explainer::number_failure(const Json& schema, const Json& value) const {
  if (!value.is_number()) return std::nullopt;
  const double number = value.get<double>();
  if (const Json* divisor = number_keyword(schema, "multipleOf");
      divisor && !is_multiple(value, *divisor)) {
    return fail("must be a multiple of " + number_text(*divisor));
  }
  struct Bound {
    std::string_view keyword;
    std::string_view relation;
    bool (*holds)(double number, double limit);
  };
  static constexpr Bound kBounds[] = {
      {"minimum", ">=", [](double n, double l) { return n >= l; }},
      {"exclusiveMinimum", ">", [](double n, double l) { return n > l; }},
      {"maximum", "<=", [](double n, double l) { return n <= l; }},
      {"exclusiveMaximum", "<", [](double n, double l) { return n < l; }},
  };
  for (const Bound& bound : kBounds) {
    const Json* limit = number_keyword(schema, bound.keyword);
    if (limit && !bound.holds(number, limit->get<double>())) {
      return fail("must be " + std::string(bound.relation) + " " + number_text(*limit));
    }
  }
  return std::nullopt;
}

Found Explainer::string_failure(const Json& schema, const Json& value) const {
  if (!value.is_string()) return std::nullopt;
  const std::string& text = value.get_ref<const std::string&>();
  const auto length = static_cast<double>(code_points(text));  // limits are JSON numbers
  if (const Json* min = number_keyword(schema, "minLength"); min && length < min->get<double>()) {
    return fail("must be at least " + count_text(*min, "character", "characters") + " long");
  }
  if (const Json* max = number_keyword(schema, "maxLength"); max && length > max->get<double>()) {
    return fail("must be at most " + count_text(*max, "character", "characters") + " long");
  }
  if (const Json* pattern = find_member(schema, "pattern"); pattern && pattern->is_string()) {
    if (!patterns_.search(pattern->get_ref<const std::string&>(), text).value_or(true)) {
      return fail("must match the pattern");
    }
  }
  return std::nullopt;
}

Found Explainer::array_failure(const Json& schema, const Json& value) {
  if (!value.is_array()) return std::nullopt;
  if (const Json* min = number_keyword(schema, "minItems"); min && value.size() < *min) {
    return fail("must have at least " + count_text(*min, "item", "items"));
  }
  if (const Json* max = number_keyword(schema, "maxItems"); max && value.size() > *max) {
    return fail("must have at most " + count_text(*max, "item", "items"));
  }
  if (const Json* unique = find_member(schema, "uniqueItems"); unique && *unique == true) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      for (std::size_t j = i + 1; j < value.size(); ++j) {
        if (value[i] == value[j]) {
          return fail("must not contain duplicate items (items " + std::to_string(i) + " and " +
                      std::to_string(j) + " are equal)");
        }
      }
    }
  }
  const Json* items = find_member(schema, "items");
  const Json* additional = find_member(schema, "additionalItems");
  for (std::size_t i = 0; items != nullptr && i < value.size(); ++i) {
    const bool tuple = items->is_array();
    const Json* item = !tuple ? items : i < items->size() ? &(*items)[i] : additional;
    if (item == nullptr) break;
    if (Found found = explain_below(*item, value[i], std::to_string(i))) {
      if (tuple && i >= items->size() && *item == false) {
        found->reason = "item not allowed (additionalItems)";
      }
      return found;
    }
  }
  if (const Json* contains = find_member(schema, "contains")) {
    bool any = false;
    for (const Json& element : value) any = any || matches(*contains, element);
    if (!any) return fail("must contain at least one item of the required shape (contains)");
  }
  return std::nullopt;
}

Found Explainer::object_failure(const Json& schema, const Json& value) {
  if (!value.is_object()) return std::nullopt;
  if (const Json* required = find_member(schema, "required"); required && required->is_array()) {
    for (const Json& name : *required) {
      if (name.is_string() && !value.contains(name.get_ref<const std::string&>())) {
        return fail("missing required property " + quoted_name(name.get_ref<const std::string&>()));
      }
    }
  }
  if (const Json* min = number_keyword(schema, "minProperties"); min && value.size() < *min) {
    return fail("must have at least " + count_text(*min, "property", "properties"));
  }
  if (const Json* max = number_keyword(schema, "maxProperties"); max && value.size() > *max) {
    return fail("must have at most " + count_text(*max, "property", "properties"));
  }
  for (auto it = value.begin(); it != value.end(); ++it) {
    if (Found found = member_failure(schema, it.key(), it.value())) return found;
  }
  return dependency_failure(schema, value);
}

Found Explainer::member_failure(const Json& schema, const std::string& key, const Json& member) {
  at_.push_back(key);
  Found found = member_value_failure(schema, key, member);
  at_.pop_back();
  return found;
}

// One member: its name against propertyNames, then its value against properties and every
// matching patternProperties, or else against additionalProperties. `at_` names the member.
Found Explainer::member_value_failure(const Json& schema, const std::string& key,
                                      const Json& member) {
  if (const Json* names = find_member(schema, "propertyNames");
      names && !matches(*names, Json(key))) {
    return fail("property name not allowed (propertyNames)");
  }
  bool declared = false;
  if (const Json* properties = find_member(schema, "properties");
      properties && properties->is_object()) {
    if (const Json* sub = find_member(*properties, key)) {
      declared = true;
      if (Found found = explain(*sub, member)) return found;
    }
  }
  if (const Json* by_pattern = find_member(schema, "patternProperties");
      by_pattern && by_pattern->is_object()) {
    for (auto it = by_pattern->begin(); it != by_pattern->end(); ++it) {
      if (!patterns_.search(it.key(), key).value_or(false)) continue;
      declared = true;
      if (Found found = explain(it.value(), member)) return found;
    }
  }
  const Json* additional = find_member(schema, "additionalProperties");
  if (declared || additional == nullptr) return std::nullopt;
  if (*additional == false) return fail("property not allowed (additionalProperties)");
  return explain(*additional, member);
}

Found Explainer::dependency_failure(const Json& schema, const Json& value) {
  const Json* dependencies = find_member(schema, "dependencies");
  if (dependencies == nullptr || !dependencies->is_object()) return std::nullopt;
  for (auto it = dependencies->begin(); it != dependencies->end(); ++it) {
    if (!value.contains(it.key())) continue;
    if (!it.value().is_array()) {
      if (Found found = explain(it.value(), value)) return found;
      continue;
    }
    for (const Json& name : it.value()) {
      if (name.is_string() && !value.contains(name.get_ref<const std::string&>())) {
        return fail("missing property " + quoted_name(name.get_ref<const std::string&>()) +
                    ", required when " + quoted_name(it.key()) + " is present");
      }
    }
  }
  return std::nullopt;
}

Found Explainer::branch_failure(const Json& schema, const Json& value) {
  if (const Json* all = find_member(schema, "allOf"); all && all->is_array()) {
    for (const Json& branch : *all) {
      if (Found found = explain(branch, value)) return found;
    }
  }
  for (std::string_view keyword : {"anyOf", "oneOf"}) {
    const Json* branches = find_member(schema, keyword);
    if (branches == nullptr || !branches->is_array()) continue;
    std::size_t matched = 0;
    for (const Json& branch : *branches) matched += matches(branch, value) ? 1 : 0;
    if (matched == 0) return fail("must match one of the allowed shapes");
    if (keyword == "oneOf" && matched > 1)
      return fail("must match exactly one of the allowed shapes");
  }
  if (const Json* excluded = find_member(schema, "not"); excluded && matches(*excluded, value)) {
    return fail("must not match the excluded shape (not)");
  }
  if (const Json* condition = find_member(schema, "if")) {
    const Json* next = find_member(schema, matches(*condition, value) ? "then" : "else");
    if (next != nullptr) return explain(*next, value);
  }
  return std::nullopt;
}

}  // namespace

std::string explain_failure(const Json& root, const SchemaPatterns& patterns, const Json& value) {
  Explainer explainer(root, patterns);
  const Found found = explainer.explain(root, value);
  if (!found || explainer.exhausted()) return kNoExplanation;
  return pointer_text(found->at) + ": " + found->reason;
}

}  // namespace codemode::internal
