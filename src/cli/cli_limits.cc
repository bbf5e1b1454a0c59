#include "cli/cli_limits.h"

#include <array>
#include <cstdint>
#include <string_view>

#include "cli/cli_io.h"

namespace codemode::cli {
namespace {

struct LimitName {
  std::string_view name;
  std::int64_t CodeLimits::*member;
};

constexpr std::array<LimitName, 9> kLimitNames{{
    {"cpuMillis", &CodeLimits::cpu_millis},
    {"wallTimeMillis", &CodeLimits::wall_time_millis},
    {"memoryBytes", &CodeLimits::memory_bytes},
    {"scratchBytes", &CodeLimits::scratch_bytes},
    {"maxInputBytes", &CodeLimits::max_input_bytes},
    {"maxOutputBytes", &CodeLimits::max_output_bytes},
    {"maxToolInputBytes", &CodeLimits::max_tool_input_bytes},
    {"maxToolCalls", &CodeLimits::max_tool_calls},
    {"maxToolConcurrency", &CodeLimits::max_tool_concurrency},
}};

const LimitName* find_limit(std::string_view name) {
  for (const LimitName& limit : kLimitNames) {
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
  for (const LimitName& limit : kLimitNames) {
    text.append("  ").append(limit.name).append(" ");
    text.append(std::to_string(limits.*limit.member)).append("\n");
  }
  return text;
}

Result<CodeLimits> apply_limit_overrides(CodeLimits limits, const Json& overrides) {
  if (!overrides.is_object()) return usage_error("--limits: the file must hold a JSON object.");
  for (const auto& [name, value] : overrides.items()) {
    const LimitName* limit = find_limit(name);
    if (!limit) return usage_error("--limits: a field is not one of the nine limits.");
    if (!value.is_number_integer() ||
        (value.is_number_unsigned() && value.get<std::uint64_t>() > INT64_MAX)) {
      return usage_error("--limits: " + std::string(limit->name) + " must be an integer.");
    }
    limits.*limit->member = value.get<std::int64_t>();
  }
  return limits;
}

}  // namespace codemode::cli
