// The durable workflow runtime's cases and the approval rules (docs/workflows.md, "A run" and
// "Tests"), through the real worker, on every store.
#include <atomic>
#include <fstream>
#include <functional>
#include <map>

#include <gtest/gtest.h>

#include "codemode/workflow_runtime.h"

#include "support/adapter_options.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/signing_keys.h"
#include "workflow/durable_fixture.h"
#include "workflow/flaky_store.h"
#include "workflow/store_fixture.h"

namespace codemode::testing {
namespace {

class DurableRuntimeTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_WORKER();
    ASSERT_TRUE(scratch_.ok());
    store_ = std::make_unique<TestStore>(GetParam(), scratch_);
    CODEMODE_REQUIRE_STORE(*store_);
    write_ = external_write_tool(effects_file());
    adapter_ =
        std::make_shared<CountingAdapter>(make_process_adapter(adapter_options(*worker_binary())));
    mode_ = nested_code_mode(adapter_, write_);
  }

  std::string effects_file() const { return scratch_.file("effects.log"); }
  std::shared_ptr<WorkflowStore> open_store() const {
    return open_workflow_store(store_->url()).value();
  }
  DurableWorkflow workflow(const std::string& source = {}) const {
    return define_durable_workflow(one_phase_options(write_program(write_, source))).value();
  }
  std::unique_ptr<WorkflowRuntime> runtime(
      const DurableWorkflow& definition, std::function<void(WorkflowRuntimeOptions&)> adjust = {}) {
    WorkflowRuntimeOptions options = runtime_options(open_store(), mode_, definition);
    if (adjust) adjust(options);
    return WorkflowRuntime::create(std::move(options)).value();
  }
  // Starts a run of `definition` with {value: 3} and approves its one phase.
  std::string start_approved(WorkflowRuntime& runtime, const DurableWorkflow& definition) {
    std::string run = runtime.start(definition, Json{{"value", 3}}).value();
    ApprovalRequest request = runtime.pending(run).value().at(0);
    EXPECT_TRUE(runtime.approve(run, "update", request.digest, "reviewer-token").ok());
    return run;
  }

  // What a store writer does: changes the run's stored document (and its indexed fields) in
  // place, under a new version, as no runtime would.
  void rewrite_stored_run(const std::string& run,
                          const std::function<void(StoredRun&, Json&)>& edit) {
    std::shared_ptr<WorkflowStore> store = open_store();
    StoredRun stored = store->load_run(run).value().value();
    Json document = Json::parse(stored.document);
    edit(stored, document);
    stored.document = document.dump();
    const std::int64_t version = stored.version;
    stored.version = version + 1;
    ASSERT_TRUE(store->replace_run(stored, version).value());
  }
  // external.write, with a binding: it reads `bound`.
  Tool bound_write_tool(const std::string& bound) const {
    return external_write_tool(effects_file(), nullptr,
                               {.description = {{"reads", bound}}, .files = {bound}});
  }

  ScratchDir scratch_;
  std::unique_ptr<TestStore> store_;
  Tool write_ = external_write_tool("/dev/null");
  std::shared_ptr<CountingAdapter> adapter_;
  std::shared_ptr<CodeMode> mode_;
};

TEST_P(DurableRuntimeTest, PersistsExactApprovalBeforeOneBrokeredExecutionAcrossReopen) {
  const DurableWorkflow definition = workflow();
  const DurableWorkflow::Phase& phase = definition.phases().at(0);
  EXPECT_EQ(phase.tool.version(), phase.program.digest());
  EXPECT_EQ(phase.tool.id(), "code." + phase.program.digest().substr(0, 32));
  EXPECT_EQ(phase.tool.effects(), ToolEffects::kWrite);
  EXPECT_EQ(phase.tool.cost_micros(), 6);
  EXPECT_EQ(phase.tool.capabilities(),
            (std::vector<std::string>{"code:execute", "code:audit:v2",
                                      "code:audit-scope:" + definition.audit_scope_digest(),
                                      "code:program:" + phase.program.digest()}));

  auto first = runtime(definition);
  const std::string run = first->start(definition, Json{{"value", 3}}).value();
  RunView waiting = first->advance(run).value();
  EXPECT_EQ(waiting.status, RunStatus::kWaiting);
  EXPECT_EQ(waiting.ledger,
            (RunLedger{.spent_micros = 0, .reserved_micros = 0, .max_cost_micros = 6}));
  EXPECT_EQ(adapter_->executions, 0);
  const ApprovalRequest before = first->pending(run).value().at(0);
  EXPECT_EQ(before.tool_id, phase.tool.id());
  EXPECT_EQ(before.program_digest, phase.program.digest());
  EXPECT_EQ(before.input, (Json{{"value", 3}}));
  EXPECT_EQ(before.effects, ToolEffects::kWrite);
  EXPECT_EQ(before.cost_micros, 6);
  EXPECT_EQ(before.source, phase.program.source());
  first.reset();

  // Reopened: the same definition digest and the same approval snapshot.
  const DurableWorkflow again = workflow();
  EXPECT_EQ(again.digest(), definition.digest());
  auto second = runtime(again);
  const ApprovalRequest after = second->pending(run).value().at(0);
  EXPECT_EQ(to_json(after), to_json(before));

  Status wrong = second->approve(run, "update", std::string(64, 'a'), "reviewer-token");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, ErrorCode::kConflict);
  EXPECT_EQ(second->approve(run, "update", after.digest, "viewer-token").error().code,
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(second->approve(run, "update", after.digest, "forged").error().code,
            ErrorCode::kPermissionDenied);
  ASSERT_TRUE(second->approve(run, "update", after.digest, "reviewer-token").ok());
  EXPECT_TRUE(second->approve(run, "update", after.digest, "reviewer-token").ok());

  RunView done = second->advance(run).value();
  EXPECT_EQ(done.status, RunStatus::kSucceeded);
  EXPECT_EQ(done.output, (Json{{"value", 3}}));
  EXPECT_EQ(done.ledger,
            (RunLedger{.spent_micros = 3, .reserved_micros = 0, .max_cost_micros = 6}));
  EXPECT_EQ(done.phases.at(0).decided_by, "reviewer");
  // When it was decided, on the runtime's clock, between the run's start and its last change.
  ASSERT_TRUE(done.phases.at(0).decided_at_millis.has_value());
  EXPECT_GE(*done.phases.at(0).decided_at_millis, done.created_at_millis);
  EXPECT_LE(*done.phases.at(0).decided_at_millis, done.updated_at_millis);
  EXPECT_EQ(to_json(done)["phases"][0]["decidedAt"], *done.phases.at(0).decided_at_millis);
  ASSERT_TRUE(done.phases.at(0).receipt);
  EXPECT_EQ(done.phases.at(0).receipt->execution, ExecutionState::kSucceeded);
  EXPECT_EQ(done.phases.at(0).receipt->disclosure, Disclosure::kReleased);
  EXPECT_EQ(adapter_->executions, 1);
  EXPECT_EQ(second->advance(run).value().status, RunStatus::kSucceeded);
  EXPECT_EQ(second->run_due().value(), 0u);
  EXPECT_EQ(adapter_->executions, 1);
  EXPECT_EQ(effects_made(effects_file()), 1);

  std::optional<PhaseAudit> audit = second->inspect(run, "update").value();
  ASSERT_TRUE(audit);
  EXPECT_EQ(audit->outcome, OutcomeStatus::kSucceeded);
  EXPECT_EQ(audit->execution_id, run + "/step:update:sandbox");
  EXPECT_EQ(audit->program_digest, phase.program.digest());
  EXPECT_EQ(audit->usage, (CodeExecutionUsage{.tool_calls = 1,
                                              .unknown_calls = 0,
                                              .known_cost_micros = 3,
                                              .unknown_cost_micros = 0,
                                              .maximum_cost_micros = 6}));
  ASSERT_EQ(audit->evidence.size(), 1u);
  EXPECT_EQ(audit->evidence[0].receipt.tool_id, "external.write");
  EXPECT_EQ(audit->evidence[0].receipt.call_id, run + "/step:update:sandbox:code:1");
  EXPECT_EQ(audit->evidence[0].receipt.execution, ExecutionState::kSucceeded);
  EXPECT_EQ(audit->evidence[0].receipt.disclosure, Disclosure::kReleased);
}

TEST_P(DurableRuntimeTest, DoesNotStartAWorkflowWhoseAuditBelongsToAnotherScope) {
  const DurableWorkflow foreign =
      define_durable_workflow(one_phase_options(write_program(write_), mallory())).value();
  auto runtime_of_alice = runtime(foreign);
  Result<std::string> run = runtime_of_alice->start(foreign, Json{{"value", 3}});
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(run.error().rule, "audit_scope");
  EXPECT_TRUE(runtime_of_alice->list().value().empty());
  EXPECT_EQ(adapter_->executions, 0);
}

TEST_P(DurableRuntimeTest, DoesNotReplayAWritePhaseWhoseSandboxFailsAfterTheNestedEffect) {
  const DurableWorkflow definition = workflow(
      "async (input, tools) => { await tools.call('external.write', input); "
      "throw new Error('after the write'); }");
  auto runtime_ = runtime(definition);
  const std::string run = start_approved(*runtime_, definition);
  RunView view = runtime_->advance(run).value();
  EXPECT_EQ(view.status, RunStatus::kOutcomeUnknown);
  EXPECT_FALSE(view.output);
  EXPECT_EQ(view.ledger,
            (RunLedger{.spent_micros = 3, .reserved_micros = 0, .max_cost_micros = 6}));
  ASSERT_TRUE(view.phases.at(0).receipt);
  EXPECT_EQ(view.phases.at(0).receipt->execution, ExecutionState::kUnknown);
  EXPECT_EQ(view.phases.at(0).receipt->disclosure, Disclosure::kWithheld);
  std::optional<PhaseAudit> audit = runtime_->inspect(run, "update").value();
  ASSERT_TRUE(audit);
  EXPECT_EQ(audit->outcome, OutcomeStatus::kFailed);
  EXPECT_EQ(audit->usage.known_cost_micros, 3);

  EXPECT_EQ(runtime_->advance(run).value().status, RunStatus::kOutcomeUnknown);
  EXPECT_EQ(runtime_->run_due().value(), 0u);
  EXPECT_EQ(adapter_->executions, 1);
  EXPECT_EQ(effects_made(effects_file()), 1);
}

// A runtime given another workflow (another host, other approvers) shares the store and the scope
// but cannot decide this workflow's runs: its people were never vouched for here.
TEST_P(DurableRuntimeTest, APersonOfAnotherWorkflowCannotDecideItsRuns) {
  const DurableWorkflow definition = workflow();
  const DurableWorkflow other = workflow("async (input) => input");
  ASSERT_NE(other.digest(), definition.digest());
  auto owner = runtime(definition);
  auto stranger = runtime(other);
  const std::string run = owner->start(definition, Json{{"value", 3}}).value();
  const ApprovalRequest request = owner->pending(run).value().at(0);
  for (Status decided : {stranger->approve(run, "update", request.digest, "reviewer-token"),
                         stranger->reject(run, "update", request.digest, "reviewer-token")}) {
    ASSERT_FALSE(decided.ok());
    EXPECT_EQ(decided.error().code, ErrorCode::kNotFound);
    EXPECT_EQ(decided.error().rule, "unknown_workflow");
  }
  EXPECT_EQ(owner->status(run).value().phases.at(0).state, PhaseState::kAwaitingApproval);
  EXPECT_TRUE(owner->approve(run, "update", request.digest, "reviewer-token").ok());
}

TEST_P(DurableRuntimeTest, ARejectedPhaseBlocksTheRunWithoutRunning) {
  const DurableWorkflow definition = workflow();
  auto runtime_ = runtime(definition);
  const std::string run = runtime_->start(definition, Json{{"value", 3}}).value();
  const ApprovalRequest request = runtime_->pending(run).value().at(0);
  ASSERT_TRUE(runtime_->reject(run, "update", request.digest, "reviewer-token").ok());
  EXPECT_TRUE(runtime_->reject(run, "update", request.digest, "reviewer-token").ok());
  EXPECT_EQ(runtime_->approve(run, "update", request.digest, "reviewer-token").error().code,
            ErrorCode::kConflict);
  RunView view = runtime_->advance(run).value();
  EXPECT_EQ(view.status, RunStatus::kBlocked);
  EXPECT_EQ(view.error->rule, "approval_rejected");
  EXPECT_EQ(view.phases.at(0).decided_by, "reviewer");
  EXPECT_TRUE(runtime_->pending(run).value().empty());
  EXPECT_EQ(adapter_->executions, 0);
}

TEST_P(DurableRuntimeTest, ALapsedRequestIsIssuedAgainWithANewDigest) {
  const DurableWorkflow definition = workflow();
  auto now = std::make_shared<std::atomic<std::int64_t>>(1'000'000);
  auto runtime_ = runtime(definition, [&](WorkflowRuntimeOptions& options) {
    options.clock_millis = [now] { return now->load(); };
  });
  const std::string run = runtime_->start(definition, Json{{"value", 3}}).value();
  const ApprovalRequest first = runtime_->pending(run).value().at(0);
  EXPECT_EQ(first.expires_at_millis, 1'000'000 + 3'600'000);
  *now += 3'600'000;
  Status lapsed = runtime_->approve(run, "update", first.digest, "reviewer-token");
  ASSERT_FALSE(lapsed.ok());
  EXPECT_EQ(lapsed.error().code, ErrorCode::kConflict);
  EXPECT_EQ(lapsed.error().rule, "approval_expired");
  const ApprovalRequest second = runtime_->pending(run).value().at(0);
  EXPECT_NE(second.digest, first.digest);
  EXPECT_EQ(second.expires_at_millis, 1'000'000 + 2 * 3'600'000);
  EXPECT_TRUE(runtime_->approve(run, "update", second.digest, "reviewer-token").ok());
}

// pending is a read: the views that call it (the console's pages, its live updates) change no
// run. A request it would refuse is left out, and reissue is the one step that asks again.
// Before this, pending issued a lapsed request again itself.
TEST_P(DurableRuntimeTest, PendingWritesNothingAndReissueAsksAgain) {
  const DurableWorkflow definition = workflow();
  auto now = std::make_shared<std::atomic<std::int64_t>>(1'000'000);
  auto store = std::make_shared<FlakyStore>(open_store());
  auto runtime_ = runtime(definition, [&](WorkflowRuntimeOptions& options) {
    options.store = store;
    options.clock_millis = [now] { return now->load(); };
  });
  const std::string run = runtime_->start(definition, Json{{"value", 3}}).value();
  const ApprovalRequest first = runtime_->pending(run).value().at(0);
  *now += 3'600'000;
  const int writes = store->writes;
  const std::int64_t version = store->load_run(run).value()->version;
  EXPECT_TRUE(runtime_->pending(run).value().empty());
  EXPECT_TRUE(runtime_->pending().value().empty());
  EXPECT_EQ(store->writes, writes);
  EXPECT_EQ(store->load_run(run).value()->version, version);
  EXPECT_EQ(runtime_->status(run).value().phases.at(0).state, PhaseState::kAwaitingApproval);

  EXPECT_EQ(runtime_->reissue().value(), 1u);
  EXPECT_EQ(store->load_run(run).value()->version, version + 1);
  const ApprovalRequest second = runtime_->pending(run).value().at(0);
  EXPECT_NE(second.digest, first.digest);
  EXPECT_EQ(second.expires_at_millis, 1'000'000 + 2 * 3'600'000);
  EXPECT_EQ(runtime_->reissue(run).value(), 0u);
  EXPECT_TRUE(runtime_->approve(run, "update", second.digest, "reviewer-token").ok());
}

TEST_P(DurableRuntimeTest, AnApprovalBindsThePolicyItWasIssuedUnder) {
  const DurableWorkflow definition = workflow();
  auto issuing = runtime(definition);
  const std::string run = issuing->start(definition, Json{{"value", 3}}).value();
  const ApprovalRequest request = issuing->pending(run).value().at(0);
  auto wider = runtime(definition, [](WorkflowRuntimeOptions& options) {
    options.permissions.allow.push_back("tool:something.else");
  });
  EXPECT_NE(wider->policy_hash(), issuing->policy_hash());
  EXPECT_EQ(wider->approve(run, "update", request.digest, "reviewer-token").error().code,
            ErrorCode::kConflict);
}

TEST_P(DurableRuntimeTest, AnApprovedPhaseRunsOnlyUnderThePolicyItWasApprovedUnder) {
  const DurableWorkflow definition = workflow();
  auto issuing = runtime(definition);
  const std::string run = start_approved(*issuing, definition);
  auto wider = runtime(definition, [](WorkflowRuntimeOptions& options) {
    options.permissions.allow.push_back("tool:something.else");
  });
  EXPECT_EQ(wider->run_due().value(), 0u);
  EXPECT_EQ(wider->advance(run).value().status, RunStatus::kRunning);
  EXPECT_EQ(adapter_->executions, 0);
  EXPECT_EQ(issuing->run_due().value(), 1u);
  EXPECT_EQ(issuing->status(run).value().status, RunStatus::kSucceeded);
}

TEST_P(DurableRuntimeTest, ABudgetThatCannotCoverTheReservationBlocksBeforeAnything) {
  const DurableWorkflow definition = workflow();
  auto runtime_ =
      runtime(definition, [](WorkflowRuntimeOptions& options) { options.max_cost_micros = 5; });
  const std::string run = start_approved(*runtime_, definition);
  RunView view = runtime_->advance(run).value();
  EXPECT_EQ(view.status, RunStatus::kBlocked);
  ASSERT_TRUE(view.error.has_value());
  EXPECT_EQ(view.error->code, ErrorCode::kBudgetExceeded);
  EXPECT_EQ(view.ledger.reserved_micros, 0);
  ASSERT_TRUE(view.phases.at(0).receipt);
  EXPECT_EQ(view.phases.at(0).receipt->execution, ExecutionState::kNotStarted);
  EXPECT_EQ(adapter_->executions, 0);
  EXPECT_FALSE(runtime_->inspect(run, "update").value());
}

TEST_P(DurableRuntimeTest, ApprovalGrantsNoPermission) {
  const DurableWorkflow definition = workflow();
  auto runtime_ = runtime(definition, [](WorkflowRuntimeOptions& options) {
    std::erase(options.permissions.allow, "effect:write");
  });
  const std::string run = start_approved(*runtime_, definition);
  RunView view = runtime_->advance(run).value();
  EXPECT_EQ(view.status, RunStatus::kBlocked);
  ASSERT_TRUE(view.error.has_value());
  EXPECT_EQ(view.error->code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(adapter_->executions, 0);
}

TEST_P(DurableRuntimeTest, APhaseBoundToAnEarlierOutputWaitsForItsOwnApproval) {
  const CodeProgram program = write_program(write_);
  DurableWorkflowOptions options = one_phase_options(program);
  options.phases.push_back(
      {.id = "again", .program = program, .input = WorkflowBinding::phase_output("update")});
  options.result = WorkflowBinding::phase_output("again", {"value"});
  options.output = Schema::compile(Json{{"type", "number"}}).value();
  const DurableWorkflow definition = define_durable_workflow(options).value();
  EXPECT_EQ(definition.phases().at(1).depends_on, std::vector<std::string>{"update"});
  // Two phases, one write each: the nested budget covers two calls this time.
  mode_ = nested_code_mode(adapter_, write_, 2);
  auto runtime_ = runtime(definition, [](WorkflowRuntimeOptions& o) { o.max_cost_micros = 12; });
  const std::string run = start_approved(*runtime_, definition);
  RunView middle = runtime_->advance(run).value();
  EXPECT_EQ(middle.status, RunStatus::kWaiting);
  const ApprovalRequest next = runtime_->pending(run).value().at(0);
  EXPECT_EQ(next.phase_id, "again");
  EXPECT_EQ(next.input, (Json{{"value", 3}}));
  ASSERT_TRUE(runtime_->approve(run, "again", next.digest, "reviewer-token").ok());
  RunView done = runtime_->advance(run).value();
  EXPECT_EQ(done.status, RunStatus::kSucceeded);
  EXPECT_EQ(done.output, Json(3));
  EXPECT_EQ(done.ledger.spent_micros, 6);
  EXPECT_EQ(adapter_->executions, 2);
  EXPECT_EQ(effects_made(effects_file()), 2);
}

// A tool's binding (what it runs, and the files that decide it) is part of what a person
// approves: a file it names that changes after approval keeps the phase from running, and the
// request is issued again, with the file's new content in its binding.
TEST_P(DurableRuntimeTest, AnApprovedPhaseWhoseBoundFileChangedIsAskedAgainNotRun) {
  const std::string bound = scratch_.file("rates.txt");
  std::ofstream(bound) << "rate 1\n";
  const Tool bound_write = bound_write_tool(bound);
  const DurableWorkflow definition =
      define_durable_workflow(one_phase_options(write_program(bound_write))).value();
  mode_ = nested_code_mode(adapter_, bound_write);
  auto runtime_ = runtime(definition);
  const std::string run = runtime_->start(definition, Json{{"value", 3}}).value();
  const ApprovalRequest first = runtime_->pending(run).value().at(0);
  const Json& file = first.binding.at("tools").at(0).at("files").at(0);
  EXPECT_EQ(file.at("path"), bound);
  EXPECT_EQ(file.at("content"), "sha256:" + sha256_hex("rate 1\n"));
  EXPECT_EQ(first.binding.at("tools").at(0).at("runs"), (Json{{"reads", bound}}));
  ASSERT_TRUE(runtime_->approve(run, "update", first.digest, "reviewer-token").ok());

  std::ofstream(bound, std::ios::trunc) << "rate 2\n";
  EXPECT_EQ(runtime_->run_due().value(), 0u);
  EXPECT_EQ(adapter_->executions, 0);
  // Said on the phase, so a back-and-forth between runtimes that read the tools differently shows.
  const PhaseView asked_again = runtime_->status(run).value().phases.at(0);
  EXPECT_EQ(asked_again.state, PhaseState::kAwaitingApproval);
  ASSERT_TRUE(asked_again.error);
  EXPECT_EQ(asked_again.error->rule, "approval_stale");
  const ApprovalRequest second = runtime_->pending(run).value().at(0);
  EXPECT_NE(second.digest, first.digest);
  EXPECT_EQ(second.binding.at("tools").at(0).at("files").at(0).at("content"),
            "sha256:" + sha256_hex("rate 2\n"));
  // The old digest no longer approves anything; the new one runs the phase.
  EXPECT_EQ(runtime_->approve(run, "update", first.digest, "reviewer-token").error().code,
            ErrorCode::kConflict);
  ASSERT_TRUE(runtime_->approve(run, "update", second.digest, "reviewer-token").ok());
  EXPECT_EQ(runtime_->run_due().value(), 1u);
  EXPECT_EQ(runtime_->status(run).value().status, RunStatus::kSucceeded);
}

// An open request whose tools changed before anyone decided is issued again when approved: the
// person is told, and nothing is approved on the old digest.
TEST_P(DurableRuntimeTest, ARequestWhoseBoundFileChangedCannotBeApproved) {
  const std::string bound = scratch_.file("rates.txt");
  std::ofstream(bound) << "rate 1\n";
  const DurableWorkflow definition =
      define_durable_workflow(one_phase_options(write_program(bound_write_tool(bound)))).value();
  auto runtime_ = runtime(definition);
  const std::string run = runtime_->start(definition, Json{{"value", 3}}).value();
  const ApprovalRequest request = runtime_->pending(run).value().at(0);
  std::ofstream(bound, std::ios::trunc) << "rate 2\n";
  Status stale = runtime_->approve(run, "update", request.digest, "reviewer-token");
  ASSERT_FALSE(stale.ok());
  EXPECT_EQ(stale.error().code, ErrorCode::kConflict);
  EXPECT_EQ(stale.error().rule, "approval_stale");
  EXPECT_NE(runtime_->pending(run).value().at(0).digest, request.digest);
}

// The claiming runtime checks the stored decision against its own approvers: a decision written
// into the store for someone it does not list blocks the run, and nothing executes.
TEST_P(DurableRuntimeTest, AStoredDecisionBySomeoneOutsideTheApproversNeverRuns) {
  const DurableWorkflow definition = workflow();
  auto runtime_ = runtime(definition);
  const std::string run = start_approved(*runtime_, definition);
  rewrite_stored_run(run, [](StoredRun&, Json& document) {
    ASSERT_EQ(document["phases"][0]["approval"]["decidedBy"], "reviewer");
    document["phases"][0]["approval"]["decidedBy"] = "mallory";
  });

  runtime_->run_due().value();
  RunView view = runtime_->status(run).value();
  EXPECT_EQ(view.status, RunStatus::kBlocked);
  ASSERT_TRUE(view.error);
  EXPECT_EQ(view.error->code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(view.error->rule, "approver");
  EXPECT_EQ(adapter_->executions, 0);
  EXPECT_EQ(effects_made(effects_file()), 0);
}

// An approval is the digest of the phase's input and tools as stored when it is claimed: an input
// rewritten in the store after the decision (a signature, over the digest, would not show it) is
// refused, and nothing runs.
TEST_P(DurableRuntimeTest, AnInputRewrittenInTheStoreAfterApprovalNeverRuns) {
  const DurableWorkflow definition = workflow();
  auto runtime_ = runtime(definition);
  const std::string run = start_approved(*runtime_, definition);
  rewrite_stored_run(run, [](StoredRun&, Json& document) {
    ASSERT_EQ(document["phases"][0]["input"], (Json{{"value", 3}}));
    document["phases"][0]["input"] = {{"value", 50}};
  });

  EXPECT_EQ(runtime_->run_due().value(), 0u);
  RunView view = runtime_->status(run).value();
  EXPECT_EQ(view.status, RunStatus::kBlocked);
  ASSERT_TRUE(view.error);
  EXPECT_EQ(view.error->code, ErrorCode::kIntegrityViolation);
  EXPECT_EQ(view.error->rule, "approval_digest");
  EXPECT_EQ(adapter_->executions, 0);
  EXPECT_EQ(effects_made(effects_file()), 0);
}

// A person the hook vouches for approves only when the runtime lists them.
TEST_P(DurableRuntimeTest, OnlyTheRuntimesApproversMayDecide) {
  const DurableWorkflow definition = workflow();
  auto runtime_ = runtime(
      definition, [](WorkflowRuntimeOptions& options) { options.approvers = {"someone-else"}; });
  const std::string run = runtime_->start(definition, Json{{"value", 3}}).value();
  const ApprovalRequest request = runtime_->pending(run).value().at(0);
  Status refused = runtime_->approve(run, "update", request.digest, "reviewer-token");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kPermissionDenied);
  EXPECT_EQ(refused.error().rule, "approver");
  // And the set is part of the policy an approval binds.
  auto wider = runtime(definition, [](WorkflowRuntimeOptions& options) {
    options.approvers = {"reviewer", "someone-else"};
  });
  EXPECT_NE(wider->policy_hash(), runtime_->policy_hash());
}

// With approver keys a decision counts only with the person's signature: unsigned, signed for
// another digest or with another key, it is refused; signed, the phase runs.
TEST_P(DurableRuntimeTest, WithApproverKeysOnlyASignedDecisionCounts) {
  const PemKeyPair reviewer = ed25519_key_pair();
  const PemKeyPair other = ed25519_key_pair();
  const DurableWorkflow definition = workflow();
  auto runtime_ = runtime(definition, [&](WorkflowRuntimeOptions& options) {
    options.approver_keys = {{"reviewer", reviewer.public_key}};
  });
  const std::string run = runtime_->start(definition, Json{{"value", 3}}).value();
  const std::string digest = runtime_->pending(run).value().at(0).digest;
  auto signature = [&](const PemKeyPair& key, const std::string& signed_digest, Decision decision) {
    return sign_decision(key.private_key,
                         decision_message(run, "update", signed_digest, decision, "reviewer"))
        .value();
  };
  for (const std::string& bad :
       {std::string(), signature(other, digest, Decision::kApprove),
        signature(reviewer, std::string(64, 'a'), Decision::kApprove),
        signature(reviewer, digest, Decision::kReject), std::string("base64:AAAA")}) {
    Status refused = runtime_->approve(run, "update", digest, "reviewer-token", bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().code, ErrorCode::kPermissionDenied);
    EXPECT_EQ(refused.error().rule, "approval_signature");
  }
  ASSERT_TRUE(runtime_
                  ->approve(run, "update", digest, "reviewer-token",
                            signature(reviewer, digest, Decision::kApprove))
                  .ok());
  EXPECT_EQ(runtime_->run_due().value(), 1u);
  EXPECT_EQ(runtime_->status(run).value().status, RunStatus::kSucceeded);
}

// Whoever can write the store cannot approve when decisions are signed: a phase made "approved"
// in the store, with the real approver's name and a signature copied from another decision, is
// refused when claimed, and nothing runs.
TEST_P(DurableRuntimeTest, WithApproverKeysAStoreWriterCannotApprove) {
  const PemKeyPair reviewer = ed25519_key_pair();
  const DurableWorkflow definition = workflow();
  auto runtime_ = runtime(definition, [&](WorkflowRuntimeOptions& options) {
    options.approver_keys = {{"reviewer", reviewer.public_key}};
  });
  const std::string signed_run = runtime_->start(definition, Json{{"value", 3}}).value();
  const std::string digest = runtime_->pending(signed_run).value().at(0).digest;
  const std::string genuine =
      sign_decision(reviewer.private_key,
                    decision_message(signed_run, "update", digest, Decision::kApprove, "reviewer"))
          .value();
  const std::string forged_run = runtime_->start(definition, Json{{"value", 4}}).value();
  runtime_->pending(forged_run).value();
  rewrite_stored_run(forged_run, [&](StoredRun& stored, Json& document) {
    Json& phase = document["phases"][0];
    phase["state"] = "approved";
    phase["approval"]["decidedBy"] = "reviewer";
    phase["approval"]["decidedAt"] = 1;
    phase["approval"]["signature"] = genuine;
    document["status"] = "running";
    stored.status = "running";
    stored.wake_at_millis = 0;
    stored.wake_policy = runtime_->policy_hash();
  });

  EXPECT_EQ(runtime_->run_due().value(), 0u);
  RunView view = runtime_->status(forged_run).value();
  EXPECT_EQ(view.status, RunStatus::kBlocked);
  ASSERT_TRUE(view.error);
  EXPECT_EQ(view.error->rule, "approval_signature");
  EXPECT_EQ(adapter_->executions, 0);
  EXPECT_EQ(effects_made(effects_file()), 0);
}

// Approver keys must cover exactly the approvers, and be Ed25519 public keys.
TEST_P(DurableRuntimeTest, ApproverKeysMustGiveEveryApproverAnEd25519Key) {
  const DurableWorkflow definition = workflow();
  const PemKeyPair key = ed25519_key_pair();
  const std::vector<std::map<std::string, std::string>> refused{
      {{"reviewer", key.private_key}},
      {{"reviewer", "not a key"}},
      {{"reviewer", key.public_key}, {"stranger", key.public_key}},
  };
  for (const auto& keys : refused) {
    WorkflowRuntimeOptions options = runtime_options(open_store(), mode_, definition);
    options.approver_keys = keys;
    Result<std::unique_ptr<WorkflowRuntime>> created = WorkflowRuntime::create(std::move(options));
    ASSERT_FALSE(created.ok());
    EXPECT_EQ(created.error().code, ErrorCode::kInvalidConfig);
  }
  WorkflowRuntimeOptions options = runtime_options(open_store(), mode_, definition);
  options.approvers = {"reviewer", "second"};
  options.approver_keys = {{"reviewer", key.public_key}};
  EXPECT_FALSE(WorkflowRuntime::create(std::move(options)).ok());
}

TEST_P(DurableRuntimeTest, InspectRefusesMalformedIdentities) {
  auto runtime_ = runtime(workflow());
  Result<std::optional<PhaseAudit>> bad_run = runtime_->inspect("not-a-run", "update");
  ASSERT_FALSE(bad_run.ok());
  EXPECT_EQ(bad_run.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(bad_run.error().message, "Run identity is invalid.");
  for (const char* phase : {"__proto__", "constructor", "prototype", "1st", ""}) {
    EXPECT_EQ(runtime_->inspect(std::string(64, 'a'), phase).error().code, ErrorCode::kInvalidInput)
        << phase;
  }
  EXPECT_FALSE(runtime_->inspect(std::string(64, 'a'), "update").value());
}

INSTANTIATE_TEST_SUITE_P(Stores, DurableRuntimeTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         [](const auto& info) { return store_name(info.param); });

}  // namespace
}  // namespace codemode::testing
