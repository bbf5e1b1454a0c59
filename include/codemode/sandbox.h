// SandboxAdapter is the extension point that runs a program somewhere it can do nothing but compute
// and call tools. The executor (code_mode.h) owns every rule; an adapter only runs the program and
// relays its tool calls through the ToolBridge it is handed.
//
// Built in, four: the process adapter (process_adapter.h: "codemode.process", or
// "codemode.isolated" with namespaces, ".jit" for the JIT profile; production: a fresh confined
// worker process per execution), the Docker adapter (docker_adapter.h: "codemode.docker",
// production: that worker in a fresh container, plain or promoted), the protocol adapter
// (protocol_adapter.h: the worker launched by the host's own command; test unless the host says
// production) and the test adapter (test_sandbox.h: C++ callables, for tests only).
// sandbox_config.h makes the first three from a configuration file.
//
// Ownership: an adapter is shared (shared_ptr) by whoever holds it; a SandboxRequest and the
// ToolBridge are borrowed for one execute; SandboxResult and CodeToolOutcome are plain values.
// Thread-safety: an adapter's execute may be called from several threads at once, one call per
// execution. The bridge's methods are thread-safe.
#ifndef CODEMODE_SANDBOX_H_
#define CODEMODE_SANDBOX_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/program.h"

namespace codemode {

// "production": meets documented and tested isolation guarantees. "test": for fixtures only; an
// executor refuses it unless created with allow_test_adapter.
enum class AdapterQualification : int { kProduction = 1, kTest };
CODEMODE_EXPORT std::string_view to_string(AdapterQualification qualification);

// Why a sandbox reports failure. Closed list; add at the end.
enum class SandboxFailureReason : int {
  kProgramError = 1,    // "program_error": threw, did not compile, or can never settle
  kCpuLimit,            // "cpu_limit"
  kMemoryLimit,         // "memory_limit"
  kInvalidOutput,       // "invalid_output": the result is not plain JSON within maxOutputBytes
                        // (which way: OutputFault)
  kUnsupportedProgram,  // "unsupported_program": language or approved imports not supported
  kSandboxError,        // "sandbox_error": the sandbox itself failed
};
CODEMODE_EXPORT std::string_view to_string(SandboxFailureReason reason);
CODEMODE_EXPORT std::optional<SandboxFailureReason> sandbox_failure_reason_from_string(
    std::string_view text);

// Which failure of the sandbox itself, when the reason is kSandboxError. The executor reports it
// as the Error's rule (code TOOL_FAILED, a fixed message per fault); without one the rule is
// "sandbox_error". Only the adapter decides it, from what it saw: a worker never reports one.
// Closed list; add at the end.
enum class SandboxFault : int {
  kWorkerStartFailed = 1,  // "worker_start_failed": no worker could be started, or it ended
                           // before confirming its confinement
  kWorkerProtocolError,    // "worker_protocol_error": the worker broke the frame protocol
                           // (docs/protocol.md); it was killed
  kWorkerExited,           // "worker_exited": the worker died (by a signal, the system-call
                           // filter's SIGSYS included) or exited before sending its result
};
CODEMODE_EXPORT std::string_view to_string(SandboxFault fault);
CODEMODE_EXPORT std::optional<SandboxFault> sandbox_fault_from_string(std::string_view text);

// Why the result is not valid output, when the reason is kInvalidOutput. The executor reports it as
// the Error's rule (code INVALID_OUTPUT, a fixed message per fault); without one the rule is
// "invalid_output". The executor's own check of a result decides it the same way. Closed list; add
// at the end.
enum class OutputFault : int {
  kMaxOutputBytes = 1,  // "max_output_bytes": its JSON text is longer than maxOutputBytes
  kNotJson,             // "output_not_json": it has no JSON text (undefined, a function, a
                        // symbol, a toJSON that returns undefined or throws), or holds what plain
                        // JSON cannot (NaN, an infinity, an integer beyond 2^53 - 1, bad UTF-8)
  kCycle,               // "output_cycle": it contains itself
  kBigInt,              // "output_bigint": it holds a BigInt
  kLoneSurrogate,       // "output_lone_surrogate": a string or key holds an unpaired UTF-16
                        // surrogate, which has no UTF-8 form
  kDepthLimit,          // "output_depth_limit": nested deeper than 32 levels
  kValuesLimit,         // "output_values_limit": more than 100,000 values
  kReservedKey,         // "output_reserved_key": an object key is __proto__, constructor or
                        // prototype, which plain JSON reserves
};
CODEMODE_EXPORT std::string_view to_string(OutputFault fault);
CODEMODE_EXPORT std::optional<OutputFault> output_fault_from_string(std::string_view text);

// Where in the program's own text (its source, or the code a model wrote for the MCP code tool)
// an error was raised: 1-based line and column, the column in UTF-16 code units, and that line of
// the text, capped at kMaxSourceLineUnits. Program text: never written to audit records.
struct ProgramErrorLocation {
  static constexpr std::size_t kMaxSourceLineUnits = 200;
  std::int64_t line = 1;
  std::int64_t column = 1;
  std::string source_line;
  friend bool operator==(const ProgramErrorLocation&, const ProgramErrorLocation&) = default;
};

// What the program threw. Untrusted program output: it may contain tool data.
struct ProgramError {
  std::string name;     // capped at 128 UTF-16 code units by the executor
  std::string message;  // capped at 1,024 UTF-16 code units by the executor
  // Set for a syntax error, and for an error whose innermost frame of the program's own code the
  // engine recorded (docs/programs.md, "Errors").
  std::optional<ProgramErrorLocation> location;
  friend bool operator==(const ProgramError&, const ProgramError&) = default;
};

// What a model-profile program wrote with console.log and its siblings: the lines, within the
// byte cap the sandbox was given, and how many lines were dropped past it (all of them when the
// cap is 0). Untrusted program output.
struct ProgramLogs {
  std::vector<std::string> lines;
  std::uint64_t dropped = 0;
  friend bool operator==(const ProgramLogs&, const ProgramLogs&) = default;
};

// What a worker wrote to its stderr (an engine's warnings, a crash report): counted, never kept.
// The adapter drains the pipe and drops every byte, so nothing of it reaches a result, an error, a
// log or a client; the count lets an operator see that a worker wrote diagnostics and run the
// program again locally to read them. Counting stops at kMaxDiagnosticBytes.
struct WorkerDiagnostics {
  static constexpr std::uint64_t kMaxDiagnosticBytes = 64u << 10;
  std::uint64_t diagnostic_bytes = 0;  // bytes seen, at most kMaxDiagnosticBytes
  bool diagnostics_truncated = false;  // the worker wrote more than kMaxDiagnosticBytes

  // Adds `bytes` seen, saturating at the cap.
  void count(std::uint64_t bytes) {
    const std::uint64_t room = kMaxDiagnosticBytes - diagnostic_bytes;
    if (bytes > room) diagnostics_truncated = true;
    diagnostic_bytes += bytes > room ? room : bytes;
  }
  friend bool operator==(const WorkerDiagnostics&, const WorkerDiagnostics&) = default;
};

// What an adapter returns: a success with the program's output, or a failure with its reason.
// Only the named constructors build one, so every result has one of these shapes:
//   success(output)                    succeeded; output set
//   failure(reason[, program_error])   failed; program_error kept only with kProgramError
//   failure(SandboxFault)              failed with kSandboxError; fault set
//   failure(OutputFault)               failed with kInvalidOutput; output_fault set
// A plain value: it owns its output; safe to move between threads.
class CODEMODE_EXPORT SandboxResult {
 public:
  static SandboxResult success(Json output);
  // `program_error` is dropped unless `reason` is kProgramError.
  static SandboxResult failure(SandboxFailureReason reason,
                               std::optional<ProgramError> program_error = {});
  // Reason kSandboxError with `fault`.
  static SandboxResult failure(SandboxFault fault);
  // Reason kInvalidOutput with `fault`.
  static SandboxResult failure(OutputFault fault);

  bool succeeded() const { return output_.has_value(); }
  // Set exactly when succeeded.
  const std::optional<Json>& output() const& { return output_; }
  std::optional<Json> output() && { return std::move(output_); }
  // Set exactly when failed.
  std::optional<SandboxFailureReason> reason() const { return reason_; }
  // Set only when the reason is kProgramError (and the sandbox could report what was thrown).
  const std::optional<ProgramError>& program_error() const { return program_error_; }
  // Set only when the reason is kSandboxError (and the adapter named the fault).
  std::optional<SandboxFault> fault() const { return fault_; }
  // Set only when the reason is kInvalidOutput (and the adapter named the fault).
  std::optional<OutputFault> output_fault() const { return output_fault_; }
  // What a model-profile program logged, success or failure; unset for a standard program.
  const std::optional<ProgramLogs>& logs() const { return logs_; }
  SandboxResult with_logs(ProgramLogs logs) && {
    logs_ = std::move(logs);
    return std::move(*this);
  }
  // What the worker wrote to its stderr, whatever the result; zero when the adapter has no worker
  // or it wrote nothing. Set by the adapter, never from anything the worker reports.
  const WorkerDiagnostics& diagnostics() const { return diagnostics_; }
  SandboxResult with_diagnostics(WorkerDiagnostics diagnostics) && {
    diagnostics_ = diagnostics;
    return std::move(*this);
  }

 private:
  SandboxResult() = default;

  std::optional<Json> output_;
  std::optional<SandboxFailureReason> reason_;
  std::optional<ProgramError> program_error_;
  std::optional<SandboxFault> fault_;
  std::optional<OutputFault> output_fault_;
  std::optional<ProgramLogs> logs_;
  WorkerDiagnostics diagnostics_;
};

// What a program sees from tools.call: {status:"succeeded", output} or
// {status, error:{code, rule, message}} with a fixed message written by codemode, or, for a call
// the tool failed with ToolResponder::fail(text), that text (ToolOutcome::tool_message).
// Only the named constructors build one, so it is a success with its output or a failure with
// its code, rule and message, never a mix. A plain value: it owns its data; safe to move between
// threads.
class CODEMODE_EXPORT CodeToolOutcome {
 public:
  static CodeToolOutcome success(Json output);
  // `status` is how the call ended (a kSucceeded status is taken as status_of(code)). `rule` is
  // the snake_case rule of the refusal or failure ("max_tool_calls", "input_schema",
  // "tool_timeout", ...), at most 64 of [a-z0-9_]; empty, or anything else, becomes the code in
  // lower case ("tool_failed").
  static CodeToolOutcome failure(OutcomeStatus status, ErrorCode code, std::string_view rule,
                                 std::string message);

  OutcomeStatus status() const { return status_; }
  bool ok() const { return status_ == OutcomeStatus::kSucceeded; }
  // Set exactly when ok().
  const std::optional<Json>& output() const { return output_; }
  // The failure: REQUIRES !ok() (a success has code TOOL_FAILED and an empty rule and message).
  ErrorCode code() const { return code_; }
  const std::string& rule() const { return rule_; }
  const std::string& message() const { return message_; }

  // The guest-visible JSON form described above.
  Json to_json() const;

 private:
  CodeToolOutcome() = default;

  OutcomeStatus status_ = OutcomeStatus::kFailed;
  std::optional<Json> output_;
  ErrorCode code_ = ErrorCode::kToolFailed;
  std::string rule_;
  std::string message_;
};

// The host side of tools.call, handed to SandboxAdapter::execute for one execution. It applies the
// allow-list, the call and concurrency caps and the byte caps, then the broker.
class CODEMODE_EXPORT ToolBridge {
 public:
  using Callback = std::function<void(CodeToolOutcome outcome)>;
  virtual ~ToolBridge() = default;

  // Asks the host to call `tool_id` with `input`. `done` is called exactly once: before call
  // returns when the call is refused, otherwise later on another thread. Never throws.
  // After the execution ended, every call is refused (CONFLICT, or the abort's code).
  virtual void call(std::string_view tool_id, Json input, Callback done) = 0;

  // As call, except that an admitted call to a tool declared non_blocking (ToolOptions) may run
  // on the calling thread, `done` then called before this returns. For an adapter whose calling
  // thread may wait for such a tool (the thread that reads the worker's frames, in the process,
  // protocol and Docker adapters); the default is call.
  virtual void call_inline_if_non_blocking(std::string_view tool_id, Json input, Callback done);

  // call, then wait for the answer.
  CodeToolOutcome call_and_wait(std::string_view tool_id, Json input);
};

// Borrowed views, valid for the duration of execute.
struct SandboxRequest {
  const std::string& execution_id;
  const CodeProgram& program;  // manifest, source, limits, tools
  const Json& input;           // already checked against the input schema and maxInputBytes
};

class CODEMODE_EXPORT SandboxAdapter {
 public:
  virtual ~SandboxAdapter() = default;

  virtual std::string id() const = 0;       // e.g. "codemode.process"
  virtual std::string version() const = 0;  // e.g. "1.0.0"
  virtual AdapterQualification qualification() const = 0;

  // Whether this adapter can run programs on this machine now (its binary, engine and kernel
  // features are present). The executor fails an execution UNSUPPORTED_PROFILE when false; it
  // never runs a program any other way. An exception counts as false.
  virtual bool is_available() = 0;

  // Runs request.program once. REQUIRES: return promptly once `stop` fires (kill what runs the
  // program). Must not call the bridge after returning. An exception counts as kSandboxError.
  virtual SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                                std::stop_token stop) = 0;
};

}  // namespace codemode

#endif  // CODEMODE_SANDBOX_H_
