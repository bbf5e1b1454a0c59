#include "protocol/output_fault.h"

#include <string>

#include "codemode/rules.h"

namespace codemode::internal {

OutputFault output_fault_of(const Error& json_error) {
  // The JSON boundary's rules, said of a result.
  const std::string& rule = json_error.rule;
  if (rule == rules::kJsonBytesLimit) return OutputFault::kMaxOutputBytes;
  if (rule == rules::kJsonDepthLimit) return OutputFault::kDepthLimit;
  if (rule == rules::kJsonValuesLimit) return OutputFault::kValuesLimit;
  if (rule == rules::kJsonKey) return OutputFault::kReservedKey;
  return OutputFault::kNotJson;
}

}  // namespace codemode::internal
