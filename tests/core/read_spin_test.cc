// ReadSpin checks a pipe without sleeping only while waits have been short, gives up after its
// window, and reports every spin's CPU time for crediting, up to its cap. Its decisions are tested
// on a clock the test moves (ManualTimeSource); what it costs on a real core, on the real clock.
#include "core/process/read_spin.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include <unistd.h>

#include <gtest/gtest.h>

#include "core/process/unique_fd.h"
#include "support/manual_time_source.h"

namespace codemode::internal {
namespace {

using std::chrono::microseconds;
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

  // On a manual clock a wait takes no time, so one wait turns the spin on.
  void turn_on_now(ReadSpin& spin) {
    wait_once(spin, /*ready=*/true);
    ASSERT_TRUE(spin.spinning());
  }

  ReadSpin::Credit recorder() {
    return [this](nanoseconds spent) { credits_.push_back(spent); };
  }

  UniqueFd read_end_;
  UniqueFd write_end_;
  std::vector<nanoseconds> credits_;
  testing::ManualTimeSource clock_;
};

TEST_F(ReadSpinTest, TheFirstWaitSleepsAndAShortWaitTurnsTheSpinOn) {
  ReadSpin spin(recorder(), ReadSpin::kDefaultMaxCredit, clock_);
  EXPECT_FALSE(spin.spinning());
  wait_once(spin, /*ready=*/true);
  EXPECT_TRUE(credits_.empty());  // no spin, nothing to credit
  EXPECT_TRUE(spin.spinning());   // that wait took no time on this clock
}

TEST_F(ReadSpinTest, AWaitJustLongerThanTheWindowTurnsTheSpinOff) {
  ReadSpin spin(recorder(), ReadSpin::kDefaultMaxCredit, clock_);
  turn_on_now(spin);
  ASSERT_EQ(write(write_end_.get(), "x", 1), 1);
  spin.before_read(read_end_.get());  // spins, and finds the byte at once
  char byte = 0;
  ASSERT_EQ(read(read_end_.get(), &byte, 1), 1);
  clock_.advance(ReadSpin::kSpinWindow + nanoseconds(1));
  spin.after_read();
  EXPECT_FALSE(spin.spinning());
}

TEST_F(ReadSpinTest, ASpinThatRunsOutIsCreditedAndTurnsItselfOff) {
  ReadSpin spin(recorder(), ReadSpin::kDefaultMaxCredit, clock_);
  turn_on_now(spin);
  // Every reading moves the clock 1 µs on the core: nothing arrives, the spin gives up after its
  // window, and all of it was CPU time.
  clock_.step_every_reading(microseconds(1), microseconds(1));
  spin.before_read(read_end_.get());
  ASSERT_EQ(credits_.size(), 1u);
  EXPECT_GE(credits_[0], ReadSpin::kSpinWindow);
  EXPECT_LE(credits_[0], ReadSpin::kSpinWindow + microseconds(2));
  EXPECT_EQ(spin.credited(), credits_[0]);
  ASSERT_EQ(write(write_end_.get(), "x", 1), 1);
  char byte = 0;
  ASSERT_EQ(read(read_end_.get(), &byte, 1), 1);
  spin.after_read();
  EXPECT_FALSE(spin.spinning());  // the wait outlasted the window
  clock_.step_every_reading(nanoseconds(0), nanoseconds(0));
  wait_once(spin, /*ready=*/true);
  EXPECT_EQ(credits_.size(), 1u);  // that wait slept at once
  EXPECT_TRUE(spin.spinning());    // and was short
}

TEST_F(ReadSpinTest, NoSpinOnceTheCreditCapIsReached) {
  ReadSpin spin(recorder(), microseconds(10), clock_);
  turn_on_now(spin);
  clock_.step_every_reading(microseconds(1), microseconds(1));
  wait_once(spin, /*ready=*/false);  // spins its whole window: more than the cap
  ASSERT_EQ(credits_.size(), 1u);
  clock_.step_every_reading(nanoseconds(0), nanoseconds(0));
  wait_once(spin, /*ready=*/true);  // short, but the cap is spent
  EXPECT_FALSE(spin.spinning());
  wait_once(spin, /*ready=*/true);
  EXPECT_EQ(credits_.size(), 1u);
}

TEST_F(ReadSpinTest, ASpinMostlyOffItsCoreStopsSpinningForAWhile) {
  ReadSpin spin(recorder(), ReadSpin::kDefaultMaxCredit, clock_);
  turn_on_now(spin);
  // Each reading: 10 µs pass, of which this thread ran 1 µs (another thread had the core).
  clock_.step_every_reading(microseconds(10), microseconds(1));
  wait_once(spin, /*ready=*/false);
  ASSERT_EQ(credits_.size(), 1u);
  clock_.step_every_reading(nanoseconds(0), nanoseconds(0));
  for (int i = 0; i < ReadSpin::kContendedWaitsToSkip; ++i) {
    wait_once(spin, /*ready=*/true);  // short waits, but none spins
    EXPECT_EQ(credits_.size(), 1u) << i;
  }
  EXPECT_TRUE(spin.spinning());  // the skipping is over, and the last waits were short
  wait_once(spin, /*ready=*/true);
  EXPECT_EQ(credits_.size(), 2u);
}

TEST_F(ReadSpinTest, ASpinOnItsCoreKeepsSpinning) {
  ReadSpin spin(recorder(), ReadSpin::kDefaultMaxCredit, clock_);
  turn_on_now(spin);
  clock_.step_every_reading(microseconds(1), microseconds(1));
  wait_once(spin, /*ready=*/false);  // ran out, on the core all along
  clock_.step_every_reading(nanoseconds(0), nanoseconds(0));
  wait_once(spin, /*ready=*/true);  // sleeps (the last wait was long) and turns the spin on
  wait_once(spin, /*ready=*/true);  // spins: no skipping for a spin that had its core
  EXPECT_EQ(credits_.size(), 2u);
}

// On the real clock and a real core: what a spin costs.

// The least CPU one of `spins` spent: a spin that ends at its first check costs a few
// microseconds, one that runs out about the window. The least of several, since a loaded virtual
// machine can charge any one spin for time its vCPU was away; and half the window as the bound,
// since under CI's parallel tests even the least of twenty first checks once cost 12.6 us.
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
  EXPECT_LT(least(credits_), ReadSpin::kSpinWindow / 2);  // the first check found the byte
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
  EXPECT_LT(least(credits_), ReadSpin::kSpinWindow / 2);  // the first check saw the hang-up
}

}  // namespace
}  // namespace codemode::internal
