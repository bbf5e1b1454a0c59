// The nine program limits as one table: manifest name, member and maximum, in manifest order.
// Program checks, the manifest and the command line's LIMITS.json all read this one table.
#ifndef CODEMODE_TOOLS_PROGRAM_CODE_LIMIT_FIELDS_H_
#define CODEMODE_TOOLS_PROGRAM_CODE_LIMIT_FIELDS_H_

#include <array>
#include <cstdint>
#include <string_view>

#include "codemode/program.h"

namespace codemode::internal {

struct CodeLimitField {
  std::string_view name;  // the manifest (camelCase) name
  std::int64_t CodeLimits::*member;
  std::int64_t maximum;
};

inline constexpr std::array<CodeLimitField, 9> kCodeLimitFields{{
    {"cpuMillis", &CodeLimits::cpu_millis, CodeLimitMaxima::kCpuMillis},
    {"wallTimeMillis", &CodeLimits::wall_time_millis, CodeLimitMaxima::kWallTimeMillis},
    {"memoryBytes", &CodeLimits::memory_bytes, CodeLimitMaxima::kMemoryBytes},
    {"scratchBytes", &CodeLimits::scratch_bytes, CodeLimitMaxima::kScratchBytes},
    {"maxInputBytes", &CodeLimits::max_input_bytes, CodeLimitMaxima::kMaxInputBytes},
    {"maxOutputBytes", &CodeLimits::max_output_bytes, CodeLimitMaxima::kMaxOutputBytes},
    {"maxToolInputBytes", &CodeLimits::max_tool_input_bytes, CodeLimitMaxima::kMaxToolInputBytes},
    {"maxToolCalls", &CodeLimits::max_tool_calls, CodeLimitMaxima::kMaxToolCalls},
    {"maxToolConcurrency", &CodeLimits::max_tool_concurrency, CodeLimitMaxima::kMaxToolConcurrency},
}};

}  // namespace codemode::internal

#endif  // CODEMODE_TOOLS_PROGRAM_CODE_LIMIT_FIELDS_H_
