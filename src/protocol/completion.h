// How one program run ended, as the worker reports it in its result frame.
#ifndef CODEMODE_PROTOCOL_COMPLETION_H_
#define CODEMODE_PROTOCOL_COMPLETION_H_

#include <optional>
#include <utility>

#include "codemode/json.h"
#include "codemode/sandbox.h"

namespace codemode::worker {

// output set on success; otherwise reason, program_error only with kProgramError and
// output_fault only (and always) with kInvalidOutput.
struct Completion {
  std::optional<Json> output;
  SandboxFailureReason reason = SandboxFailureReason::kSandboxError;
  std::optional<ProgramError> program_error;
  std::optional<OutputFault> output_fault;
  std::optional<ProgramLogs> logs;  // model profile only

  static Completion success(Json output) { return Completion{.output = std::move(output)}; }
  static Completion failure(SandboxFailureReason reason,
                            std::optional<ProgramError> program_error = {}) {
    return Completion{.reason = reason, .program_error = std::move(program_error)};
  }
  static Completion invalid_output(OutputFault fault) {
    return Completion{.reason = SandboxFailureReason::kInvalidOutput, .output_fault = fault};
  }
  bool succeeded() const { return output.has_value(); }
};

}  // namespace codemode::worker

#endif  // CODEMODE_PROTOCOL_COMPLETION_H_
