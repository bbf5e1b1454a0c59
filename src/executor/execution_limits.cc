#include "executor/execution_limits.h"

#include "executor/outcome_messages.h"
#include "protocol/output_fault.h"
#include "protocol/tool_refusal.h"

namespace codemode::internal {
namespace {

bool within_bytes(const Json& value, std::int64_t max_bytes) {
  return check_json(value, JsonLimits{.max_bytes = static_cast<std::size_t>(max_bytes)}).ok();
}

}  // namespace

Status ExecutionLimits::check_input(const Json& input) const {
  if (within_bytes(input, program_.limits().max_input_bytes)) return {};
  return invalid_input_bytes_error();
}

Status ExecutionLimits::admit_tool_call(std::string_view tool_id, std::int64_t admitted,
                                        std::int64_t in_flight) const {
  if (program_.find_tool(tool_id) == nullptr) {
    return Error::permission_denied("tool_not_listed",
                                    std::string(bridge_message(ErrorCode::kPermissionDenied)));
  }
  const CodeLimits& limits = program_.limits();
  if (admitted >= limits.max_tool_calls) {
    return Error::limit_exceeded("max_tool_calls",
                                 std::string(bridge_message(ErrorCode::kLimitExceeded)));
  }
  if (in_flight >= limits.max_tool_concurrency) {
    return Error::limit_exceeded("max_tool_concurrency",
                                 std::string(bridge_message(ErrorCode::kLimitExceeded)));
  }
  return {};
}

Status ExecutionLimits::check_tool_input(const Json& input) const {
  if (within_bytes(input, program_.limits().max_tool_input_bytes)) return {};
  return Error::invalid_input("max_tool_input_bytes",
                              std::string(bridge_message(ErrorCode::kInvalidInput)));
}

Status ExecutionLimits::check_tool_output(const Json& output) const {
  if (within_bytes(output, program_.limits().max_output_bytes)) return {};
  return Error::tool_failed("max_tool_output_bytes",
                            std::string(bridge_message(ErrorCode::kToolFailed)));
}

Status ExecutionLimits::check_result(const Json& result) const {
  const auto max_bytes = static_cast<std::size_t>(program_.limits().max_output_bytes);
  Result<std::size_t> checked = check_json(result, JsonLimits{.max_bytes = max_bytes});
  if (checked.ok()) return {};
  return invalid_output_error(output_fault_of(checked.error()));
}

}  // namespace codemode::internal
