// A store that hands back another audit record, or a changed one, is not trusted (reference
// §10.7 case 3): inspect fails closed, and a phase whose audit cannot be written ends
// outcome_unknown.
#include <gtest/gtest.h>

#include "support/adapter_options.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "workflow/durable_fixture.h"

namespace codemode::testing {
namespace {

// Forwards to a real store, but echoes every audit with another id (a test double of the store
// contract, around the real SQLite store).
class MislabellingStore final : public WorkflowStore {
 public:
  explicit MislabellingStore(std::shared_ptr<WorkflowStore> inner) : inner_(std::move(inner)) {}
  Status put_definition(std::string_view d, std::string_view doc) override {
    return inner_->put_definition(d, doc);
  }
  Result<std::optional<std::string>> get_definition(std::string_view d) override {
    return inner_->get_definition(d);
  }
  Status insert_run(const StoredRun& run) override { return inner_->insert_run(run); }
  Result<std::optional<StoredRun>> load_run(std::string_view id) override {
    return inner_->load_run(id);
  }
  Result<bool> replace_run(const StoredRun& run, std::int64_t version) override {
    return inner_->replace_run(run, version);
  }
  Result<std::vector<std::string>> list_runs(std::string_view s, std::size_t n) override {
    return inner_->list_runs(s, n);
  }
  Result<std::vector<std::string>> due_runs(std::string_view s, std::string_view policy,
                                            std::int64_t now, std::size_t n) override {
    return inner_->due_runs(s, policy, now, n);
  }
  Result<StoredAudit> create_audit(const StoredAudit& audit) override {
    Result<StoredAudit> stored = inner_->create_audit(audit);
    if (stored.ok() && mislabel) stored->audit_id = std::string(64, 'e');
    return stored;
  }
  Result<std::optional<StoredAudit>> read_audit(std::string_view s, std::string_view id) override {
    Result<std::optional<StoredAudit>> stored = inner_->read_audit(s, id);
    if (stored.ok() && stored->has_value() && mislabel) (*stored)->audit_id = std::string(64, 'e');
    return stored;
  }
  bool mislabel = false;

 private:
  std::shared_ptr<WorkflowStore> inner_;
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

}  // namespace
}  // namespace codemode::testing
