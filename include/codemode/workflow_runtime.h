// WorkflowRuntime runs durable workflows (workflow.h) against a store (workflow_store.h). A run
// waits at every phase until a person approves that phase's exact approval digest; then a worker
// (run_due, or advance for one run) executes it in a fresh sandbox through the runtime's CodeMode.
//
//   auto runtime = WorkflowRuntime::create({
//       .store = open_workflow_store("sqlite:runs.db").value(), .code_mode = mode,
//       .scope = {.principal_id = "local", .project_id = "demo"},
//       .permissions = {...}, .max_cost_micros = 100, .verify_person = verify,
//       .workflows = {workflow}}).value();
//   std::string run = runtime->start(workflow, input).value();
//   ApprovalRequest request = runtime->pending(run).value().front();   // shown to a person
//   runtime->approve(run, request.phase_id, request.digest, credential);
//   RunView view = runtime->advance(run).value();                      // runs the phase
//
// A phase, in order: claim (the run document swaps to "running" with a lease, and the phase's
// cost is reserved in the run's ledger, in one commit); the scope, permission and budget checks;
// CodeMode::execute with execution id "<run>/step:<phase>:sandbox"; the usage binding check; the
// audit record (its own commit); the receipt with the ledger settlement (one commit); the
// completion with the output and the next phases' approval requests (one commit).
// A runtime killed anywhere in between never resumes the program: recover_expired turns a phase
// whose lease lapsed into outcome_unknown (effects other than none) or failed, keeping its whole
// reservation unless a receipt settled it. Nothing is replayed and no evidence is made up.
// docs/workflows.md has the whole model.
//
// Ownership: create returns the sole owner; the runtime shares the store and the CodeMode.
// Thread-safety: every method may be called from several threads, and several runtimes (in this or
// other processes) may share one store; the store's versioned swap decides who claims a phase.
#ifndef CODEMODE_WORKFLOW_RUNTIME_H_
#define CODEMODE_WORKFLOW_RUNTIME_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/permissions.h"
#include "codemode/phase_audit.h"
#include "codemode/workflow.h"
#include "codemode/workflow_store.h"

namespace codemode {

// The person a host's verify hook vouches for. Only `id` is stored with an approval.
struct Person {
  std::string id;          // 1..256 characters
  std::string project_id;  // must equal the runtime scope's project_id
  bool can_approve = false;
};
// Turns a credential (whatever the host hands its approvers) into a verified person, or an error.
// Called on the approving thread; may block.
using VerifyPerson = std::function<Result<Person>(std::string_view credential)>;

enum class RunStatus : int {
  kWaiting = 1,     // "waiting": a phase waits for approval
  kRunning,         // "running": a phase is approved or executing
  kSucceeded,       // "succeeded": output is set
  kFailed,          // "failed"
  kBlocked,         // "blocked": a permission, the budget or a person refused
  kCancelled,       // "cancelled"
  kOutcomeUnknown,  // "outcome_unknown": a phase may have had effects; reconcile by hand
};
CODEMODE_EXPORT std::string_view to_string(RunStatus status);

enum class PhaseState : int {
  kNotReady = 1,      // "not_ready": its dependencies have not all succeeded
  kAwaitingApproval,  // "awaiting_approval": an approval request is open
  kApproved,          // "approved": waiting for a worker
  kRunning,           // "running": claimed by a worker under a lease
  kSucceeded,         // "succeeded"
  kFailed,            // "failed"
  kBlocked,           // "blocked"
  kCancelled,         // "cancelled"
  kOutcomeUnknown,    // "outcome_unknown"
  kWithdrawn,         // "withdrawn": the run ended before this phase could run
};
CODEMODE_EXPORT std::string_view to_string(PhaseState state);

// What a person reviews before approving one phase, and the digest they approve.
struct ApprovalRequest {
  std::string run_id;
  std::string phase_id;
  // sha256 of {runId, phaseId, tool, toolVersion, input, policy, binding, expiresAt}: binds the
  // run, the phase, the exact program (tool version = program digest), the exact input, the
  // runtime's policy hash (approvers included), the phase binding (below) and the expiry.
  std::string digest;
  std::int64_t expires_at_millis = 0;
  std::string tool_id;  // the phase tool: "code.<32 hex>"
  std::string program_digest;
  std::string program_id;
  std::string intent;
  std::string source;
  Json input;
  Json tools;  // the nested tools' manifests
  ToolEffects effects = ToolEffects::kNone;
  Json limits;                   // the program's limits, camelCase
  std::int64_t cost_micros = 0;  // reserved when it runs
  // The phase binding the digest binds: what the program digest does not cover and still decides
  // what the phase does. {format, inputSchema, outputSchema, tools:[{id, version, inputSchema,
  // outputSchema, timeoutMs, runs (a command tool: {"command": [argv]}), files:[{path,
  // content: "sha256:<hex>" | "absent" | "unreadable" | "not_regular"}]}]}.
  Json binding;
};

struct RunLedger {
  std::int64_t spent_micros = 0;
  std::int64_t reserved_micros = 0;
  std::int64_t max_cost_micros = 0;
  friend bool operator==(const RunLedger&, const RunLedger&) = default;
};

struct PhaseView {
  std::string phase_id;
  PhaseState state = PhaseState::kNotReady;
  std::optional<ExecutionReceipt> receipt;        // the phase tool's receipt, once it settled
  std::optional<std::string> decided_by;          // who approved (or rejected) it: the verified id
  std::optional<std::int64_t> decided_at_millis;  // when, with decided_by
  std::optional<Error> error;
};

struct RunView {
  std::string run_id;
  std::string workflow_id;
  std::string workflow_version;
  std::string workflow_digest;
  RunStatus status = RunStatus::kWaiting;
  std::optional<Json> output;  // exactly when succeeded
  std::optional<Error> error;  // when failed, blocked, cancelled or outcome_unknown
  RunLedger ledger;
  std::vector<PhaseView> phases;
  std::int64_t created_at_millis = 0;
  std::int64_t updated_at_millis = 0;  // the run's last change
};
// {runId, workflow:{id, version, digest}, status, output?, error?, ledger,
//  phases:[{phaseId, state, receipt?, decidedBy?, decidedAt?, error?}], createdAt, updatedAt}
CODEMODE_EXPORT Json to_json(const RunView& view);
// {runId, phaseId, digest, expiresAt, toolId, programDigest, programId, intent, source, input,
//  tools, effects, limits, costMicros, binding}
CODEMODE_EXPORT Json to_json(const ApprovalRequest& request);

enum class Decision : int { kApprove = 1, kReject };

// The text a person signs for one decision when the runtime has approver keys:
// "codemode:decision:v1\n" + canonical JSON {runId, phaseId, digest, decision: "approve" or
// "reject", personId}. A host can have it signed wherever its approvers keep their keys.
CODEMODE_EXPORT std::string decision_message(std::string_view run_id, std::string_view phase_id,
                                             std::string_view digest, Decision decision,
                                             std::string_view person_id);
// The Ed25519 signature of `message` with `private_key_pem` (unencrypted PKCS#8 PEM, as
// `openssl genpkey -algorithm ed25519` writes), as "base64:<64 bytes>". INVALID_CONFIG (rule
// "approver_key") when the key is not one.
CODEMODE_EXPORT Result<std::string> sign_decision(std::string_view private_key_pem,
                                                  std::string_view message);

struct WorkflowRuntimeOptions {
  std::shared_ptr<WorkflowStore> store;  // required
  std::shared_ptr<CodeMode> code_mode;   // required: runs each phase's program
  Scope scope;                           // whom runs act for; must be each workflow's audit scope
  Permissions permissions;               // must grant each phase tool (permissions.h)
  std::int64_t max_cost_micros = 0;      // each run's ledger: 0 .. 2^53-1
  std::string policy_version = "1";      // part of the policy hash, 1..128 characters
  std::chrono::milliseconds approval_ttl{3'600'000};  // 1 s .. 30 days
  // How long after a phase's wall-time limit its claim lapses: 100 ms .. 1 hour.
  std::chrono::milliseconds lease{30'000};
  VerifyPerson verify_person;  // required
  // Who may approve for this runtime: 1..4096 person ids (as verify_person returns them), each
  // 1..256 characters. A decision counts only when its person is listed here: when it is made,
  // and again when a phase is claimed, so an approval stored by anyone else never runs. Part of
  // the policy hash, so an approval binds the set it was made under.
  std::vector<std::string> approvers;
  // Optional: each approver's Ed25519 public key (PEM "BEGIN PUBLIC KEY"), by person id. When set
  // it must give every approver a key, and a decision then counts only with the person's
  // signature of decision_message (sign_decision), checked when it is made and again when the
  // phase is claimed: whoever can write the store, but holds no approver's private key, cannot
  // make a phase approved. Part of the policy hash. Unset, the store is trusted with decisions
  // (docs/security.md).
  std::map<std::string, std::string> approver_keys;
  // The definitions this runtime runs; a run of any other definition is refused.
  std::vector<DurableWorkflow> workflows;
  // Milliseconds since the epoch; the system clock when unset. For tests that move time.
  std::function<std::int64_t()> clock_millis{};
};

// What the worker loop (WorkflowRuntime::work) does on each pass.
enum class WorkerDuty : int {
  kReissueAndExecute = 1,  // `codemode workflow worker`, and the console with --work
  kReissueOnly,            // the console without --work: keeps the requests it shows current
};

// What the worker loop reports about itself.
struct WorkerEvent {
  enum class Kind : int {
    kFailing = 1,  // a pass failed, and the pass before it succeeded or failed another way
    kRecovered,    // a pass succeeded after failed ones
  };
  Kind kind = Kind::kFailing;
  std::optional<Error> error;                // kFailing: how the pass failed
  std::chrono::milliseconds retry_in{0};     // kFailing: when the next pass starts
  std::size_t failed_passes = 0;             // kRecovered: how many failed in a row
  std::chrono::milliseconds failing_for{0};  // kRecovered: since the first of them
};

struct WorkerLoopOptions {
  WorkerDuty duty = WorkerDuty::kReissueAndExecute;
  std::chrono::milliseconds poll_interval{500};  // after a pass that executed nothing: 1 ms .. 1 h
  // After failed passes: first_retry, doubled for each further one, at most max_retry
  // (1 ms .. 1 h, first_retry <= max_retry).
  std::chrono::milliseconds first_retry{200};
  std::chrono::milliseconds max_retry{5'000};
  // How often a pass also calls reissue (the first pass always does): 1 ms .. 1 h. reissue reads
  // every run of the scope, up to 1000, so it runs less often than the passes.
  std::chrono::milliseconds reissue_interval{5'000};
  // Called on the loop's thread; may be empty. Must not throw.
  std::function<void(const WorkerEvent&)> report;
};

class CODEMODE_EXPORT WorkflowRuntime {
 public:
  // INVALID_CONFIG naming the option (rule "workflow_runtime"); STORAGE_UNAVAILABLE when a
  // definition cannot be stored.
  static Result<std::unique_ptr<WorkflowRuntime>> create(WorkflowRuntimeOptions options);
  ~WorkflowRuntime();

  // Checks the input against the workflow's schema, stores the run and opens the approval
  // requests of the phases that can start. Returns the run id (64 hex). PERMISSION_DENIED (rule
  // "audit_scope") when the workflow's audit scope is not the runtime's scope; NOT_FOUND (rule
  // "unknown_workflow") for a definition the runtime was not given.
  Result<std::string> start(const DurableWorkflow& workflow, const Json& input);

  // INVALID_INPUT (rule "run_id") unless 64 hex; NOT_FOUND (rule "run") for no such run of this
  // scope.
  Result<RunView> status(std::string_view run_id);
  // This scope's runs, newest first.
  Result<std::vector<RunView>> list(std::size_t limit = 100);

  // The open approval requests of one run (or of every run of this scope when run_id is empty)
  // that this runtime would accept now. A pure read: it changes no run. A request it would refuse
  // (its expiry passed, it was issued under another policy, or its phase's tools changed since)
  // is left out until reissue issues it again.
  Result<std::vector<ApprovalRequest>> pending(std::string_view run_id = {});

  // Issues again, with a new expiry and digest under this runtime's policy and the phase binding
  // as it is now, every open request of the run (of every run of this scope when run_id is empty)
  // that this runtime would refuse, and every approval of a phase not yet claimed that was made
  // under another policy or whose tools changed since. Returns how many. Runs of workflows this
  // runtime was not given are left alone. The worker loop (work) calls it.
  Result<std::size_t> reissue(std::string_view run_id = {});

  // Approves the phase's open request. The person behind `credential` must verify with the scope's
  // project and can_approve (else PERMISSION_DENIED, rule "approver"); `digest` must be the open
  // request's, computed under this runtime's policy and not expired (else CONFLICT, rule
  // "approval_digest" or "approval_expired", and an expired request is issued again). A run of a
  // workflow this runtime was not given is NOT_FOUND (rule "unknown_workflow"): its approvers are
  // another host's. Approving the same digest again is OK and changes nothing. Approval grants no
  // permission.
  // With approver keys, `signature` must be the person's sign_decision of the decision (else
  // PERMISSION_DENIED, rule "approval_signature"); without them it is ignored.
  Status approve(std::string_view run_id, std::string_view phase_id, std::string_view digest,
                 std::string_view credential, std::string_view signature = {});
  // Refuses the phase: the run ends blocked (PERMISSION_DENIED, rule "approval_rejected"). The same
  // checks as approve.
  Status reject(std::string_view run_id, std::string_view phase_id, std::string_view digest,
                std::string_view credential, std::string_view signature = {});

  // Executes every approved phase of the run, one after another, and returns the run as it then
  // is. A phase another runtime holds is left to it.
  Result<RunView> advance(std::string_view run_id);
  // One worker pass over this scope: settles what this runtime left unsettled when the store could
  // not be reached (below), recovers lapsed claims, then executes the approved phases of up to
  // `max_runs` due runs. Returns how many phases it executed; a phase whose commits an outage held
  // up counts in the pass that settles it.
  // A commit this runtime cannot make because the store cannot be reached (STORAGE_UNAVAILABLE,
  // rule "store_io" or "store_open") is returned as that error, and what the runtime knows is kept
  // in memory: a phase it executed has its audit, receipt and completion committed by the next
  // run_due or advance, and a claim whose commit may have landed is given back (the phase approved
  // again, its reservation released). Nothing is executed twice. docs/workflows.md, "Store
  // outages".
  Result<std::size_t> run_due(std::size_t max_runs = 16);
  // Ends every phase whose claim lapsed (its runtime died or stalled) without running it again:
  // outcome_unknown for a phase with effects, failed for one without. Returns how many.
  Result<std::size_t> recover_expired();

  // The phase's audit record, or none when it has none (an absent audit after an interruption
  // means unknown, not "did not happen"). INVALID_INPUT (rule "run_id", "Run identity is
  // invalid.") unless run_id is 64 hex; INVALID_INPUT (rule "phase_id") for a malformed phase id;
  // STORAGE_UNAVAILABLE when the stored record breaks an invariant or names another identity.
  Result<std::optional<PhaseAudit>> inspect(std::string_view run_id, std::string_view phase_id);

  // The worker loop `codemode workflow worker` and the approvals console run: passes of
  // reissue (at most every options.reissue_interval) and, with WorkerDuty::kReissueAndExecute,
  // run_due, until `stop` is requested; after a pass that executed nothing it waits
  // options.poll_interval. A pass that fails does not end the loop: the next one starts after
  // options.first_retry, twice as long after each further failure, at most options.max_retry, and
  // a pass that succeeds starts over. options.report hears of a failure once, when passes start
  // failing (or fail in another way), and once when they succeed again, never once per retry.
  // Returns how many phases it executed; INVALID_CONFIG (rule "workflow_runtime") for options out
  // of range. Blocks the calling thread.
  Result<std::size_t> work(std::stop_token stop, const WorkerLoopOptions& options = {});
  // One pass of the loop: reissue, then run_due for kReissueAndExecute. Returns how many phases it
  // executed.
  Result<std::size_t> work_once(WorkerDuty duty = WorkerDuty::kReissueAndExecute);

  // sha256 of the normalized policy {scope, permissions, policyVersion, maxCostMicros,
  // approvalTtlMs}: part of every approval digest.
  const std::string& policy_hash() const;

  WorkflowRuntime(const WorkflowRuntime&) = delete;
  WorkflowRuntime& operator=(const WorkflowRuntime&) = delete;

 private:
  struct Impl;
  explicit WorkflowRuntime(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace codemode

#endif  // CODEMODE_WORKFLOW_RUNTIME_H_
