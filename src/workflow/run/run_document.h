// RunDocument is one run as the runtime keeps it in the store: its identity, input, status,
// ledger and every phase's state, approval, lease, receipt and output. The runtime changes a copy
// and swaps it in with WorkflowStore::replace_run, so every change is one commit.
#ifndef CODEMODE_WORKFLOW_RUN_RUN_DOCUMENT_H_
#define CODEMODE_WORKFLOW_RUN_RUN_DOCUMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/tool.h"
#include "codemode/workflow_runtime.h"
#include "codemode/workflow_store.h"

namespace codemode::internal {

struct PhaseApproval {
  std::string tool_id;  // the phase tool the request is for
  std::string digest;
  std::int64_t expires_at_millis = 0;
  std::string policy_hash;                // the policy the digest was computed under
  std::string binding_digest;             // the phase binding it was computed with
  std::optional<std::string> decided_by;  // the person who approved or rejected it
  std::optional<std::int64_t> decided_at_millis;
  // The person's signature of the decision, when the runtime that took it has approver keys.
  std::optional<std::string> signature;
};

struct PhaseLease {
  std::string owner;  // the runtime that claimed the phase
  std::int64_t expires_at_millis = 0;
  // The phase tool's effects, so that any runtime can recover the phase without its definition.
  ToolEffects effects = ToolEffects::kNone;
};

struct PhaseRecord {
  std::string id;
  PhaseState state = PhaseState::kNotReady;
  std::optional<Json> input;  // set when its approval request opened
  std::optional<PhaseApproval> approval;
  std::optional<PhaseLease> lease;
  // What the phase holds in the run ledger's reserved_micros: its whole cost from the claim, then
  // only its unknown cost once a receipt settled it.
  std::int64_t reserved_micros = 0;
  std::optional<ExecutionReceipt> receipt;
  std::optional<Json> output;
  std::optional<Error> error;
};

struct RunDocument {
  std::string run_id;
  Scope scope;
  std::string scope_digest;
  std::string workflow_id;
  std::string workflow_version;
  std::string workflow_digest;
  Json input;
  RunStatus status = RunStatus::kWaiting;
  std::optional<Json> output;
  std::optional<Error> error;
  RunLedger ledger;
  std::vector<PhaseRecord> phases;
  std::int64_t created_at_millis = 0;
  std::int64_t updated_at_millis = 0;

  PhaseRecord* find_phase(std::string_view phase_id);
  const PhaseRecord* find_phase(std::string_view phase_id) const;
  bool over() const;  // succeeded, failed, blocked, cancelled or outcome_unknown
};

Json to_json(const RunDocument& run);
// STORAGE_UNAVAILABLE (rule "run_document") for anything that is not a document to_json wrote.
Result<RunDocument> run_document_from_json(const Json& json);

// The stored form: the document and the fields a store indexes.
Result<StoredRun> to_stored_run(const RunDocument& run, std::int64_t version);
Result<RunDocument> run_document_of(const StoredRun& stored);

// When a runtime should next look at the run, and which runtimes may: now, for an approved phase,
// a runtime under the approval's policy; at the lease's end, for a running phase, any.
struct RunWake {
  std::optional<std::int64_t> at_millis;
  std::optional<std::string> policy_hash;
};
RunWake wake_of(const RunDocument& run);

// What a caller sees.
RunView view_of(const RunDocument& run);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_RUN_DOCUMENT_H_
