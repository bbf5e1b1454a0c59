// WorkflowStore is where durable runs live: workflow definitions, one document per run, and the
// immutable phase audits. The runtime (workflow_runtime.h) decides every state change; a store
// only keeps records and swaps a run's document atomically.
//
//   auto store = open_workflow_store("sqlite:runs.db").value();
//   auto store = open_workflow_store("postgresql://app@db.internal/codemode").value();
//
// Two stores come with codemode: SQLite (one file, WAL, no server) and PostgreSQL (several runtime
// processes on several machines sharing runs). Both create and migrate their own tables.
//
// The contract a store keeps, whoever wrote it:
//   - replace_run swaps a run's document only if its version is still `expected_version`, in one
//     transaction, and bumps the version: two runtimes can never both claim one phase, and a
//     receipt and its ledger change (both in the document) commit together or not at all;
//   - audits are create-once: a second create with the same idempotency key returns the record
//     already stored, unchanged;
//   - a crash at any point leaves what was committed, whole.
//
// Thread-safety: every method may be called from several threads at once.
#ifndef CODEMODE_WORKFLOW_STORE_H_
#define CODEMODE_WORKFLOW_STORE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"

namespace codemode {

// One run as stored. `document` is the runtime's JSON; the other fields are copies of parts of it
// that a store indexes.
struct StoredRun {
  std::string run_id;        // 64 lowercase hex
  std::string scope_digest;  // whose run it is
  std::string workflow_digest;
  std::string status;  // "waiting", "running", "succeeded", ...
  // When a runtime should next look at the run (a phase approved and not yet claimed: now; a
  // phase running: when its lease lapses), in milliseconds since the epoch; none when the run
  // waits for a person or is over.
  std::optional<std::int64_t> wake_at_millis;
  // The policy hash a runtime must have to do that work (an approval binds its policy), or none
  // when any runtime of the scope may (recovering a lapsed lease).
  std::optional<std::string> wake_policy;
  std::int64_t version = 0;  // 1 when inserted, +1 per replace
  std::string document;
};

// One phase audit as stored. `state` is the audit's JSON (phase_audit.h).
struct StoredAudit {
  std::string scope_digest;
  std::string audit_id;
  std::string idempotency_key;
  std::string definition_hash;
  std::int64_t version = 0;  // >= 1
  std::string state;
  friend bool operator==(const StoredAudit&, const StoredAudit&) = default;
};

class CODEMODE_EXPORT WorkflowStore {
 public:
  virtual ~WorkflowStore() = default;

  // Stores a workflow definition under its digest. Storing the same document again is OK;
  // a different document under the same digest is INTEGRITY_VIOLATION.
  virtual Status put_definition(std::string_view digest, std::string_view document) = 0;
  virtual Result<std::optional<std::string>> get_definition(std::string_view digest) = 0;

  // CONFLICT when a run with that id exists. Stored with version 1.
  virtual Status insert_run(const StoredRun& run) = 0;
  virtual Result<std::optional<StoredRun>> load_run(std::string_view run_id) = 0;
  // true when swapped (the stored version becomes expected_version + 1); false when the run's
  // version is no longer expected_version (someone else changed it first).
  virtual Result<bool> replace_run(const StoredRun& run, std::int64_t expected_version) = 0;
  // The ids of a scope's runs, newest first, at most `limit`.
  virtual Result<std::vector<std::string>> list_runs(std::string_view scope_digest,
                                                     std::size_t limit) = 0;
  // The ids of a scope's runs whose wake_at is at or before `now_millis` and whose wake_policy
  // is none or `policy_hash`, soonest first.
  virtual Result<std::vector<std::string>> due_runs(std::string_view scope_digest,
                                                    std::string_view policy_hash,
                                                    std::int64_t now_millis, std::size_t limit) = 0;

  // Creates the audit, or returns the one already stored under its idempotency key.
  virtual Result<StoredAudit> create_audit(const StoredAudit& audit) = 0;
  virtual Result<std::optional<StoredAudit>> read_audit(std::string_view scope_digest,
                                                        std::string_view audit_id) = 0;
};

// Opens (and creates or migrates) a store:
//   "sqlite:PATH"                       a file, created with mode 0600 when missing
//   "postgresql://..." / "postgres://..." a libpq connection URI
// INVALID_CONFIG (rule "store_url") for any other form; STORAGE_UNAVAILABLE (rule
// "store_open") when the store cannot be opened, or "store_schema" when it was written by a newer
// codemode. Messages never echo the URL, which may hold a password.
CODEMODE_EXPORT Result<std::shared_ptr<WorkflowStore>> open_workflow_store(std::string_view url);

}  // namespace codemode

#endif  // CODEMODE_WORKFLOW_STORE_H_
