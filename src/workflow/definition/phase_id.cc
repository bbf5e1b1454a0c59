#include "workflow/definition/phase_id.h"

#include <algorithm>

namespace codemode::internal {

bool is_phase_id(std::string_view text) {
  if (text.empty() || text.size() > 128) return false;
  auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  auto allowed = [&](char c) {
    return letter(c) || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
  };
  if (!letter(text.front()) || !std::all_of(text.begin(), text.end(), allowed)) return false;
  return text != "constructor" && text != "prototype" && text != "__proto__";
}

}  // namespace codemode::internal
