// A store that hands back another audit record, or a changed one, is not trusted (reference
// §10.7 case 3): inspect fails closed, and a phase whose audit cannot be written ends
// outcome_unknown.
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

}  // namespace
}  // namespace codemode::testing
