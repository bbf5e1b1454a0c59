#include "codemode/tool.h"

#include "core/text/enum_names.h"

namespace codemode {
namespace {

constexpr internal::EnumNames<ToolEffects, 4> kEffectNames{{
    {ToolEffects::kNone, "none"},
    {ToolEffects::kRead, "read"},
    {ToolEffects::kWrite, "write"},
    {ToolEffects::kHost, "host"},
}};

}  // namespace

std::string_view to_string(ToolEffects effects) { return internal::name_of(kEffectNames, effects); }

std::optional<ToolEffects> tool_effects_from_string(std::string_view text) {
  return internal::value_of(kEffectNames, text);
}

}  // namespace codemode
