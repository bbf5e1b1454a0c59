// Start here. CodeMode runs a CodeProgram in a sandbox and returns an outcome; it never evaluates
// a program itself and never falls back to running one outside a sandbox.
//
//   auto mode = CodeMode::create({.adapter = make_process_adapter(),
//                                 .invoke_tool = standard_broker({.permissions = {...},
//                                                                 .budget = budget})}).value();
//   CodeExecutionOutcome outcome = mode->execute(program, input, {
//       .run_id = "run-1", .execution_id = "run-1:total",
//       .scope = {.principal_id = "local", .project_id = "demo"}});
//
// execute never throws. Its steps: check the options; reserve the execution id (CONFLICT when it
// is running or among the last 100,000 finished); snapshot and check the input; check the adapter
// is available; start the wall timer (TIMEOUT) and follow the caller's stop_token (CANCELLED); run
// the adapter with a ToolBridge (allow-list, maxToolCalls, maxToolConcurrency, byte caps, then the
// broker); close the bridge and wait for every admitted call to settle; derive usage; map the
// result; check the output against its schema.
//
// Ownership: CodeMode::create (the one way to make one) returns its sole owner; the CodeMode shares
// the adapter (shared_ptr) and keeps a copy of the broker, and owns the threads its tool calls run
// on. Outcomes are plain values owned by the caller.
// Thread-safety: execute may be called from many threads at once. REQUIRES: no execute is running
// when the CodeMode is destroyed.
#ifndef CODEMODE_CODE_MODE_H_
#define CODEMODE_CODE_MODE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "codemode/budget.h"
#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/permissions.h"
#include "codemode/program.h"
#include "codemode/sandbox.h"
#include "codemode/tool.h"

namespace codemode {

// Handed to the broker for each tool call a program makes.
struct BrokerContext {
  std::string run_id;
  std::string execution_id;
  std::string call_id;  // "<execution_id>:code:<n>", n counting from 1
  std::string program_digest;
  Scope scope;
  std::stop_token stop_token;  // fires on timeout or cancellation; the broker must honour it
  // The program's limits for this call's data: the input was checked against the first, the
  // output will be checked against the second.
  std::size_t max_tool_input_bytes = 0;
  std::size_t max_output_bytes = 0;
};

// The host's broker: applies its own policy and calls the tool (normally through invoke_tool).
// Called on a thread of the executor's; may block. An exception counts as an unknown outcome.
using ToolBroker =
    std::function<ToolOutcome(const Tool& tool, const Json& input, const BrokerContext& context)>;

struct StandardBrokerOptions {
  Permissions permissions;
  std::shared_ptr<Budget> budget;  // required
};
// A ToolBroker that calls invoke_tool with these permissions and budget, and the context's
// identity, stop_token and byte limits.
CODEMODE_EXPORT ToolBroker standard_broker(StandardBrokerOptions options);

// What an execution ends as when one of its calls has an unknown outcome (an effect that may or
// may not have happened: a tool with effects that timed out, threw or never answered).
enum class UnknownOutcomes : int {
  // OUTCOME_UNKNOWN (rule unknown_tool_outcome), whatever the program returned: the caller
  // reconciles from the evidence before trusting anything. The default.
  kEndExecution = 1,
  // The program's own outcome: it saw the call end outcome_unknown and chose what to do. Weaker:
  // a program can then report success over an effect that may have happened. For a host whose
  // tools can all be repeated safely. usage.unknown_calls and the evidence still count the call.
  kLeaveToProgram,
};

struct CodeModeOptions {
  std::shared_ptr<SandboxAdapter> adapter;  // required
  ToolBroker invoke_tool;                   // required
  // Accept an adapter qualified kTest. No effect on a production adapter.
  bool allow_test_adapter = false;
  UnknownOutcomes unknown_outcomes = UnknownOutcomes::kEndExecution;
  // Whether a call to a tool declared non_blocking (ToolOptions) may run the broker on the thread
  // that read the call. Set false when this broker may wait for such a tool (it asks a person or
  // a remote policy service): a waiting broker there holds up the execution's other calls.
  bool run_non_blocking_tools_inline = true;
};

struct ExecuteOptions {
  std::string run_id;          // 1..256 characters after trimming
  std::string execution_id;    // 1..256 characters; new for every execution
  Scope scope;                 // principal_id and project_id: 1..256 characters each
  std::stop_token stop_token;  // cancels the execution: status cancelled, code CANCELLED
};

// Host-derived accounting of one execution.
struct CodeExecutionUsage {
  std::int64_t tool_calls = 0;           // broker calls that settled
  std::int64_t unknown_calls = 0;        // calls without an admissible receipt, or receipt unknown
  std::int64_t known_cost_micros = 0;    // declared cost of calls that succeeded or failed
  std::int64_t unknown_cost_micros = 0;  // declared cost of unknown calls
  std::int64_t maximum_cost_micros = 0;  // max declared tool cost x maxToolCalls
  friend bool operator==(const CodeExecutionUsage&, const CodeExecutionUsage&) = default;
};

struct ExecutionEvidence {
  std::string run_id;
  ExecutionReceipt receipt;
  friend bool operator==(const ExecutionEvidence&, const ExecutionEvidence&) = default;
};

struct CodeExecutionOutcome {
  OutcomeStatus status = OutcomeStatus::kFailed;
  std::optional<Json> output;  // exactly when succeeded
  std::optional<Error> error;  // exactly when not succeeded
  CodeExecutionUsage usage;
  // Only for program errors (code TOOL_FAILED): what the program threw, capped. Untrusted.
  std::optional<ProgramError> program_error;
  // A model-profile program's console lines (within the sandbox's cap), whatever its status.
  // Untrusted.
  std::optional<ProgramLogs> logs;
  std::vector<ExecutionEvidence> evidence;  // admitted receipts, in settlement order
  // How much the worker wrote to its stderr (sandbox.h), for the host's own log: never its
  // content, and not in to_json, so a caller shown the outcome never sees it.
  WorkerDiagnostics diagnostics;

  bool ok() const { return status == OutcomeStatus::kSucceeded; }
};

class CODEMODE_EXPORT CodeMode {
 public:
  // INVALID_CONFIG without an adapter or broker. UNSUPPORTED_PROFILE (rule "test_adapter") for a
  // test-qualified adapter without allow_test_adapter.
  static Result<std::unique_ptr<CodeMode>> create(CodeModeOptions options);
  ~CodeMode();

  CodeExecutionOutcome execute(const CodeProgram& program, const Json& input,
                               const ExecuteOptions& options) noexcept;

  const SandboxAdapter& adapter() const;

 private:
  struct Impl;
  explicit CodeMode(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The outcome as JSON, the shape the command line prints:
//   {"status", "output"?, "error"?: {"code", "rule", "message"}, "programError"?: {"name",
//    "message", "line"?, "column"?, "sourceLine"?}, "logs"?: [string], "logsDropped"?, "usage":
//    {"toolCalls", "unknownCalls", "knownCostMicros", "unknownCostMicros", "maximumCostMicros"},
//    "evidence"?: [{"runId", "receipt": {"callId", "toolId", "execution", "disclosure"}}]}
CODEMODE_EXPORT Json to_json(const CodeExecutionOutcome& outcome);

}  // namespace codemode

#endif  // CODEMODE_CODE_MODE_H_
