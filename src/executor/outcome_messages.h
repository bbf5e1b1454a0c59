// Every message the executor writes, in one place (what the program sees from tools.call is in
// protocol/tool_refusal.h, shared with the worker): how an
// adapter's failure reason maps to a public code, and the executor's own outcomes. None of them
// carries program text or tool data.
//
// Thread-safety: pure functions returning values.
#ifndef CODEMODE_EXECUTOR_OUTCOME_MESSAGES_H_
#define CODEMODE_EXECUTOR_OUTCOME_MESSAGES_H_

#include <optional>
#include <string_view>

#include "codemode/error.h"
#include "codemode/sandbox.h"

namespace codemode::internal {

// The public error for an adapter's failed result: with kSandboxError its fault (when set) is the
// rule; with kInvalidOutput its output fault is (invalid_output_error); otherwise, or without a
// fault, the reason's own rule (sandbox_reason_error). REQUIRES: !result.succeeded().
Error sandbox_failure_error(const SandboxResult& result);
// The public error for a failure reason without a fault: its code, the reason's name as the rule,
// and a fixed message.
Error sandbox_reason_error(SandboxFailureReason reason);

// The executor's own outcomes.
Error invalid_input_bytes_error();
Error invalid_input_schema_error(std::string_view schema_detail);
// INVALID_OUTPUT with the fault's name as the rule and a fixed message for it.
Error invalid_output_error(OutputFault fault);
Error invalid_output_schema_error(std::string_view schema_detail);
Error unknown_outcome_error();
Error cancelled_error();
Error wall_timeout_error();
Error adapter_unavailable_error(std::string_view adapter_id);

// Caps what a program threw: name to 128 and message to 1,024 UTF-16 code units. nullopt when
// either is not valid UTF-8 (it cannot have come from a JavaScript string).
std::optional<ProgramError> cap_program_error(const ProgramError& error);

}  // namespace codemode::internal

#endif  // CODEMODE_EXECUTOR_OUTCOME_MESSAGES_H_
