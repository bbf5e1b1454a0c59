#include "core/time/deadline_timer.h"

#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace codemode::internal {
namespace {

using namespace std::chrono_literals;
using Clock = DeadlineTimer::Clock;

// Counts callbacks and lets the test wait for a number of them.
class Counter {
 public:
  void add(int value = -1) {
    std::lock_guard lock(mu_);
    ++count_;
    if (value >= 0) order_.push_back(value);
    changed_.notify_all();
  }
  bool wait_for(int count, std::chrono::milliseconds limit = 10s) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, limit, [&] { return count_ >= count; });
  }
  int count() {
    std::lock_guard lock(mu_);
    return count_;
  }
  std::vector<int> order() {
    std::lock_guard lock(mu_);
    return order_;
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int count_ = 0;
  std::vector<int> order_;
};

TEST(DeadlineTimerTest, FiresInDeadlineOrderNotSchedulingOrder) {
  Counter counter;
  const auto start = Clock::now();
  std::vector<TimerHandle> handles;
  for (int i = 0; i < 5; ++i) {
    handles.push_back(DeadlineTimer::schedule(start + 50ms - i * 10ms, [&, i] { counter.add(i); }));
  }
  ASSERT_TRUE(counter.wait_for(5));
  EXPECT_EQ(counter.order(), (std::vector<int>{4, 3, 2, 1, 0}));
}

TEST(DeadlineTimerTest, EqualDeadlinesFireInSchedulingOrder) {
  Counter counter;
  const auto deadline = Clock::now() + 20ms;
  std::vector<TimerHandle> handles;
  for (int i = 0; i < 4; ++i) {
    handles.push_back(DeadlineTimer::schedule(deadline, [&, i] { counter.add(i); }));
  }
  ASSERT_TRUE(counter.wait_for(4));
  EXPECT_EQ(counter.order(), (std::vector<int>{0, 1, 2, 3}));
}

TEST(DeadlineTimerTest, NeverFiresBeforeItsDeadline) {
  std::promise<Clock::time_point> fired;
  const auto deadline = Clock::now() + 30ms;
  TimerHandle handle = DeadlineTimer::schedule(deadline, [&] { fired.set_value(Clock::now()); });
  EXPECT_GE(fired.get_future().get(), deadline);
}

TEST(DeadlineTimerTest, PastDeadlineFiresAtOnce) {
  Counter counter;
  TimerHandle handle = DeadlineTimer::schedule(Clock::now() - 1s, [&] { counter.add(); });
  EXPECT_TRUE(counter.wait_for(1, 2s));
}

TEST(DeadlineTimerTest, CancelBeforeTheDeadlinePreventsTheCallback) {
  std::atomic<bool> fired{false};
  TimerHandle handle = DeadlineTimer::schedule(Clock::now() + 30ms, [&] { fired = true; });
  handle.cancel();
  handle.cancel();  // idempotent
  std::this_thread::sleep_for(80ms);
  EXPECT_FALSE(fired);
}

TEST(DeadlineTimerTest, DestroyingTheHandleCancels) {
  std::atomic<bool> fired{false};
  {
    TimerHandle handle = DeadlineTimer::schedule(Clock::now() + 30ms, [&] { fired = true; });
  }
  std::this_thread::sleep_for(80ms);
  EXPECT_FALSE(fired);
}

TEST(DeadlineTimerTest, MoveAssignmentCancelsTheReplacedTimer) {
  std::atomic<int> fired{0};
  Counter counter;
  TimerHandle handle = DeadlineTimer::schedule(Clock::now() + 30ms, [&] { fired += 1; });
  handle = DeadlineTimer::schedule(Clock::now() + 40ms, [&] { counter.add(); });
  ASSERT_TRUE(counter.wait_for(1));
  std::this_thread::sleep_for(20ms);
  EXPECT_EQ(fired, 0);
}

TEST(DeadlineTimerTest, CancelWhileRunningWaitsForTheCallbackToFinish) {
  std::promise<void> started;
  std::atomic<bool> finished{false};
  TimerHandle handle = DeadlineTimer::schedule(Clock::now(), [&] {
    started.set_value();
    std::this_thread::sleep_for(100ms);
    finished = true;
  });
  started.get_future().wait();
  handle.cancel();
  EXPECT_TRUE(finished);
}

TEST(DeadlineTimerTest, CancelFromTheTimerThreadDoesNotDeadlock) {
  std::promise<void> handles_ready;
  std::shared_future<void> ready = handles_ready.get_future().share();
  std::atomic<bool> second_fired{false};
  Counter counter;
  TimerHandle first;
  TimerHandle second;
  first = DeadlineTimer::schedule(Clock::now() + 10ms, [&] {
    ready.wait();
    first.cancel();   // its own handle, while it runs
    second.cancel();  // another timer, still pending
    counter.add();
  });
  second = DeadlineTimer::schedule(Clock::now() + 60ms, [&] { second_fired = true; });
  handles_ready.set_value();
  ASSERT_TRUE(counter.wait_for(1, 2s));
  std::this_thread::sleep_for(100ms);
  EXPECT_FALSE(second_fired);
}

TEST(DeadlineTimerTest, TenThousandTimersAllFireOnceAndCancelledOnesNever) {
  constexpr int kTimers = 10'000;
  Counter counter;
  std::atomic<int> early{0};
  std::atomic<int> cancelled_fired{0};
  std::vector<TimerHandle> kept;
  kept.reserve(kTimers);
  const auto start = Clock::now();
  for (int i = 0; i < kTimers; ++i) {
    const auto deadline = start + 20ms + std::chrono::microseconds(i * 17 % 100'000);
    kept.push_back(DeadlineTimer::schedule(deadline, [&, deadline] {
      if (Clock::now() < deadline) early += 1;
      counter.add();
    }));
    // Far enough out that it cannot fire before the cancel on the next line.
    TimerHandle dropped = DeadlineTimer::schedule(start + 2s, [&] { cancelled_fired += 1; });
  }
  ASSERT_TRUE(counter.wait_for(kTimers, 30s));
  EXPECT_EQ(counter.count(), kTimers);
  EXPECT_EQ(early, 0);
  EXPECT_EQ(cancelled_fired, 0);
}

// The timer thread is not woken for a deadline later than the one it sleeps toward; it must still
// find that deadline when the earlier one is cancelled and it wakes for nothing.
TEST(DeadlineTimerTest, ALaterDeadlineFiresAfterTheEarlierOneWasCancelled) {
  std::promise<Clock::time_point> fired;
  TimerHandle earlier = DeadlineTimer::schedule(Clock::now() + 40ms, [] {});
  const auto deadline = Clock::now() + 120ms;
  TimerHandle later = DeadlineTimer::schedule(deadline, [&] { fired.set_value(Clock::now()); });
  earlier.cancel();
  std::future<Clock::time_point> when = fired.get_future();
  ASSERT_EQ(when.wait_for(10s), std::future_status::ready);
  EXPECT_GE(when.get(), deadline);
}

// And a deadline earlier than the one it sleeps toward wakes it.
TEST(DeadlineTimerTest, AnEarlierDeadlineWakesATimerSleepingTowardALaterOne) {
  TimerHandle far = DeadlineTimer::schedule(Clock::now() + 1h, [] {});
  std::this_thread::sleep_for(20ms);  // the timer thread now sleeps toward the far deadline
  std::promise<void> fired;
  TimerHandle near = DeadlineTimer::schedule(Clock::now() + 10ms, [&] { fired.set_value(); });
  EXPECT_EQ(fired.get_future().wait_for(10s), std::future_status::ready);
}

}  // namespace
}  // namespace codemode::internal
