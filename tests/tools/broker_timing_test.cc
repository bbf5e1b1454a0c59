// invoke_tool over time: answers from other threads, the tool's timeout, the caller's stop_token,
// and answers that come too late.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <semaphore>
#include <stop_token>
#include <thread>

#include <gtest/gtest.h>

#include "codemode/broker.h"

#include "support/timing.h"
#include "tools/broker_test_support.h"

namespace codemode::testing {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A tool that hands its responder to a thread which waits, without answering, until the call's
// stop_token fires, and records that it was told to stop. `started`, when given, is released once
// the tool runs.
ToolExecuteFn waits_for_stop(ToolThreads& threads, std::atomic<bool>& told_to_stop,
                             std::binary_semaphore* started = nullptr) {
  return [&, started](const Json&, const ToolContext& context, ToolResponder respond) {
    if (started != nullptr) started->release();
    threads.start([&told_to_stop, token = context.stop_token, respond] {
      std::mutex mu;
      std::condition_variable_any never;
      std::unique_lock lock(mu);
      // Bounded, so a broker that never asks to stop fails the test instead of hanging it.
      never.wait_for(lock, token, 10s, [] { return false; });
      told_to_stop = token.stop_requested();
    });
  };
}

ToolOptions with_timeout(ToolOptions options, std::chrono::milliseconds timeout) {
  options.timeout = timeout;
  return options;
}

TEST(InvokeToolTimingTest, AnswerFromAnotherThreadFiftyMillisecondsLaterSucceeds) {
  ToolThreads threads;
  Tool tool =
      make_tool(ToolEffects::kWrite, [&](const Json&, const ToolContext&, ToolResponder respond) {
        threads.start([respond] {
          std::this_thread::sleep_for(50ms);
          respond.succeed(Json{{"value", 50}});
        });
      });
  auto budget = make_budget();
  const auto start = Clock::now();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  EXPECT_GE(Clock::now() - start, 50ms);
  EXPECT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  EXPECT_EQ(outcome.output, (Json{{"value", 50}}));
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kSucceeded, Disclosure::kReleased));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

TEST(InvokeToolTimingTest, ToolWithoutEffectsThatNeverAnswersTimesOutAndIsToldToStop) {
  std::atomic<bool> told_to_stop{false};
  auto budget = make_budget();
  ToolOutcome outcome;
  Clock::duration took;
  {
    ToolThreads threads;
    Tool tool = make_tool(with_timeout(
        tool_options(ToolEffects::kNone, waits_for_stop(threads, told_to_stop)), 50ms));
    const auto start = Clock::now();
    outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
    took = Clock::now() - start;
  }
  EXPECT_GE(took, 50ms);
  EXPECT_LT(took, testing::slack(5s));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kTimeout, "tool_timeout");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kFailed));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
  EXPECT_TRUE(told_to_stop);
}

TEST(InvokeToolTimingTest, WriteToolThatNeverAnswersTimesOutAsOutcomeUnknown) {
  std::atomic<bool> told_to_stop{false};
  auto budget = make_budget();
  ToolOutcome outcome;
  {
    ToolThreads threads;
    Tool tool = make_tool(with_timeout(
        tool_options(ToolEffects::kWrite, waits_for_stop(threads, told_to_stop)), 50ms));
    outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  }
  ASSERT_NO_FATAL_FAILURE(expect_refusal(outcome, OutcomeStatus::kOutcomeUnknown,
                                         ErrorCode::kOutcomeUnknown, "tool_timeout"));
  EXPECT_EQ(outcome.error->message, kUnknownMessage);
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kUnknown));
  EXPECT_EQ(budget->snapshot(), ledger(0, kCost, 1));
  EXPECT_TRUE(told_to_stop);
}

TEST(InvokeToolTimingTest, BlockingToolThatHonoursItsStopTokenEndsAsATimeout) {
  Tool tool = make_tool(with_timeout(
      tool_options(ToolEffects::kNone,
                   [](const Json&, const ToolContext& context, ToolResponder) {
                     const auto give_up = Clock::now() + 10s;  // fail, not hang
                     while (!context.stop_token.stop_requested() && Clock::now() < give_up) {
                       std::this_thread::sleep_for(1ms);
                     }
                   }),
      50ms));
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kTimeout, "tool_timeout");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kFailed));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

TEST(InvokeToolTimingTest, AnswerAfterTheTimeoutIsIgnored) {
  auto budget = make_budget();
  std::atomic<bool> answered_late{false};
  std::binary_semaphore timed_out{0};  // released once invoke_tool has returned
  ToolOutcome outcome;
  {
    ToolThreads threads;
    Tool tool = make_tool(
        with_timeout(tool_options(ToolEffects::kNone,
                                  [&](const Json&, const ToolContext&, ToolResponder respond) {
                                    threads.start([&answered_late, &timed_out, respond] {
                                      // Bounded, so a call that never times out fails instead of
                                      // hanging.
                                      (void)timed_out.try_acquire_for(slack(10s));
                                      respond.succeed(Json{{"value", 1}});
                                      answered_late = true;
                                    });
                                  }),
                     50ms));
    outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
    EXPECT_FALSE(answered_late);
    timed_out.release();
  }
  EXPECT_TRUE(answered_late);
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kTimeout, "tool_timeout");
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
}

// Runs invoke_tool while another thread stops the caller's stop_token once the tool has started
// (released `started`): a stop before the dispatch is another case (AlreadyCancelled... below).
ToolOutcome invoke_and_cancel(const Tool& tool, const std::shared_ptr<Budget>& budget,
                              std::binary_semaphore& started) {
  std::stop_source caller;
  InvokeOptions options = invoke_options(tool, budget);
  options.stop_token = caller.get_token();
  std::jthread canceller([caller, &started]() mutable {
    (void)started.try_acquire_for(slack(10s));  // bounded: a tool never run fails the test
    caller.request_stop();
  });
  return invoke_tool(tool, valid_input(), options);
}

TEST(InvokeToolTimingTest, CallerCancellationOfAToolWithoutEffectsIsCancelled) {
  std::atomic<bool> told_to_stop{false};
  auto budget = make_budget();
  ToolOutcome outcome;
  {
    ToolThreads threads;
    std::binary_semaphore started{0};
    outcome = invoke_and_cancel(
        make_tool(ToolEffects::kNone, waits_for_stop(threads, told_to_stop, &started)), budget,
        started);
  }
  expect_refusal(outcome, OutcomeStatus::kCancelled, ErrorCode::kCancelled, "cancelled");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kFailed));
  EXPECT_EQ(budget->snapshot(), ledger(kCost, 0, 1));
  EXPECT_TRUE(told_to_stop);
}

TEST(InvokeToolTimingTest, CallerCancellationOfAWriteToolIsOutcomeUnknown) {
  std::atomic<bool> told_to_stop{false};
  auto budget = make_budget();
  ToolOutcome outcome;
  {
    ToolThreads threads;
    std::binary_semaphore started{0};
    outcome = invoke_and_cancel(
        make_tool(ToolEffects::kWrite, waits_for_stop(threads, told_to_stop, &started)), budget,
        started);
  }
  expect_refusal(outcome, OutcomeStatus::kOutcomeUnknown, ErrorCode::kOutcomeUnknown, "cancelled");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kUnknown));
  EXPECT_EQ(budget->snapshot(), ledger(0, kCost, 1));
  EXPECT_TRUE(told_to_stop);
}

TEST(InvokeToolTimingTest, AlreadyCancelledCallerIsCancelledBeforeDispatchAfterInputChecks) {
  std::atomic<int> executed{0};
  Tool tool = make_tool(ToolEffects::kWrite,
                        [&](const Json&, const ToolContext&, ToolResponder) { executed += 1; });
  auto budget = make_budget();
  std::stop_source caller;
  caller.request_stop();
  InvokeOptions options = invoke_options(tool, budget);
  options.stop_token = caller.get_token();

  ToolOutcome outcome = invoke_tool(tool, valid_input(), options);
  expect_refusal(outcome, OutcomeStatus::kCancelled, ErrorCode::kCancelled, "cancelled");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kNotStarted));

  outcome = invoke_tool(tool, Json{{"n", "bad"}}, options);
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kInvalidInput, "input_schema");
  EXPECT_EQ(executed, 0);
  EXPECT_EQ(budget->snapshot(), ledger(0, 0, 0));
}

TEST(InvokeToolTimingTest, TimeoutWhileTheInputGuardRunsEndsBeforeDispatch) {
  std::atomic<int> executed{0};
  std::atomic<bool> guard_saw_stop{false};
  ToolOptions options = with_timeout(
      tool_options(ToolEffects::kWrite,
                   [&](const Json&, const ToolContext&, ToolResponder) { executed += 1; }),
      50ms);
  options.guards.input = [&](const Json&, const ToolContext& context) {
    // Until the timeout stops it (bounded, so a timeout that never fires fails the test).
    std::mutex mu;
    std::condition_variable_any never;
    std::unique_lock lock(mu);
    never.wait_for(lock, context.stop_token, slack(10s), [] { return false; });
    guard_saw_stop = context.stop_token.stop_requested();
    return GuardVerdict::kAllow;
  };
  Tool tool = make_tool(std::move(options));
  auto budget = make_budget();
  ToolOutcome outcome = invoke_tool(tool, valid_input(), invoke_options(tool, budget));
  expect_refusal(outcome, OutcomeStatus::kFailed, ErrorCode::kTimeout, "tool_timeout");
  EXPECT_EQ(outcome.receipt, receipt(ExecutionState::kNotStarted));
  EXPECT_TRUE(guard_saw_stop);
  EXPECT_EQ(executed, 0);
  EXPECT_EQ(budget->snapshot(), ledger(0, 0, 0));
}

}  // namespace
}  // namespace codemode::testing
