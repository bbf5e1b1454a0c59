// A phase whose commit the store could not take (docs/workflows.md, "Store outages"): what the
// runtime knows is committed by its next pass, a claim that may have landed is given back, and no
// program runs twice. Through the real worker, over the real SQLite store made to fail where the
// test says (flaky_store.h); tests/cli/workflow_outage_test.cc stops a real PostgreSQL server.
#include <gtest/gtest.h>

#include "codemode/workflow_runtime.h"

#include "support/adapter_options.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "workflow/durable_fixture.h"
#include "workflow/flaky_store.h"

namespace codemode::testing {
namespace {

using Lost = FlakyStore::Lost;

// The swap a phase's `step` commits: its claim, receipt or completion.
FlakyStore::ReplaceFault at(const char* step, Lost lost) {
  const std::string name = step;
  return [name, lost](const Json& document) -> std::optional<Lost> {
    const Json& phase = document.at("phases").at(0);
    const bool running = phase.at("state") == "running";
    const bool match = (name == "claim" && running && !phase.contains("receipt")) ||
                       (name == "receipt" && running && phase.contains("receipt")) ||
                       (name == "completion" && phase.at("state") == "succeeded");
    return match ? std::optional<Lost>(lost) : std::nullopt;
  };
}

class UnsettledPhasesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_WORKER();
    ASSERT_TRUE(scratch_.ok());
    store_ = std::make_shared<FlakyStore>(
        open_workflow_store("sqlite:" + scratch_.file("runs.db")).value());
    adapter_ =
        std::make_shared<CountingAdapter>(make_process_adapter(adapter_options(*worker_binary())));
    runtime_ = WorkflowRuntime::create(
                   runtime_options(store_, nested_code_mode(adapter_, write_), workflow_))
                   .value();
    run_ = runtime_->start(workflow_, Json{{"value", 3}}).value();
    ASSERT_TRUE(runtime_
                    ->approve(run_, "update", runtime_->pending(run_).value().at(0).digest,
                              "reviewer-token")
                    .ok());
  }

  std::string effects_file() const { return scratch_.file("effects.log"); }

  // The first pass fails as the store did; the run is left running, the phase ran `executed`
  // times.
  void expect_first_pass_cut_short(int executed) {
    Result<std::size_t> first = runtime_->run_due();
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(first.error().code, ErrorCode::kStorageUnavailable);
    EXPECT_EQ(first.error().rule, "store_io");
    EXPECT_EQ(runtime_->status(run_).value().status, RunStatus::kRunning);
    EXPECT_EQ(adapter_->executions, executed);
  }

  // The run as the fixture's worked numbers say it ends: succeeded with its output, one call of 3
  // spent, its audit written, the program run once and the effect made once.
  void expect_succeeded_once() {
    const RunView view = runtime_->status(run_).value();
    EXPECT_EQ(view.status, RunStatus::kSucceeded);
    EXPECT_EQ(view.output, (Json{{"value", 3}}));
    EXPECT_EQ(view.ledger,
              (RunLedger{.spent_micros = 3, .reserved_micros = 0, .max_cost_micros = 6}));
    ASSERT_TRUE(view.phases.at(0).receipt);
    EXPECT_EQ(view.phases.at(0).receipt->disclosure, Disclosure::kReleased);
    std::optional<PhaseAudit> audit = runtime_->inspect(run_, "update").value();
    ASSERT_TRUE(audit);
    EXPECT_EQ(audit->outcome, OutcomeStatus::kSucceeded);
    EXPECT_EQ(adapter_->executions, 1);
    EXPECT_EQ(effects_made(effects_file()), 1);
  }

  ScratchDir scratch_;
  Tool write_ = external_write_tool(effects_file());
  DurableWorkflow workflow_ =
      define_durable_workflow(one_phase_options(write_program(write_))).value();
  std::shared_ptr<FlakyStore> store_;
  std::shared_ptr<CountingAdapter> adapter_;
  std::unique_ptr<WorkflowRuntime> runtime_;
  std::string run_;
};

// Before this, a runtime that lost its store between the effect and the receipt left the phase
// running until its lease lapsed and recovery called it unknown, though the runtime knew.
TEST_F(UnsettledPhasesTest, AReceiptTheStoreCouldNotTakeIsCommittedByTheNextPass) {
  store_->fail_one_replace(at("receipt", Lost::kRequest));
  expect_first_pass_cut_short(/*executed=*/1);
  EXPECT_EQ(effects_made(effects_file()), 1);
  // Settles, and counts the phase as executed now; the program does not run again.
  EXPECT_EQ(runtime_->run_due().value(), 1u);
  expect_succeeded_once();
}

TEST_F(UnsettledPhasesTest, ACompletionThatLandedButWhoseAnswerWasLostIsNotDoneTwice) {
  store_->fail_one_replace(at("completion", Lost::kAnswer));
  Result<std::size_t> first = runtime_->run_due();
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().rule, "store_io");
  EXPECT_EQ(runtime_->run_due().value(), 1u);
  expect_succeeded_once();
}

// Before this, an audit the store could not take ended the phase outcome_unknown at once.
TEST_F(UnsettledPhasesTest, AnAuditTheStoreCouldNotTakeIsWrittenByTheNextPass) {
  store_->audit_failures = 1;
  expect_first_pass_cut_short(/*executed=*/1);
  EXPECT_FALSE(runtime_->inspect(run_, "update").value());
  EXPECT_EQ(runtime_->run_due().value(), 1u);
  expect_succeeded_once();
}

// The claim's commit landed but its answer was lost: the runtime cannot know whether it holds the
// phase, and it executed nothing. The next pass gives the claim back and runs the phase once,
// instead of leaving it to lapse into outcome_unknown.
TEST_F(UnsettledPhasesTest, AClaimWhoseAnswerWasLostIsGivenBackAndRunOnce) {
  store_->fail_one_replace(at("claim", Lost::kAnswer));
  expect_first_pass_cut_short(/*executed=*/0);
  EXPECT_EQ(runtime_->status(run_).value().ledger.reserved_micros, 6);
  EXPECT_EQ(runtime_->run_due().value(), 1u);
  expect_succeeded_once();
}

TEST_F(UnsettledPhasesTest, AClaimThatNeverReachedTheStoreRunsOnTheNextPass) {
  store_->fail_one_replace(at("claim", Lost::kRequest));
  Result<std::size_t> first = runtime_->run_due();
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(runtime_->status(run_).value().phases.at(0).state, PhaseState::kApproved);
  EXPECT_EQ(runtime_->run_due().value(), 1u);
  expect_succeeded_once();
}

// A phase another runtime recovered while its runner could not reach the store stays as
// recovery left it: what the runner knew arrives too late and changes nothing, and nothing runs
// again.
TEST_F(UnsettledPhasesTest, APhaseRecoveredMeanwhileStaysUnknown) {
  store_->fail_one_replace(at("receipt", Lost::kRequest));
  expect_first_pass_cut_short(/*executed=*/1);
  WorkflowRuntimeOptions later =
      runtime_options(store_, nested_code_mode(adapter_, write_), workflow_);
  later.clock_millis = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count() +
           3'600'000;
  };
  EXPECT_EQ(WorkflowRuntime::create(std::move(later)).value()->recover_expired().value(), 1u);
  EXPECT_EQ(runtime_->run_due().value(), 1u);  // the one execution, settled as far as it can be
  const RunView view = runtime_->status(run_).value();
  EXPECT_EQ(view.status, RunStatus::kOutcomeUnknown);
  EXPECT_EQ(view.error->rule, "phase_interrupted");
  EXPECT_FALSE(view.output);
  EXPECT_EQ(adapter_->executions, 1);
  EXPECT_EQ(effects_made(effects_file()), 1);
}

}  // namespace
}  // namespace codemode::testing
