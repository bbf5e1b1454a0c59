// The Errors the JSON boundary returns: code INVALID_JSON, one rule per check, and a message that
// names the limit and never echoes the data. One function per failure site, so parse_json and
// check_json report the same rule the same way. Internal to libcodemode.
#ifndef CODEMODE_CORE_JSON_JSON_REFUSALS_H_
#define CODEMODE_CORE_JSON_JSON_REFUSALS_H_

#include <cstddef>
#include <string_view>

#include "codemode/error.h"

namespace codemode::internal {

Error syntax_refusal();                          // json_syntax: not one JSON document
Error binary_value_refusal();                    // json_syntax: a binary or discarded Json
Error text_bytes_refusal(std::size_t max_text);  // json_bytes_limit: raw text before parsing
Error bytes_refusal(std::size_t max_bytes);      // json_bytes_limit: compact size
Error depth_refusal(int max_depth);              // json_depth_limit
Error values_refusal(std::size_t max_values);    // json_values_limit
Error non_finite_refusal();                      // json_number
Error unsafe_integer_refusal();                  // json_number
Error utf8_refusal();                            // json_string
Error duplicate_key_refusal();                   // json_key
Error reserved_key_refusal();                    // json_key

// True for the keys that would reach a JavaScript prototype: "__proto__", "constructor",
// "prototype".
bool is_reserved_key(std::string_view key);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_JSON_JSON_REFUSALS_H_
