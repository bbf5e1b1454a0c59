// AdaptivePoll: it answers what poll answers, spins only after short waits, and a long wait (the
// peer computing, or no free core) turns the spin off again. Its decisions run on a clock the test
// moves (ManualTimeSource), so a loaded machine cannot make a short wait long.
#include "sandbox/process/adaptive_poll.h"

#include <array>
#include <chrono>
#include <thread>

#include <poll.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/manual_time_source.h"
#include "support/test_pipe.h"

namespace codemode::internal {
namespace {

using namespace std::chrono_literals;

void write_byte(int fd) { ASSERT_EQ(write(fd, "x", 1), 1); }
void read_byte(int fd) {
  char byte = 0;
  ASSERT_EQ(read(fd, &byte, 1), 1);
}

TEST(AdaptivePollTest, FirstWaitSleepsAndAReadyFdIsReported) {
  testing::TestPipe pipe = testing::make_test_pipe();
  AdaptivePoll poller;
  EXPECT_FALSE(poller.spinning());
  write_byte(pipe.write_end.get());
  std::array<pollfd, 1> fds{{{pipe.read_end.get(), POLLIN, 0}}};
  EXPECT_EQ(poller.wait(fds, -1), 1);
  EXPECT_NE(fds[0].revents & POLLIN, 0);
}

TEST(AdaptivePollTest, AShortWaitTurnsTheSpinOnAndALongOneTurnsItOff) {
  testing::TestPipe pipe = testing::make_test_pipe();
  testing::ManualTimeSource clock;
  AdaptivePoll poller(clock);
  std::array<pollfd, 1> fds{{{pipe.read_end.get(), POLLIN, 0}}};
  write_byte(pipe.write_end.get());
  ASSERT_EQ(poller.wait(fds, -1), 1);  // took no time on this clock
  read_byte(pipe.read_end.get());
  ASSERT_TRUE(poller.spinning());

  // The peer answers after the spin window (every reading of the clock moves it 1 µs): the spin
  // runs out, the poll sleeps, the answer is still reported, and the next wait does not spin.
  clock.step_every_reading(1us, 1us);
  std::thread late([&pipe] {
    std::this_thread::sleep_for(50ms);
    write_byte(pipe.write_end.get());
  });
  fds[0].revents = 0;
  EXPECT_EQ(poller.wait(fds, -1), 1);
  EXPECT_NE(fds[0].revents & POLLIN, 0);
  late.join();
  EXPECT_FALSE(poller.spinning());
}

TEST(AdaptivePollTest, AWaitWithinTheWindowKeepsTheSpinOn) {
  testing::TestPipe pipe = testing::make_test_pipe();
  testing::ManualTimeSource clock;
  AdaptivePoll poller(clock);
  std::array<pollfd, 1> fds{{{pipe.read_end.get(), POLLIN, 0}}};
  for (int round = 0; round < 3; ++round) {
    write_byte(pipe.write_end.get());
    ASSERT_EQ(poller.wait(fds, -1), 1);
    read_byte(pipe.read_end.get());
    clock.advance(AdaptivePoll::kSpinWindow / 2);  // between waits: not part of any wait
    EXPECT_TRUE(poller.spinning()) << round;
  }
}

TEST(AdaptivePollTest, ABoundedWaitNeverSpinsAndTimesOutAsPollDoes) {
  testing::TestPipe pipe = testing::make_test_pipe();
  AdaptivePoll poller;
  std::array<pollfd, 1> fds{{{pipe.read_end.get(), POLLIN, 0}}};
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(poller.wait(fds, 5), 0);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 5ms);
  EXPECT_FALSE(poller.spinning());
}

}  // namespace
}  // namespace codemode::internal
