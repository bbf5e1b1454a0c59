#include "core/json/json_refusals.h"

#include <string>
#include <string_view>

namespace codemode::internal {
namespace {

Error refusal(std::string rule, std::string message) {
  return Error::invalid_json(std::move(rule), std::move(message));
}

}  // namespace

Error syntax_refusal() {
  return refusal("json_syntax", "The text is not one valid JSON document.");
}

Error binary_value_refusal() {
  return refusal("json_syntax", "The JSON value holds a binary or discarded value.");
}

Error text_bytes_refusal(std::size_t max_text) {
  return refusal("json_bytes_limit", "The JSON text is longer than " + std::to_string(max_text) +
                                         " bytes before whitespace is removed.");
}

Error bytes_refusal(std::size_t max_bytes) {
  return refusal("json_bytes_limit",
                 "The JSON value is larger than " + std::to_string(max_bytes) + " bytes.");
}

Error depth_refusal(int max_depth) {
  return refusal("json_depth_limit",
                 "The JSON value is deeper than " + std::to_string(max_depth) + " levels.");
}

Error values_refusal(std::size_t max_values) {
  return refusal("json_values_limit",
                 "The JSON value has more than " + std::to_string(max_values) + " values.");
}

Error non_finite_refusal() { return refusal("json_number", "A JSON number is not finite."); }

Error unsafe_integer_refusal() {
  return refusal("json_number", "A JSON number is an integer beyond 2^53 - 1 in magnitude.");
}

Error utf8_refusal() { return refusal("json_string", "A JSON string is not valid UTF-8."); }

Error duplicate_key_refusal() { return refusal("json_key", "A JSON object has a duplicate key."); }

Error reserved_key_refusal() {
  return refusal("json_key",
                 "A JSON object key is __proto__, constructor or prototype, which are reserved.");
}

bool is_reserved_key(std::string_view key) {
  return key == "__proto__" || key == "constructor" || key == "prototype";
}

}  // namespace codemode::internal
