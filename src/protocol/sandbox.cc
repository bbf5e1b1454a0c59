// The value types of the sandbox adapter interface (include/codemode/sandbox.h): what an execution
// asks of a sandbox and what it answers, the terms both ends of the wire protocol speak. Here
// rather than with the adapters, since the worker links them too.
#include "codemode/sandbox.h"

#include <array>
#include <condition_variable>
#include <mutex>
#include <string>
#include <utility>

#include "core/text/identifiers.h"

namespace codemode {
namespace {

constexpr std::array<std::pair<SandboxFailureReason, std::string_view>, 6> kReasonNames{{
    {SandboxFailureReason::kProgramError, "program_error"},
    {SandboxFailureReason::kCpuLimit, "cpu_limit"},
    {SandboxFailureReason::kMemoryLimit, "memory_limit"},
    {SandboxFailureReason::kInvalidOutput, "invalid_output"},
    {SandboxFailureReason::kUnsupportedProgram, "unsupported_program"},
    {SandboxFailureReason::kSandboxError, "sandbox_error"},
}};

constexpr std::array<std::pair<SandboxFault, std::string_view>, 3> kFaultNames{{
    {SandboxFault::kWorkerStartFailed, "worker_start_failed"},
    {SandboxFault::kWorkerProtocolError, "worker_protocol_error"},
    {SandboxFault::kWorkerExited, "worker_exited"},
}};

constexpr std::array<std::pair<OutputFault, std::string_view>, 8> kOutputFaultNames{{
    {OutputFault::kMaxOutputBytes, "max_output_bytes"},
    {OutputFault::kNotJson, "output_not_json"},
    {OutputFault::kCycle, "output_cycle"},
    {OutputFault::kBigInt, "output_bigint"},
    {OutputFault::kLoneSurrogate, "output_lone_surrogate"},
    {OutputFault::kDepthLimit, "output_depth_limit"},
    {OutputFault::kValuesLimit, "output_values_limit"},
    {OutputFault::kReservedKey, "output_reserved_key"},
}};

}  // namespace

std::string_view to_string(AdapterQualification qualification) {
  return qualification == AdapterQualification::kProduction ? "production" : "test";
}

std::string_view to_string(SandboxFailureReason reason) {
  for (const auto& [known, name] : kReasonNames) {
    if (known == reason) return name;
  }
  return "sandbox_error";
}

std::optional<SandboxFailureReason> sandbox_failure_reason_from_string(std::string_view text) {
  for (const auto& [reason, name] : kReasonNames) {
    if (name == text) return reason;
  }
  return std::nullopt;
}

std::string_view to_string(SandboxFault fault) {
  for (const auto& [known, name] : kFaultNames) {
    if (known == fault) return name;
  }
  return "sandbox_error";
}

std::optional<SandboxFault> sandbox_fault_from_string(std::string_view text) {
  for (const auto& [fault, name] : kFaultNames) {
    if (name == text) return fault;
  }
  return std::nullopt;
}

std::string_view to_string(OutputFault fault) {
  for (const auto& [known, name] : kOutputFaultNames) {
    if (known == fault) return name;
  }
  return "invalid_output";
}

std::optional<OutputFault> output_fault_from_string(std::string_view text) {
  for (const auto& [fault, name] : kOutputFaultNames) {
    if (name == text) return fault;
  }
  return std::nullopt;
}

SandboxResult SandboxResult::success(Json output) {
  SandboxResult result;
  result.output_ = std::move(output);
  return result;
}

SandboxResult SandboxResult::failure(SandboxFailureReason reason,
                                     std::optional<ProgramError> program_error) {
  SandboxResult result;
  result.reason_ = reason;
  if (reason == SandboxFailureReason::kProgramError) {
    result.program_error_ = std::move(program_error);
  }
  return result;
}

SandboxResult SandboxResult::failure(SandboxFault fault) {
  SandboxResult result = failure(SandboxFailureReason::kSandboxError);
  result.fault_ = fault;
  return result;
}

SandboxResult SandboxResult::failure(OutputFault fault) {
  SandboxResult result = failure(SandboxFailureReason::kInvalidOutput);
  result.output_fault_ = fault;
  return result;
}

CodeToolOutcome CodeToolOutcome::success(Json output) {
  CodeToolOutcome outcome;
  outcome.status_ = OutcomeStatus::kSucceeded;
  outcome.output_ = std::move(output);
  return outcome;
}

CodeToolOutcome CodeToolOutcome::failure(OutcomeStatus status, ErrorCode code,
                                         std::string_view rule, std::string message) {
  CodeToolOutcome outcome;
  outcome.status_ = status == OutcomeStatus::kSucceeded ? status_of(code) : status;
  outcome.code_ = code;
  outcome.rule_ = internal::is_rule_name(rule) ? std::string(rule) : internal::default_rule(code);
  outcome.message_ = std::move(message);
  return outcome;
}

Json CodeToolOutcome::to_json() const {
  if (ok()) return Json{{"status", "succeeded"}, {"output", output_.value_or(Json())}};
  return Json{{"status", to_string(status_)},
              {"error", Json{{"code", to_string(code_)}, {"rule", rule_}, {"message", message_}}}};
}

void ToolBridge::call_inline_if_non_blocking(std::string_view tool_id, Json input, Callback done) {
  call(tool_id, std::move(input), std::move(done));
}

CodeToolOutcome ToolBridge::call_and_wait(std::string_view tool_id, Json input) {
  struct Slot {
    std::mutex mu;
    std::condition_variable ready;
    std::optional<CodeToolOutcome> outcome;
  };
  auto slot = std::make_shared<Slot>();
  call(tool_id, std::move(input), [slot](CodeToolOutcome outcome) {
    std::lock_guard lock(slot->mu);
    slot->outcome = std::move(outcome);
    slot->ready.notify_all();
  });
  std::unique_lock lock(slot->mu);
  slot->ready.wait(lock, [&] { return slot->outcome.has_value(); });
  return std::move(*slot->outcome);
}

}  // namespace codemode
