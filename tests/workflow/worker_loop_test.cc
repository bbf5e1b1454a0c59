// The worker loop (WorkflowRuntime::work, docs/workflows.md "The worker loop"): its backoff, and
// that a store going away neither ends it nor fills its log: one report when passes start failing,
// one when they succeed again, and the work waiting meanwhile is done once the store is back.
#include "workflow/run/worker_loop.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/workflow_runtime.h"

#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/timing.h"
#include "workflow/durable_fixture.h"
#include "workflow/flaky_store.h"
#include "workflow/worker_events.h"

namespace codemode::testing {
namespace {

using std::chrono::milliseconds;

TEST(WorkerLoopTest, RetriesBackOffFromTheFirstRetryToTheCap) {
  const milliseconds first{200};
  const milliseconds cap{5'000};
  const std::vector<milliseconds> expected{
      milliseconds(200),   milliseconds(400),   milliseconds(800),  milliseconds(1'600),
      milliseconds(3'200), milliseconds(5'000), milliseconds(5'000)};
  for (std::size_t failures = 1; failures <= expected.size(); ++failures) {
    EXPECT_EQ(internal::retry_delay(failures, first, cap), expected[failures - 1]) << failures;
  }
  EXPECT_EQ(internal::retry_delay(SIZE_MAX, first, cap), cap);
  EXPECT_EQ(internal::retry_delay(3, milliseconds(1), milliseconds(1)), milliseconds(1));
}

TEST(WorkerLoopTest, OnlyAFailureOfAnotherCodeOrRuleIsNews) {
  const Error io = unreachable();
  EXPECT_TRUE(internal::is_new_failure(std::nullopt, io));
  EXPECT_FALSE(internal::is_new_failure(io, Error::storage_unavailable("store_io", "other words")));
  EXPECT_TRUE(internal::is_new_failure(io, Error::storage_unavailable("store_open", "")));
  EXPECT_TRUE(internal::is_new_failure(io, Error::conflict("store_io", "")));
}

TEST(WorkerLoopTest, AStoreOutageIsReportedOnceAndTheWaitingPhaseRunsOnceItIsBack) {
  CODEMODE_REQUIRE_WORKER();
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const Tool write = external_write_tool(scratch.file("effects.log"));
  const DurableWorkflow workflow =
      define_durable_workflow(one_phase_options(write_program(write))).value();
  auto store = std::make_shared<FlakyStore>(
      open_workflow_store("sqlite:" + scratch.file("runs.db")).value());
  auto runtime =
      WorkflowRuntime::create(runtime_options(store, worker_code_mode(write), workflow)).value();
  const std::string run = runtime->start(workflow, Json{{"value", 3}}).value();
  ASSERT_TRUE(
      runtime->approve(run, "update", runtime->pending(run).value().at(0).digest, "reviewer-token")
          .ok());

  store->down = true;
  WorkerEvents reports;
  std::optional<Result<std::size_t>> executed;
  std::jthread loop([&](std::stop_token stop) {
    executed =
        runtime->work(stop, {.poll_interval = milliseconds(2),
                             .first_retry = milliseconds(1),
                             .max_retry = milliseconds(4),
                             .reissue_interval = milliseconds(1),
                             .report = [&](const WorkerEvent& event) { reports.add(event); }});
  });
  // Long enough for many retries: each fails alike, and none is reported again.
  const auto deadline = std::chrono::steady_clock::now() + slack(std::chrono::seconds(10));
  while (store->failures < 20 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  ASSERT_GE(store->failures, 20);
  EXPECT_EQ(runtime->status(run).error().rule, "store_io");
  store->down = false;
  ASSERT_TRUE(reports.wait_for(WorkerEvent::Kind::kRecovered, slack(std::chrono::seconds(10))));
  const auto done = std::chrono::steady_clock::now() + slack(std::chrono::seconds(30));
  while (runtime->status(run).value().status != RunStatus::kSucceeded &&
         std::chrono::steady_clock::now() < done) {
    std::this_thread::sleep_for(milliseconds(10));
  }
  loop.request_stop();
  loop.join();

  ASSERT_TRUE(executed && executed->ok());
  EXPECT_EQ(**executed, 1u);
  EXPECT_EQ(runtime->status(run).value().status, RunStatus::kSucceeded);
  EXPECT_EQ(effects_made(scratch.file("effects.log")), 1);
  const std::vector<WorkerEvent> events = reports.events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, WorkerEvent::Kind::kFailing);
  ASSERT_TRUE(events[0].error);
  EXPECT_EQ(events[0].error->code, ErrorCode::kStorageUnavailable);
  EXPECT_EQ(events[0].error->rule, "store_io");
  EXPECT_EQ(events[0].retry_in, milliseconds(1));
  EXPECT_EQ(events[1].kind, WorkerEvent::Kind::kRecovered);
  EXPECT_GE(events[1].failed_passes, 10u);
}

TEST(WorkerLoopTest, RefusesIntervalsOutOfRange) {
  CODEMODE_REQUIRE_WORKER();
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const Tool write = external_write_tool(scratch.file("effects.log"));
  const DurableWorkflow workflow =
      define_durable_workflow(one_phase_options(write_program(write))).value();
  auto runtime =
      WorkflowRuntime::create(
          runtime_options(open_workflow_store("sqlite:" + scratch.file("runs.db")).value(),
                          worker_code_mode(write), workflow))
          .value();
  std::stop_source never;
  for (const WorkerLoopOptions& options :
       {WorkerLoopOptions{.poll_interval = milliseconds(0)},
        WorkerLoopOptions{.first_retry = milliseconds(10), .max_retry = milliseconds(5)},
        WorkerLoopOptions{.max_retry = std::chrono::hours(2)},
        WorkerLoopOptions{.reissue_interval = milliseconds(0)}}) {
    Result<std::size_t> refused = runtime->work(never.get_token(), options);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().rule, "workflow_runtime");
  }
}

}  // namespace
}  // namespace codemode::testing
