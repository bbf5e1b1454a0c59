// ReadSpin checks a pipe without sleeping only while waits have been short, gives up after its
// window, and reports every spin's CPU time for crediting, up to its cap.
#include "core/process/read_spin.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/process/unique_fd.h"

namespace codemode::internal {
namespace {

using std::chrono::nanoseconds;

class ReadSpinTest : public ::testing::Test {
 protected:
  void SetUp() override {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    read_end_.reset(fds[0]);
    write_end_.reset(fds[1]);
  }

  // One wait of `spin` on the pipe, for a byte written before it (`ready`) or after its spin.
  void wait_once(ReadSpin& spin, bool ready) {
    if (ready) {
      ASSERT_EQ(write(write_end_.get(), "x", 1), 1);
    }
    spin.before_read(read_end_.get());
    if (!ready) {
      ASSERT_EQ(write(write_end_.get(), "x", 1), 1);
    }
    char byte = 0;
    ASSERT_EQ(read(read_end_.get(), &byte, 1), 1);
    spin.after_read();
  }

  // Short waits until the spin is on. A wait counts as short only within kSpinWindow, which a
  // loaded machine may preempt this thread past; a thousand in a row never are.
  bool turn_on(ReadSpin& spin) {
    for (int attempt = 0; attempt < 1000 && !spin.spinning(); ++attempt) {
      wait_once(spin, /*ready=*/true);
    }
    return spin.spinning();
  }

  ReadSpin::Credit recorder() {
    return [this](nanoseconds spent) { credits_.push_back(spent); };
  }

  UniqueFd read_end_;
  UniqueFd write_end_;
  std::vector<nanoseconds> credits_;
};

TEST_F(ReadSpinTest, TheFirstWaitSleepsAndShortWaitsTurnTheSpinOn) {
  ReadSpin spin(recorder());
  EXPECT_FALSE(spin.spinning());
  wait_once(spin, /*ready=*/true);
  EXPECT_TRUE(credits_.empty());  // no spin, nothing to credit
  EXPECT_TRUE(turn_on(spin));
  EXPECT_TRUE(credits_.empty());
}

TEST_F(ReadSpinTest, ASpinThatRunsOutIsCreditedAndTurnsItselfOff) {
  ReadSpin spin(recorder());
  ASSERT_TRUE(turn_on(spin));
  const auto start = std::chrono::steady_clock::now();
  wait_once(spin, /*ready=*/false);  // nothing arrives during the spin
  EXPECT_GE(std::chrono::steady_clock::now() - start, ReadSpin::kSpinWindow);
  ASSERT_EQ(credits_.size(), 1u);
  EXPECT_GT(credits_[0], nanoseconds(0));
  EXPECT_EQ(spin.credited(), credits_[0]);
  EXPECT_FALSE(spin.spinning());  // the wait outlasted the window
  wait_once(spin, /*ready=*/true);
  EXPECT_EQ(credits_.size(), 1u);  // that wait slept at once
  EXPECT_TRUE(turn_on(spin));
}

// The least CPU one of `spins` spent: a spin that ends at its first check costs a few
// microseconds, one that runs out about the window. The least of several, since a loaded virtual
// machine can charge any one spin for time its vCPU was away.
nanoseconds least(const std::vector<nanoseconds>& spins) {
  return *std::min_element(spins.begin(), spins.end());
}

TEST_F(ReadSpinTest, AReadableFdEndsTheSpinAtOnce) {
  ReadSpin spin(recorder());
  for (int round = 0; round < 20; ++round) {
    ASSERT_TRUE(turn_on(spin));
    wait_once(spin, /*ready=*/true);
  }
  ASSERT_FALSE(credits_.empty());
  EXPECT_LT(least(credits_), ReadSpin::kSpinWindow / 4);  // the first check found the byte
}

TEST_F(ReadSpinTest, AHungUpPipeEndsTheSpinAtOnce) {
  ReadSpin spin(recorder());
  ASSERT_TRUE(turn_on(spin));
  write_end_.reset();
  for (int round = 0; round < 20; ++round) {
    spin.before_read(read_end_.get());
    char byte = 0;
    EXPECT_EQ(read(read_end_.get(), &byte, 1), 0);
    spin.after_read();
  }
  ASSERT_FALSE(credits_.empty());
  EXPECT_LT(least(credits_), ReadSpin::kSpinWindow / 4);  // the first check saw the hang-up
}

TEST_F(ReadSpinTest, NoSpinOnceTheCreditCapIsReached) {
  ReadSpin spin(recorder(), nanoseconds(1));
  ASSERT_TRUE(turn_on(spin));
  wait_once(spin, /*ready=*/true);  // spins once, found at once, but spends over a nanosecond
  ASSERT_EQ(credits_.size(), 1u);
  EXPECT_FALSE(spin.spinning());
  wait_once(spin, /*ready=*/false);
  EXPECT_EQ(credits_.size(), 1u);
}

// A thread that keeps the core busy until it is destroyed.
class BusyThread {
 public:
  explicit BusyThread(const cpu_set_t& cpus)
      : thread_([this, cpus] {
          pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus);
          running_ = true;
          while (!stop_.load(std::memory_order_relaxed)) {
          }
        }) {
    while (!running_) std::this_thread::yield();
  }
  ~BusyThread() {
    stop_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> running_{false};
  std::atomic<bool> stop_{false};
  std::thread thread_;  // last: started once the flags exist
};

TEST_F(ReadSpinTest, ASpinThatSharesItsCoreStopsSpinningForAWhile) {
  cpu_set_t mine;
  ASSERT_EQ(pthread_getaffinity_np(pthread_self(), sizeof mine, &mine), 0);
  cpu_set_t one_cpu;
  CPU_ZERO(&one_cpu);
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &mine)) {
      CPU_SET(cpu, &one_cpu);
      break;
    }
  }
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof one_cpu, &one_cpu), 0);
  // The scheduler may let a yield return at once, so the spin sees the core free; try until a
  // spin is judged contended: then three short waits in a row neither spin nor turn it on (after
  // a spin judged free that ran out, the second of them would spin).
  ReadSpin spin(recorder());
  bool contended = false;
  for (int attempt = 0; attempt < 100 && !contended; ++attempt) {
    {
      const BusyThread busy(one_cpu);
      ASSERT_TRUE(turn_on(spin));
      wait_once(spin, /*ready=*/false);
    }
    const std::size_t credited = credits_.size();
    for (int probe = 0; probe < 3; ++probe) wait_once(spin, /*ready=*/true);
    contended = credits_.size() == credited && !spin.spinning();
  }
  ASSERT_EQ(pthread_setaffinity_np(pthread_self(), sizeof mine, &mine), 0);
  ASSERT_TRUE(contended);
  const std::size_t credited = credits_.size();
  for (int i = 4; i < ReadSpin::kContendedWaitsToSkip; ++i) {
    wait_once(spin, /*ready=*/true);  // short waits, but no spin yet
    EXPECT_FALSE(spin.spinning()) << i;
  }
  wait_once(spin, /*ready=*/true);  // the last wait to skip
  EXPECT_EQ(credits_.size(), credited);
  EXPECT_TRUE(turn_on(spin));
}

}  // namespace
}  // namespace codemode::internal
