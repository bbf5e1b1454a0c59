// What every part of WorkflowRuntime shares: its options, identity and clock, and the one way it
// changes a run (load the document, change a copy, swap it in at the version it was read at).
#ifndef CODEMODE_WORKFLOW_RUN_RUNTIME_CORE_H_
#define CODEMODE_WORKFLOW_RUN_RUNTIME_CORE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "codemode/workflow_runtime.h"

#include "workflow/run/run_document.h"
#include "workflow/run/run_transitions.h"
#include "workflow/run/signed_decision.h"
#include "workflow/run/unsettled_phases.h"

namespace codemode::internal {

struct LoadedRun {
  RunDocument run;
  std::int64_t version = 0;
};

// What a change function decides: write the changed copy, or leave the run as it is.
enum class Change { kWrite, kKeep };
using RunChange = std::function<Result<Change>(RunDocument& run)>;

class RuntimeCore {
 public:
  // Checks the options; INVALID_CONFIG (rule "workflow_runtime") naming the one that is wrong.
  static Result<std::unique_ptr<RuntimeCore>> create(WorkflowRuntimeOptions options);

  const WorkflowRuntimeOptions& options() const { return options_; }
  WorkflowStore& store() const { return *options_.store; }
  const std::string& scope_digest() const { return scope_digest_; }
  const std::string& policy_hash() const { return policy_hash_; }
  // A lease owner for one claim: this runtime's identity and a number no other claim of it has.
  std::string next_claim() const;
  std::int64_t now_millis() const;
  ApprovalPolicy approval_policy() const;
  // The phase's binding digest as it is now; its material is put in the store (under the digest,
  // beside the definitions) the first time, so any process can show a request's tools.
  Result<std::string> binding_digest(const DurableWorkflow::Phase& phase) const;
  // Whether the person may approve for this runtime (WorkflowRuntimeOptions::approvers).
  bool is_approver(std::string_view person_id) const;
  const ApproverKeys& approver_keys() const { return approver_keys_; }
  // This runtime's phases whose next commit waits for the store (unsettled_phases.h).
  UnsettledPhases& unsettled() const { return unsettled_; }

  // The definition with this digest among the runtime's workflows, or nullptr.
  const DurableWorkflow* workflow(std::string_view digest) const;

  // The run, if it is this scope's. INVALID_INPUT (rule "run_id") unless 64 hex; NOT_FOUND (rule
  // "run") otherwise.
  Result<LoadedRun> load(std::string_view run_id) const;
  // Applies `change` to the run until its swap lands (another writer moved the version: read it
  // again and re-apply) and returns the run as it then is. CONFLICT (rule "run_busy") when it
  // keeps losing.
  Result<RunDocument> update(std::string_view run_id, const RunChange& change) const;
  // Swaps in `run` at `version`; false when someone else changed it first.
  Result<bool> commit(RunDocument& run, std::int64_t version) const;

 private:
  RuntimeCore() = default;

  WorkflowRuntimeOptions options_;
  std::string scope_digest_;
  std::string policy_hash_;
  std::string lease_owner_;
  std::map<std::string, DurableWorkflow, std::less<>> workflows_;
  std::set<std::string, std::less<>> approvers_;
  ApproverKeys approver_keys_;
  mutable std::atomic<std::uint64_t> claims_{0};
  mutable UnsettledPhases unsettled_;
  mutable std::mutex stored_bindings_mutex_;
  mutable std::set<std::string, std::less<>> stored_bindings_;  // guarded by the mutex above
};

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_RUNTIME_CORE_H_
