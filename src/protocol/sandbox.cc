// The value types of the sandbox adapter interface (include/codemode/sandbox.h): what an execution
// asks of a sandbox and what it answers, the terms both ends of the wire protocol speak. Here
// rather than with the adapters, since the worker links them too.
#include "codemode/sandbox.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <utility>

#include "codemode/rules.h"

#include "core/text/enum_names.h"
#include "core/text/identifiers.h"

namespace codemode {
namespace {

// Each name is also the rule an execution that ends so reports (outcome_messages.h) and the value
// the worker's result frame carries (docs/protocol.md).
constexpr internal::EnumNames<SandboxFailureReason, 6> kReasonNames{{
    {SandboxFailureReason::kProgramError, rules::kProgramError},
    {SandboxFailureReason::kCpuLimit, rules::kCpuLimit},
    {SandboxFailureReason::kMemoryLimit, rules::kMemoryLimit},
    {SandboxFailureReason::kInvalidOutput, rules::kInvalidOutput},
    {SandboxFailureReason::kUnsupportedProgram, rules::kUnsupportedProgram},
    {SandboxFailureReason::kSandboxError, rules::kSandboxError},
}};
static_assert(internal::names_are_unique(kReasonNames));

constexpr internal::EnumNames<SandboxFault, 3> kFaultNames{{
    {SandboxFault::kWorkerStartFailed, rules::kWorkerStartFailed},
    {SandboxFault::kWorkerProtocolError, rules::kWorkerProtocolError},
    {SandboxFault::kWorkerExited, rules::kWorkerExited},
}};
static_assert(internal::names_are_unique(kFaultNames));

constexpr internal::EnumNames<OutputFault, 8> kOutputFaultNames{{
    {OutputFault::kMaxOutputBytes, rules::kMaxOutputBytes},
    {OutputFault::kNotJson, rules::kOutputNotJson},
    {OutputFault::kCycle, rules::kOutputCycle},
    {OutputFault::kBigInt, rules::kOutputBigint},
    {OutputFault::kLoneSurrogate, rules::kOutputLoneSurrogate},
    {OutputFault::kDepthLimit, rules::kOutputDepthLimit},
    {OutputFault::kValuesLimit, rules::kOutputValuesLimit},
    {OutputFault::kReservedKey, rules::kOutputReservedKey},
}};
static_assert(internal::names_are_unique(kOutputFaultNames));

}  // namespace

std::string_view to_string(AdapterQualification qualification) {
  return qualification == AdapterQualification::kProduction ? "production" : "test";
}

std::string_view to_string(SandboxFailureReason reason) {
  return internal::name_of(kReasonNames, reason, rules::kSandboxError);
}

std::optional<SandboxFailureReason> sandbox_failure_reason_from_string(std::string_view text) {
  return internal::value_of(kReasonNames, text);
}

std::string_view to_string(SandboxFault fault) {
  return internal::name_of(kFaultNames, fault, rules::kSandboxError);
}

std::optional<SandboxFault> sandbox_fault_from_string(std::string_view text) {
  return internal::value_of(kFaultNames, text);
}

std::string_view to_string(OutputFault fault) {
  return internal::name_of(kOutputFaultNames, fault, rules::kInvalidOutput);
}

std::optional<OutputFault> output_fault_from_string(std::string_view text) {
  return internal::value_of(kOutputFaultNames, text);
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
