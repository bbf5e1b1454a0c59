// The rules codemode reports. An Error's `code` (error.h) is coarse; its `rule` names the check
// that fired, and every rule codemode itself reports is one of the names below, each with the code
// it is reported with and what it means. Compare a rule against these names rather than spelling
// the string, and look one up with find_rule:
//
//   if (outcome.error && outcome.error->rule == codemode::rules::kMaxToolCalls) ...
//   const codemode::RuleInfo* rule = codemode::find_rule(error.rule);  // code, meaning
//
// Not listed, because the names are not codemode's: a tool's own failure (ToolResponder::fail_as,
// tool.h), a `codemode mcp` quota class's "<name>_limit" (except the repository tools' pages_limit
// and snapshots_limit, which codemode declares), and the lower-case code a CodeToolOutcome takes
// in place of a rule that is not a rule name (sandbox.h). docs/limits.md gives each limit's rule.
//
// A new rule gets its constant here and its row (code, meaning) in src/core/rules.cc: until then
// tests fail, as they scan src/ for the rules Errors are made with, and docs/limits.md.
//
// Thread-safety: constants, and lookups over a constant table.
#ifndef CODEMODE_RULES_H_
#define CODEMODE_RULES_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "codemode/error.h"
#include "codemode/export.h"

namespace codemode {

// One rule: its name, the code codemode reports it with, and what it means.
struct RuleInfo {
  std::string_view name;
  ErrorCode code;
  std::string_view meaning;  // one line
  // Codes besides `code` that some check reports the same rule with (bit 1 << value of each
  // ErrorCode); 0 for most rules.
  std::uint32_t other_codes = 0;
  // Whether CodeMode::execute can end an execution with it (CodeExecutionOutcome::error). A host
  // that turns an execution's failures into its own answers, as codemode mcp's code tool does,
  // needs an answer for each of these.
  bool ends_execution = false;

  // Whether codemode reports this rule with `error_code` anywhere.
  constexpr bool reported_with(ErrorCode error_code) const {
    const auto value = static_cast<unsigned>(error_code);
    return error_code == code || (value < 32 && ((other_codes >> value) & 1u) != 0);
  }
};

// Every rule, in the order of the names below; the same span on every call.
CODEMODE_EXPORT std::span<const RuleInfo> all_rules();

// The rule named `name`; nullptr for a name codemode does not report.
CODEMODE_EXPORT const RuleInfo* find_rule(std::string_view name);

namespace rules {
// How an execution ends (CodeMode::execute)
inline constexpr char kExecuteOptions[] = "execute_options";
inline constexpr char kExecutionIdReused[] = "execution_id_reused";
inline constexpr char kMaxInputBytes[] = "max_input_bytes";
inline constexpr char kInputSchema[] = "input_schema";
inline constexpr char kAdapterUnavailable[] = "adapter_unavailable";
inline constexpr char kUnknownToolOutcome[] = "unknown_tool_outcome";
inline constexpr char kCancelled[] = "cancelled";
inline constexpr char kWallTimeLimit[] = "wall_time_limit";
inline constexpr char kProgramError[] = "program_error";
inline constexpr char kCpuLimit[] = "cpu_limit";
inline constexpr char kMemoryLimit[] = "memory_limit";
inline constexpr char kInvalidOutput[] = "invalid_output";
inline constexpr char kUnsupportedProgram[] = "unsupported_program";
inline constexpr char kSandboxError[] = "sandbox_error";
inline constexpr char kWorkerStartFailed[] = "worker_start_failed";
inline constexpr char kWorkerProtocolError[] = "worker_protocol_error";
inline constexpr char kWorkerExited[] = "worker_exited";
inline constexpr char kMaxOutputBytes[] = "max_output_bytes";
inline constexpr char kOutputNotJson[] = "output_not_json";
inline constexpr char kOutputCycle[] = "output_cycle";
inline constexpr char kOutputBigint[] = "output_bigint";
inline constexpr char kOutputLoneSurrogate[] = "output_lone_surrogate";
inline constexpr char kOutputDepthLimit[] = "output_depth_limit";
inline constexpr char kOutputValuesLimit[] = "output_values_limit";
inline constexpr char kOutputReservedKey[] = "output_reserved_key";
inline constexpr char kOutputSchema[] = "output_schema";
inline constexpr char kInternalError[] = "internal_error";

// Setting up: programs, tools, schemas, executors
inline constexpr char kCodeModeOptions[] = "code_mode_options";
inline constexpr char kTestAdapter[] = "test_adapter";
inline constexpr char kProgramDefinition[] = "program_definition";
inline constexpr char kLimits[] = "limits";
inline constexpr char kSourceBytesLimit[] = "source_bytes_limit";
inline constexpr char kCostOverflow[] = "cost_overflow";
inline constexpr char kDuplicateTool[] = "duplicate_tool";
inline constexpr char kDuplicateImport[] = "duplicate_import";
inline constexpr char kToolDefinition[] = "tool_definition";
inline constexpr char kToolsFile[] = "tools_file";
inline constexpr char kSchema[] = "schema";
inline constexpr char kSchemaPattern[] = "schema_pattern";
inline constexpr char kPermissions[] = "permissions";
inline constexpr char kBudget[] = "budget";

// A tool call: the bridge, the broker, the budget
inline constexpr char kToolNotListed[] = "tool_not_listed";
inline constexpr char kMaxToolCalls[] = "max_tool_calls";
inline constexpr char kMaxToolConcurrency[] = "max_tool_concurrency";
inline constexpr char kMaxToolInputBytes[] = "max_tool_input_bytes";
inline constexpr char kMaxToolOutputBytes[] = "max_tool_output_bytes";
inline constexpr char kInvalidToolId[] = "invalid_tool_id";
inline constexpr char kAborted[] = "aborted";
inline constexpr char kBridgeClosed[] = "bridge_closed";
inline constexpr char kBridgeInternal[] = "bridge_internal";
inline constexpr char kBrokerInternal[] = "broker_internal";
inline constexpr char kInvokeOptions[] = "invoke_options";
inline constexpr char kPermission[] = "permission";
inline constexpr char kToolInputBytes[] = "tool_input_bytes";
inline constexpr char kInputGuard[] = "input_guard";
inline constexpr char kToolFailed[] = "tool_failed";
inline constexpr char kToolRefused[] = "tool_refused";
inline constexpr char kToolTimeout[] = "tool_timeout";
inline constexpr char kToolOutputBytes[] = "tool_output_bytes";
inline constexpr char kOutputGuard[] = "output_guard";
inline constexpr char kBudgetCalls[] = "budget_calls";
inline constexpr char kBudgetCost[] = "budget_cost";
inline constexpr char kBudgetSettlement[] = "budget_settlement";
inline constexpr char kBudgetSettledTwice[] = "budget_settled_twice";
inline constexpr char kSpawnFailed[] = "spawn_failed";

// The JSON boundary (INVALID_JSON wherever JSON crosses)
inline constexpr char kJsonSyntax[] = "json_syntax";
inline constexpr char kJsonBytesLimit[] = "json_bytes_limit";
inline constexpr char kJsonDepthLimit[] = "json_depth_limit";
inline constexpr char kJsonValuesLimit[] = "json_values_limit";
inline constexpr char kJsonNumber[] = "json_number";
inline constexpr char kJsonString[] = "json_string";
inline constexpr char kJsonKey[] = "json_key";

// Sandboxes and their adapters
inline constexpr char kForkServerFailed[] = "fork_server_failed";
inline constexpr char kProtocolAdapterOptions[] = "protocol_adapter_options";
inline constexpr char kDockerAdapterOptions[] = "docker_adapter_options";
inline constexpr char kDockerPromotion[] = "docker_promotion";

// Inside the worker: its own failures, reported to the parent as sandbox_error
inline constexpr char kWorkerEngine[] = "worker_engine";
inline constexpr char kWorkerOutput[] = "worker_output";
inline constexpr char kWorkerSignals[] = "worker_signals";
inline constexpr char kWorkerThread[] = "worker_thread";
inline constexpr char kWorkerWatchdog[] = "worker_watchdog";
inline constexpr char kSelfHostedCache[] = "self_hosted_cache";

// The worker's confinement layers (UNSUPPORTED_PROFILE: a layer could not take effect)
inline constexpr char kCapabilities[] = "capabilities";
inline constexpr char kFdClose[] = "fd_close";
inline constexpr char kFdVerify[] = "fd_verify";
inline constexpr char kNamespacesDetach[] = "namespaces_detach";
inline constexpr char kNamespacesFds[] = "namespaces_fds";
inline constexpr char kNamespacesMount[] = "namespaces_mount";
inline constexpr char kNamespacesNofile[] = "namespaces_nofile";
inline constexpr char kNamespacesPid[] = "namespaces_pid";
inline constexpr char kNamespacesPivotRoot[] = "namespaces_pivot_root";
inline constexpr char kNamespacesRoot[] = "namespaces_root";
inline constexpr char kNoNewPrivs[] = "no_new_privs";
inline constexpr char kNotDumpable[] = "not_dumpable";
inline constexpr char kParentDeathSignal[] = "parent_death_signal";
inline constexpr char kParentDied[] = "parent_died";
inline constexpr char kReadImpliesExec[] = "read_implies_exec";
inline constexpr char kRlimitAs[] = "rlimit_as";
inline constexpr char kRlimitCore[] = "rlimit_core";
inline constexpr char kRlimitCpu[] = "rlimit_cpu";
inline constexpr char kRlimitData[] = "rlimit_data";
inline constexpr char kRlimitFsize[] = "rlimit_fsize";
inline constexpr char kRlimitMemlock[] = "rlimit_memlock";
inline constexpr char kRlimitMsgqueue[] = "rlimit_msgqueue";
inline constexpr char kRlimitNofile[] = "rlimit_nofile";
inline constexpr char kRlimitNproc[] = "rlimit_nproc";
inline constexpr char kSeccompLoad[] = "seccomp_load";
inline constexpr char kSeccompPolicy[] = "seccomp_policy";
inline constexpr char kSeccompUnavailable[] = "seccomp_unavailable";

// The repository tools (a tool call's failure under the tool's own rule)
inline constexpr char kRepositoryTools[] = "repository_tools";
inline constexpr char kUnknownRepository[] = "unknown_repository";
inline constexpr char kRepositoryRefused[] = "repository_refused";
inline constexpr char kRepositoryUnreadable[] = "repository_unreadable";
inline constexpr char kEmptyRepository[] = "empty_repository";
inline constexpr char kUnknownRef[] = "unknown_ref";
inline constexpr char kUnknownSnapshot[] = "unknown_snapshot";
inline constexpr char kPathRefused[] = "path_refused";
inline constexpr char kPathNotFound[] = "path_not_found";
inline constexpr char kNotADirectory[] = "not_a_directory";
inline constexpr char kNotAFile[] = "not_a_file";
inline constexpr char kFileTooLarge[] = "file_too_large";
inline constexpr char kInvalidRange[] = "invalid_range";
inline constexpr char kInvalidPattern[] = "invalid_pattern";
inline constexpr char kPageTooSmall[] = "page_too_small";
inline constexpr char kCursorInvalid[] = "cursor_invalid";
inline constexpr char kCursorMismatch[] = "cursor_mismatch";
inline constexpr char kPagesLimit[] = "pages_limit";
inline constexpr char kSnapshotsLimit[] = "snapshots_limit";

// codemode mcp: its config, downstream servers, the code tool
inline constexpr char kMcpConfig[] = "mcp_config";
inline constexpr char kMcpDownstream[] = "mcp_downstream";
inline constexpr char kDownstreamTool[] = "downstream_tool";
inline constexpr char kDownstreamHandshake[] = "downstream_handshake";
inline constexpr char kDownstreamProtocol[] = "downstream_protocol";
inline constexpr char kDownstreamError[] = "downstream_error";
inline constexpr char kDownstreamExited[] = "downstream_exited";
inline constexpr char kDownstreamTimeout[] = "downstream_timeout";
inline constexpr char kToolNameCollision[] = "tool_name_collision";
inline constexpr char kMethodNameCollision[] = "method_name_collision";
inline constexpr char kIdentifierCollision[] = "identifier_collision";
inline constexpr char kSandboxUnavailable[] = "sandbox_unavailable";
inline constexpr char kInvocationUnknown[] = "invocation_unknown";
inline constexpr char kHostResultBytesLimit[] = "host_result_bytes_limit";
inline constexpr char kCumulativeHostBytesLimit[] = "cumulative_host_bytes_limit";
inline constexpr char kContentBlocksLimit[] = "content_blocks_limit";
inline constexpr char kContentBytesLimit[] = "content_bytes_limit";
inline constexpr char kServerHostOperationsLimit[] = "server_host_operations_limit";
inline constexpr char kHttpListen[] = "http_listen";
inline constexpr char kHttpToken[] = "http_token";
inline constexpr char kHttpTokenRequired[] = "http_token_required";

// Durable workflows: definitions, runs, approvals, audits, stores
inline constexpr char kWorkflowDefinition[] = "workflow_definition";
inline constexpr char kWorkflowBinding[] = "workflow_binding";
inline constexpr char kDuplicatePhase[] = "duplicate_phase";
inline constexpr char kPhaseSourceCharacters[] = "phase_source_characters";
inline constexpr char kPhaseToolCalls[] = "phase_tool_calls";
inline constexpr char kAuditScope[] = "audit_scope";
inline constexpr char kHashMaterial[] = "hash_material";
inline constexpr char kWorkflowRuntime[] = "workflow_runtime";
inline constexpr char kWorkflowInput[] = "workflow_input";
inline constexpr char kWorkflowOutput[] = "workflow_output";
inline constexpr char kPhaseInput[] = "phase_input";
inline constexpr char kBindingPath[] = "binding_path";
inline constexpr char kUnknownWorkflow[] = "unknown_workflow";
inline constexpr char kRun[] = "run";
inline constexpr char kPhase[] = "phase";
inline constexpr char kRunId[] = "run_id";
inline constexpr char kPhaseId[] = "phase_id";
inline constexpr char kRunExists[] = "run_exists";
inline constexpr char kRunBusy[] = "run_busy";
inline constexpr char kApprovalDigest[] = "approval_digest";
inline constexpr char kApprovalExpired[] = "approval_expired";
inline constexpr char kApprovalStale[] = "approval_stale";
inline constexpr char kApprovalRejected[] = "approval_rejected";
inline constexpr char kApprovalSignature[] = "approval_signature";
inline constexpr char kApprover[] = "approver";
inline constexpr char kApproverKey[] = "approver_key";
inline constexpr char kToolBinding[] = "tool_binding";
inline constexpr char kUsageBinding[] = "usage_binding";
inline constexpr char kPhaseFailed[] = "phase_failed";
inline constexpr char kPhaseInterrupted[] = "phase_interrupted";
inline constexpr char kPhaseAudit[] = "phase_audit";
inline constexpr char kPhaseAuditIdentity[] = "phase_audit_identity";
inline constexpr char kPhaseAuditMismatch[] = "phase_audit_mismatch";
inline constexpr char kPhaseAuditReconciliation[] = "phase_audit_reconciliation";
inline constexpr char kPhaseAuditUsage[] = "phase_audit_usage";
inline constexpr char kRunDocument[] = "run_document";
inline constexpr char kRandom[] = "random";
inline constexpr char kStoreUrl[] = "store_url";
inline constexpr char kStoreOpen[] = "store_open";
inline constexpr char kStoreIo[] = "store_io";
inline constexpr char kStorePermissions[] = "store_permissions";
inline constexpr char kStoreSchema[] = "store_schema";

// The codemode command and the approvals console
inline constexpr char kCommandLine[] = "command_line";
inline constexpr char kConsole[] = "console";
inline constexpr char kConsoleAccess[] = "console_access";

}  // namespace rules
}  // namespace codemode

#endif  // CODEMODE_RULES_H_
