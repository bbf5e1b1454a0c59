#include "executor/outcome_messages.h"

#include <array>
#include <string>
#include <utility>

#include "codemode/rules.h"

#include "core/json/json_text.h"
#include "core/text/identifiers.h"
#include "core/text/utf16.h"

namespace codemode::internal {
namespace {

struct ReasonMapping {
  SandboxFailureReason reason;
  ErrorCode code;
  std::string_view rule;
  std::string_view message;
};

constexpr std::array<ReasonMapping, 6> kReasonMappings{{
    {SandboxFailureReason::kProgramError, ErrorCode::kToolFailed, rules::kProgramError,
     "The program threw an error, did not compile, or returned a promise that can never settle. "
     "programError holds what it threw, when the sandbox could report it."},
    {SandboxFailureReason::kCpuLimit, ErrorCode::kLimitExceeded, rules::kCpuLimit,
     "The program ran longer than its cpuMillis limit."},
    {SandboxFailureReason::kMemoryLimit, ErrorCode::kLimitExceeded, rules::kMemoryLimit,
     "The program needed more memory than its memoryBytes limit."},
    // Without an OutputFault: an adapter that did not say which way.
    {SandboxFailureReason::kInvalidOutput, ErrorCode::kInvalidOutput, rules::kInvalidOutput,
     "The program's result is not plain JSON within maxOutputBytes."},
    {SandboxFailureReason::kUnsupportedProgram, ErrorCode::kUnsupportedProfile,
     rules::kUnsupportedProgram,
     "This sandbox cannot run the program's language or approved imports."},
    {SandboxFailureReason::kSandboxError, ErrorCode::kToolFailed, rules::kSandboxError,
     "The sandbox failed before the program finished; its details are withheld."},
}};

struct OutputFaultMapping {
  OutputFault fault;
  std::string_view message;
};

// Code INVALID_OUTPUT; the rule is the fault's name (sandbox.h).
constexpr std::array<OutputFaultMapping, 8> kOutputFaultMappings{{
    {OutputFault::kMaxOutputBytes, "The program's result is longer than maxOutputBytes as JSON."},
    {OutputFault::kNotJson,
     "The program's result has no plain JSON form: undefined, a function, a symbol, a toJSON "
     "that returned undefined or threw, or a number JSON cannot hold."},
    {OutputFault::kCycle, "The program's result contains a cycle, which JSON cannot represent."},
    {OutputFault::kBigInt, "The program's result holds a BigInt, which JSON cannot represent."},
    {OutputFault::kLoneSurrogate,
     "The program's result holds a string with a lone UTF-16 surrogate, which has no UTF-8 "
     "form."},
    {OutputFault::kDepthLimit, "The program's result is nested deeper than 32 levels."},
    {OutputFault::kValuesLimit, "The program's result holds more than 100,000 JSON values."},
    {OutputFault::kReservedKey,
     "The program's result has an object key __proto__, constructor or prototype, which are "
     "reserved."},
}};

struct FaultMapping {
  SandboxFault fault;
  std::string_view message;
};

// Code TOOL_FAILED; the rule is the fault's name (sandbox.h).
constexpr std::array<FaultMapping, 3> kFaultMappings{{
    {SandboxFault::kWorkerStartFailed,
     "The sandbox worker could not be started or did not confirm its confinement; its details "
     "are withheld."},
    {SandboxFault::kWorkerProtocolError,
     "The sandbox worker broke the parent-worker protocol and was stopped; its details are "
     "withheld."},
    {SandboxFault::kWorkerExited,
     "The sandbox worker ended before returning a result; its details are withheld."},
}};

std::string with_schema_detail(std::string_view sentence, std::string_view detail) {
  std::string message(sentence);
  if (!detail.empty()) message.append(" ").append(detail);
  return message;
}

}  // namespace

Error sandbox_failure_error(const SandboxResult& result) {
  if (std::optional<OutputFault> output_fault = result.output_fault()) {
    return invalid_output_error(*output_fault);
  }
  for (const FaultMapping& mapping : kFaultMappings) {
    if (result.fault() == mapping.fault) {
      return Error::tool_failed(std::string(to_string(mapping.fault)),
                                std::string(mapping.message));
    }
  }
  return sandbox_reason_error(result.reason().value_or(SandboxFailureReason::kSandboxError));
}

Error sandbox_reason_error(SandboxFailureReason reason) {
  for (const ReasonMapping& mapping : kReasonMappings) {
    if (mapping.reason == reason) {
      return Error::with_code(mapping.code, std::string(mapping.rule),
                              std::string(mapping.message));
    }
  }
  return sandbox_reason_error(SandboxFailureReason::kSandboxError);
}

Error invalid_input_bytes_error() {
  return Error::invalid_input(
      "max_input_bytes", "The input is not plain JSON within the program's maxInputBytes limit.");
}

Error invalid_input_schema_error(std::string_view schema_detail) {
  return Error::invalid_input(
      "input_schema",
      with_schema_detail("The input does not match the program's input schema.", schema_detail));
}

Error invalid_output_error(OutputFault fault) {
  for (const OutputFaultMapping& mapping : kOutputFaultMappings) {
    if (mapping.fault == fault) {
      return Error::invalid_output(std::string(to_string(fault)), std::string(mapping.message));
    }
  }
  return sandbox_reason_error(SandboxFailureReason::kInvalidOutput);
}

Error invalid_output_schema_error(std::string_view schema_detail) {
  return Error::invalid_output(
      "output_schema",
      with_schema_detail("The program's result does not match its output schema.", schema_detail));
}

Error unknown_outcome_error() {
  return Error::outcome_unknown(
      "unknown_tool_outcome",
      "A tool call may or may not have taken effect, so the program's result was "
      "discarded. Reconcile the effect (see evidence) before retrying.");
}

Error cancelled_error() {
  return Error::cancelled("cancelled", "The execution was cancelled by its signal.");
}

Error wall_timeout_error() {
  return Error::timeout("wall_time_limit",
                        "The execution ran longer than the program's wallTimeMillis limit.");
}

Error adapter_unavailable_error(std::string_view adapter_id) {
  return Error::unsupported_profile(
      "adapter_unavailable",
      "Sandbox adapter \"" + std::string(adapter_id) +
          "\" is not available on this host, for example because its runtime or image is "
          "missing. Code Mode never runs a program outside its sandbox.");
}

std::optional<ProgramError> cap_program_error(const ProgramError& error) {
  if (!internal::is_valid_utf8(error.name) || !internal::is_valid_utf8(error.message))
    return std::nullopt;
  ProgramError capped{.name = truncate_utf16(error.name, 128),
                      .message = truncate_utf16(error.message, 1024)};
  if (error.location && error.location->line >= 1 && error.location->column >= 1 &&
      internal::is_valid_utf8(error.location->source_line)) {
    capped.location = ProgramErrorLocation{
        .line = error.location->line,
        .column = error.location->column,
        .source_line =
            truncate_utf16(error.location->source_line, ProgramErrorLocation::kMaxSourceLineUnits)};
  }
  return capped;
}

}  // namespace codemode::internal
