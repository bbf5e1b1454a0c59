// CallPool: standing threads for tool calls (src/executor/call_pool.h).
#include "executor/call_pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace codemode::internal {
namespace {

using namespace std::chrono_literals;

// A count the test can wait on, with a limit so a broken pool fails instead of hanging.
class Count {
 public:
  void add() {
    std::lock_guard lock(mu_);
    ++value_;
    changed_.notify_all();
  }
  bool wait_for(int value, std::chrono::milliseconds limit = 20s) {
    std::unique_lock lock(mu_);
    return changed_.wait_for(lock, limit, [&] { return value_ >= value; });
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  int value_ = 0;
};

TEST(CallPool, NoTaskWaitsForABusyThread) {
  // Each task waits until all of them run: a pool that queued a task behind a busy thread would
  // never get there.
  constexpr int kTasks = 32;
  CallPool pool;
  Count started;
  Count finished;
  for (int i = 0; i < kTasks; ++i) {
    ASSERT_TRUE(pool.run([&] {
      started.add();
      started.wait_for(kTasks);
      finished.add();
    }));
  }
  EXPECT_TRUE(finished.wait_for(kTasks));
  EXPECT_GE(pool.thread_count(), static_cast<std::size_t>(kTasks));
}

TEST(CallPool, SequentialTasksReuseThreads) {
  CallPool pool;
  std::mutex mu;
  std::set<std::thread::id> threads;
  for (int i = 0; i < 200; ++i) {
    Count done;
    ASSERT_TRUE(pool.run([&] {
      {
        std::lock_guard lock(mu);
        threads.insert(std::this_thread::get_id());
      }
      done.add();
    }));
    ASSERT_TRUE(done.wait_for(1));
  }
  // A thread that has not yet gone back to waiting when the next task comes makes the pool start
  // another, so a few may exist; one per task would be 200.
  EXPECT_LT(threads.size(), 20u);
}

TEST(CallPool, DestructionLetsEveryTaskFinishThenJoins) {
  std::atomic<int> finished{0};
  {
    CallPool pool;
    for (int i = 0; i < 8; ++i) {
      ASSERT_TRUE(pool.run([&] {
        std::this_thread::sleep_for(20ms);
        ++finished;
      }));
    }
  }
  EXPECT_EQ(finished.load(), 8);
}

TEST(CallPool, IdleThreadsEndAfterTheirLingerAndThePoolStillRuns) {
  CallPool pool(50ms);
  Count done;
  ASSERT_TRUE(pool.run([&] { done.add(); }));
  ASSERT_TRUE(done.wait_for(1));
  const auto limit = std::chrono::steady_clock::now() + 20s;
  while (pool.thread_count() != 0 && std::chrono::steady_clock::now() < limit) {
    std::this_thread::sleep_for(10ms);
  }
  EXPECT_EQ(pool.thread_count(), 0u);
  ASSERT_TRUE(pool.run([&] { done.add(); }));
  EXPECT_TRUE(done.wait_for(2));
}

TEST(CallPool, ATaskThatThrowsDoesNotEndItsThread) {
  CallPool pool;
  Count done;
  ASSERT_TRUE(pool.run([] { throw 1; }));
  ASSERT_TRUE(pool.run([&] { done.add(); }));
  EXPECT_TRUE(done.wait_for(1));
}

TEST(CallPool, ATaskWritingToAPipeWithoutReaderGetsEpipeNotSigpipe) {
  int fds[2];
  ASSERT_EQ(pipe2(fds, O_CLOEXEC), 0);
  close(fds[0]);
  // With SIGPIPE at its default action, a delivered SIGPIPE would end this test process.
  auto previous = signal(SIGPIPE, SIG_DFL);
  CallPool pool;
  Count done;
  std::atomic<int> error{0};
  ASSERT_TRUE(pool.run([&] {
    if (write(fds[1], "x", 1) < 0) error = errno;
    done.add();
  }));
  ASSERT_TRUE(done.wait_for(1));
  signal(SIGPIPE, previous);
  close(fds[1]);
  EXPECT_EQ(error.load(), EPIPE);
}

}  // namespace
}  // namespace codemode::internal
