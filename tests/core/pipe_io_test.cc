// Non-blocking pipe I/O and EventFd (src/core/process/pipe_io.cc).
#include "core/process/pipe_io.h"

#include <cerrno>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/test_pipe.h"

namespace codemode::internal {
namespace {

using testing::make_test_pipe;
using testing::TestPipe;

TEST(WriteSome, WithoutAReaderReportsClosedAndRaisesNoSigpipe) {
  TestPipe pipe = make_test_pipe();
  pipe.read_end.reset();
  // With SIGPIPE at its default, a raised SIGPIPE would end this test process.
  auto previous = signal(SIGPIPE, SIG_DFL);
  const IoResult written = write_some(pipe.write_end.get(), "data");
  signal(SIGPIPE, previous);
  EXPECT_EQ(written.status, IoStatus::kClosed);
  sigset_t pending;
  sigpending(&pending);
  EXPECT_EQ(sigismember(&pending, SIGPIPE), 0);
}

TEST(WriteSome, ReportsWouldBlockWhenThePipeIsFull) {
  TestPipe pipe = make_test_pipe();
  const std::string block(1 << 16, 'x');
  IoResult written{IoStatus::kOk, 0};
  while (written.status == IoStatus::kOk) written = write_some(pipe.write_end.get(), block);
  EXPECT_EQ(written.status, IoStatus::kWouldBlock);
}

TEST(ReadSome, AppendsAndReportsEndOfStream) {
  TestPipe pipe = make_test_pipe();
  ASSERT_EQ(write_some(pipe.write_end.get(), "abc").bytes, 3u);
  std::string out = "<";
  EXPECT_EQ(read_some(pipe.read_end.get(), 100, out).bytes, 3u);
  EXPECT_EQ(out, "<abc");
  EXPECT_EQ(read_some(pipe.read_end.get(), 100, out).status, IoStatus::kWouldBlock);
  pipe.write_end.reset();
  EXPECT_EQ(read_some(pipe.read_end.get(), 100, out).status, IoStatus::kClosed);
  EXPECT_EQ(out, "<abc");
}

TEST(ReadInto, FillsTheCallersBufferAndReportsEndOfStream) {
  TestPipe pipe = make_test_pipe();
  ASSERT_EQ(write_some(pipe.write_end.get(), "abcdef").bytes, 6u);
  char buffer[4];
  IoResult read = read_into(pipe.read_end.get(), buffer);
  ASSERT_EQ(read.status, IoStatus::kOk);
  EXPECT_EQ(std::string_view(buffer, read.bytes), "abcd");
  read = read_into(pipe.read_end.get(), buffer);
  EXPECT_EQ(std::string_view(buffer, read.bytes), "ef");
  EXPECT_EQ(read_into(pipe.read_end.get(), buffer).status, IoStatus::kWouldBlock);
  pipe.write_end.reset();
  EXPECT_EQ(read_into(pipe.read_end.get(), buffer).status, IoStatus::kClosed);
}

TEST(WriteSome, InAThreadThatBlocksSigpipeReportsClosedAndLeavesNoSignalPending) {
  TestPipe pipe = make_test_pipe();
  pipe.read_end.reset();
  auto previous = signal(SIGPIPE, SIG_DFL);
  IoResult written;
  bool blocked = false;
  bool pending_after = true;
  std::thread thread([&] {
    block_sigpipe_in_this_thread();
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    blocked = sigismember(&mask, SIGPIPE) == 1;
    written = write_some(pipe.write_end.get(), "data");
    sigset_t pending;
    sigpending(&pending);
    pending_after = sigismember(&pending, SIGPIPE) == 1;
  });
  thread.join();
  signal(SIGPIPE, previous);
  EXPECT_TRUE(blocked);
  EXPECT_EQ(written.status, IoStatus::kClosed);
  EXPECT_FALSE(pending_after);
}

// A session borrows the caller's thread: while the scope lives SIGPIPE is blocked there, a raw
// write(2) to a pipe without reader (an inline tool's own) fails with EPIPE instead of ending the
// process, and when the scope ends the signal it raised is consumed and the old mask is back.
TEST(ScopedSigpipeBlock, BlocksForItsScopeAndLeavesNothingPendingOrBlocked) {
  TestPipe pipe = make_test_pipe();
  pipe.read_end.reset();
  auto previous = signal(SIGPIPE, SIG_DFL);  // unblocked, a SIGPIPE would end the test binary
  bool blocked_inside = false;
  bool blocked_after = true;
  bool pending_after = true;
  int write_errno = 0;
  IoResult written{};
  std::thread thread([&] {
    {
      const ScopedSigpipeBlock scope;
      sigset_t mask;
      pthread_sigmask(SIG_BLOCK, nullptr, &mask);
      blocked_inside = sigismember(&mask, SIGPIPE) == 1;
      if (::write(pipe.write_end.get(), "x", 1) < 0) write_errno = errno;
      written = write_some(pipe.write_end.get(), "data");
    }
    sigset_t mask;
    pthread_sigmask(SIG_BLOCK, nullptr, &mask);
    blocked_after = sigismember(&mask, SIGPIPE) == 1;
    sigset_t pending;
    sigpending(&pending);
    pending_after = sigismember(&pending, SIGPIPE) == 1;
  });
  thread.join();
  signal(SIGPIPE, previous);
  EXPECT_TRUE(blocked_inside);
  EXPECT_EQ(write_errno, EPIPE);
  EXPECT_EQ(written.status, IoStatus::kClosed);
  EXPECT_FALSE(blocked_after);
  EXPECT_FALSE(pending_after);
}

TEST(EventFd, NotifyFromAnotherThreadWakesPollAndDrainResets) {
  std::optional<EventFd> wake = EventFd::create();
  ASSERT_TRUE(wake.has_value());
  std::thread notifier([&] { wake->notify(); });
  pollfd fd{wake->fd(), POLLIN, 0};
  EXPECT_EQ(poll(&fd, 1, 10'000), 1);
  notifier.join();
  wake->drain();
  EXPECT_EQ(poll(&fd, 1, 0), 0);
}

}  // namespace
}  // namespace codemode::internal
