#include "cli/cli_limits.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "cli/cli_io.h"
#include "tools/program/code_limit_fields.h"

namespace codemode::cli {
namespace {

using internal::CodeLimitField;
using internal::kCodeLimitFields;

const CodeLimitField* find_limit(std::string_view name) {
  for (const CodeLimitField& limit : kCodeLimitFields) {
    if (limit.name == name) return &limit;
  }
  return nullptr;
}

}  // namespace

CodeLimits default_limits() {
  return CodeLimits{.cpu_millis = 1'000,
                    .wall_time_millis = 10'000,
                    .memory_bytes = 64 << 20,
                    .scratch_bytes = 1,
                    .max_input_bytes = 1 << 20,
                    .max_output_bytes = 1 << 20,
                    .max_tool_input_bytes = 1 << 20,
                    .max_tool_calls = 100,
                    .max_tool_concurrency = 8};
}

std::string describe_default_limits() {
  const CodeLimits limits = default_limits();
  std::string text;
  for (const CodeLimitField& limit : kCodeLimitFields) {
    text.append("  ").append(limit.name).append(" ");
    text.append(std::to_string(limits.*limit.member)).append("\n");
  }
  return text;
}

Result<CodeLimits> apply_limit_overrides(CodeLimits limits, const Json& overrides) {
  if (!overrides.is_object()) return usage_error("--limits: the file must hold a JSON object.");
  for (const auto& [name, value] : overrides.items()) {
    const CodeLimitField* limit = find_limit(name);
    if (!limit) return usage_error("--limits: a field is not one of the nine limits.");
    if (!value.is_number_integer() ||
        (value.is_number_unsigned() && value.get<std::uint64_t>() > INT64_MAX)) {
      return usage_error("--limits: " + std::string(limit->name) + " must be an integer.");
    }
    limits.*limit->member = value.get<std::int64_t>();
  }
  // maxToolConcurrency was never written: its default follows maxToolCalls down, rather than a
  // default refusing the file. One written above maxToolCalls is still refused (rule "limits").
  if (overrides.contains("maxToolCalls") && !overrides.contains("maxToolConcurrency")) {
    limits.max_tool_concurrency = std::min(limits.max_tool_concurrency, limits.max_tool_calls);
  }
  return limits;
}

}  // namespace codemode::cli
