// A store that hands back another audit record, or a changed one, is not trusted
// (docs/workflows.md, "The audit record"): inspect fails closed, and a phase whose audit cannot be
// written ends outcome_unknown.
#include <sqlite3.h>

#include <gtest/gtest.h>

#include "support/adapter_options.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "workflow/durable_fixture.h"
#include "workflow/forwarding_store.h"

namespace codemode::testing {
namespace {

// Forwards to a real store, but echoes every audit with another id (a test double of the store
// contract, around the real SQLite store).
class MislabellingStore final : public ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  Result<StoredAudit> create_audit(const StoredAudit& audit) override {
    Result<StoredAudit> stored = ForwardingStore::create_audit(audit);
    if (stored.ok() && mislabel) stored->audit_id = std::string(64, 'e');
    return stored;
  }
  Result<std::optional<StoredAudit>> read_audit(std::string_view s, std::string_view id) override {
    Result<std::optional<StoredAudit>> stored = ForwardingStore::read_audit(s, id);
    if (stored.ok() && stored->has_value() && mislabel) (*stored)->audit_id = std::string(64, 'e');
    return stored;
  }
  bool mislabel = false;
};

TEST(AuditIdentityTest, FailsClosedWhenTheStoreReturnsAnotherRecordIdentity) {
  CODEMODE_REQUIRE_WORKER();
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const Tool write = external_write_tool(scratch.file("effects.log"));
  const DurableWorkflow definition =
      define_durable_workflow(one_phase_options(write_program(write))).value();
  auto store = std::make_shared<MislabellingStore>(
      open_workflow_store("sqlite:" + scratch.file("runs.db")).value());
  auto mode = nested_code_mode(make_process_adapter(adapter_options(*worker_binary())), write, 2);
  auto runtime = WorkflowRuntime::create(runtime_options(store, mode, definition)).value();

  // Written faithfully, then read back under another identity.
  std::string run = runtime->start(definition, Json{{"value", 3}}).value();
  ASSERT_TRUE(
      runtime->approve(run, "update", runtime->pending(run).value().at(0).digest, "reviewer-token")
          .ok());
  EXPECT_EQ(runtime->advance(run).value().status, RunStatus::kSucceeded);
  EXPECT_TRUE(runtime->inspect(run, "update").value());
  store->mislabel = true;
  Result<std::optional<PhaseAudit>> inspected = runtime->inspect(run, "update");
  ASSERT_FALSE(inspected.ok());
  EXPECT_EQ(inspected.error().code, ErrorCode::kStorageUnavailable);
  EXPECT_EQ(inspected.error().message, "Code phase audit identity is invalid.");

  // Echoed under another identity when written: the phase's outcome is unknown.
  run = runtime->start(definition, Json{{"value", 4}}).value();
  ASSERT_TRUE(
      runtime->approve(run, "update", runtime->pending(run).value().at(0).digest, "reviewer-token")
          .ok());
  RunView view = runtime->advance(run).value();
  EXPECT_EQ(view.status, RunStatus::kOutcomeUnknown);
  EXPECT_EQ(view.error->code, ErrorCode::kOutcomeUnknown);
  EXPECT_EQ(view.error->rule, "phase_audit_identity");
  EXPECT_FALSE(view.output);
  EXPECT_EQ(view.ledger.spent_micros, 3);
}

// Runs `sql` with one text parameter against the SQLite file; the single text column of the
// first row, if any.
std::string sqlite_exec(const std::string& file, const std::string& sql,
                        const std::string& parameter = {}) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr), SQLITE_OK);
  if (!parameter.empty()) {
    sqlite3_bind_text(statement, 1, parameter.c_str(), -1, SQLITE_TRANSIENT);
  }
  std::string column;
  const int step = sqlite3_step(statement);
  if (step == SQLITE_ROW) column = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
  EXPECT_TRUE(step == SQLITE_ROW || step == SQLITE_DONE);
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return column;
}

// An audit row edited in the store is refused on read when it contradicts its run or its program:
// an outcome flipped, a receipt renamed to a tool the program never had, a record removed from
// under a phase that succeeded.
TEST(AuditIdentityTest, AnAuditEditedInTheStoreIsRefusedWhenItContradictsItsRun) {
  CODEMODE_REQUIRE_WORKER();
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::string db = scratch.file("runs.db");
  const Tool write = external_write_tool(scratch.file("effects.log"));
  const DurableWorkflow definition =
      define_durable_workflow(one_phase_options(write_program(write))).value();
  auto mode = nested_code_mode(make_process_adapter(adapter_options(*worker_binary())), write);
  auto runtime = WorkflowRuntime::create(
                     runtime_options(open_workflow_store("sqlite:" + db).value(), mode, definition))
                     .value();
  const std::string run = runtime->start(definition, Json{{"value", 3}}).value();
  ASSERT_TRUE(
      runtime->approve(run, "update", runtime->pending(run).value().at(0).digest, "reviewer-token")
          .ok());
  ASSERT_EQ(runtime->advance(run).value().status, RunStatus::kSucceeded);
  ASSERT_TRUE(runtime->inspect(run, "update").value());
  const std::string original = sqlite_exec(db, "SELECT state FROM codemode_phase_audits");
  ASSERT_FALSE(original.empty());

  auto refused = [&](const char* what) {
    Result<std::optional<PhaseAudit>> inspected = runtime->inspect(run, "update");
    ASSERT_FALSE(inspected.ok()) << what;
    EXPECT_EQ(inspected.error().code, ErrorCode::kStorageUnavailable) << what;
    EXPECT_EQ(inspected.error().rule, "phase_audit_mismatch") << what;
  };
  Json flipped = Json::parse(original);
  flipped["outcome"] = "failed";
  sqlite_exec(db, "UPDATE codemode_phase_audits SET state = ?", flipped.dump());
  refused("outcome flipped");

  Json renamed = Json::parse(original);
  renamed["evidence"][0]["receipt"]["toolId"] = "shell.exec";
  sqlite_exec(db, "UPDATE codemode_phase_audits SET state = ?", renamed.dump());
  refused("receipt renamed");

  sqlite_exec(db, "DELETE FROM codemode_phase_audits");
  refused("record removed");
}

}  // namespace
}  // namespace codemode::testing
