#include <array>
#include <utility>

#include "codemode/tool.h"

namespace codemode {
namespace {

constexpr std::array<std::pair<ToolEffects, std::string_view>, 4> kEffectNames{{
    {ToolEffects::kNone, "none"},
    {ToolEffects::kRead, "read"},
    {ToolEffects::kWrite, "write"},
    {ToolEffects::kHost, "host"},
}};

}  // namespace

std::string_view to_string(ToolEffects effects) {
  for (const auto& [known, name] : kEffectNames) {
    if (known == effects) return name;
  }
  return "";
}

std::optional<ToolEffects> tool_effects_from_string(std::string_view text) {
  for (const auto& [effects, name] : kEffectNames) {
    if (name == text) return effects;
  }
  return std::nullopt;
}

}  // namespace codemode
