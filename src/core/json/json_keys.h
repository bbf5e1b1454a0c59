// Whether a JSON object carries only the keys a reader knows: every strict reader of
// codemode (worker frames on both ends, the MCP config file) refuses an unknown field rather than
// ignore it, so a typo or a forged field never passes unnoticed.
#ifndef CODEMODE_CORE_JSON_JSON_KEYS_H_
#define CODEMODE_CORE_JSON_JSON_KEYS_H_

#include <initializer_list>
#include <string_view>

#include "codemode/json.h"

namespace codemode::internal {

// Whether every key of `object` is one of `allowed`.
inline bool only_keys(const Json& object, std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (std::string_view name : allowed) known = known || key == name;
    if (!known) return false;
  }
  return true;
}

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_JSON_JSON_KEYS_H_
