// WorkerStdin: the worker's stdin shared by the session loop and the call threads
// (src/sandbox/process/worker_stdin.h).
#include "sandbox/process/worker_stdin.h"

#include <chrono>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

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

bool readable(int fd) {
  pollfd entry{fd, POLLIN, 0};
  return poll(&entry, 1, 0) == 1;
}

std::string read_available(int fd) {
  std::string out;
  char buffer[1 << 16];
  for (ssize_t got; (got = read(fd, buffer, sizeof buffer)) > 0;) out.append(buffer, got);
  return out;
}

// Fills the pipe, so the next frame has to be queued; returns how much went in.
std::size_t fill(int fd) {
  const std::string block(1 << 16, 'f');
  std::size_t total = 0;
  for (ssize_t put; (put = write(fd, block.data(), block.size())) > 0;) total += put;
  return total;
}

TEST(WorkerStdin, AFrameGoesStraightIntoAnEmptyPipeWithoutWakingTheLoop) {
  TestPipe pipe = make_test_pipe();
  auto stdin_writer = WorkerStdin::create(pipe.write_end.get(), 1 << 20);
  ASSERT_NE(stdin_writer, nullptr);
  stdin_writer->send("frame");
  EXPECT_EQ(read_available(pipe.read_end.get()), "frame");
  EXPECT_FALSE(stdin_writer->wants_write());
  EXPECT_FALSE(readable(stdin_writer->wake_fd()));
}

TEST(WorkerStdin, WhatThePipeDoesNotTakeIsQueuedInOrderAndWakesTheLoop) {
  TestPipe pipe = make_test_pipe();
  auto stdin_writer = WorkerStdin::create(pipe.write_end.get(), 1 << 20);
  const std::size_t filled = fill(pipe.write_end.get());
  stdin_writer->send("first");
  stdin_writer->send("second");
  EXPECT_TRUE(stdin_writer->wants_write());
  EXPECT_TRUE(readable(stdin_writer->wake_fd()));
  stdin_writer->drain_wake();
  EXPECT_FALSE(readable(stdin_writer->wake_fd()));
  std::string received;
  while (stdin_writer->wants_write()) {
    received += read_available(pipe.read_end.get());
    stdin_writer->write_queued();
  }
  received += read_available(pipe.read_end.get());
  EXPECT_EQ(received.substr(filled), "firstsecond");
  EXPECT_EQ(stdin_writer->fault(), WorkerStdin::Fault::kNone);
}

TEST(WorkerStdin, AFrameLargerThanThePipeIsFinishedBeforeTheNextStarts) {
  TestPipe pipe = make_test_pipe();
  auto stdin_writer = WorkerStdin::create(pipe.write_end.get(), 1 << 20);
  const std::string large(300'000, 'L');
  stdin_writer->send(large);
  stdin_writer->send("after");
  std::string received;
  while (stdin_writer->wants_write()) {
    received += read_available(pipe.read_end.get());
    stdin_writer->write_queued();
  }
  received += read_available(pipe.read_end.get());
  EXPECT_EQ(received, large + "after");
}

TEST(WorkerStdin, FramesPilingUpPastTheCapAreAFaultNotMemory) {
  TestPipe pipe = make_test_pipe();
  auto stdin_writer = WorkerStdin::create(pipe.write_end.get(), 100);
  fill(pipe.write_end.get());
  stdin_writer->send(std::string(500, 'a'));  // a first frame is queued whatever its size
  EXPECT_EQ(stdin_writer->fault(), WorkerStdin::Fault::kNone);
  stdin_writer->drain_wake();
  stdin_writer->send("b");
  EXPECT_EQ(stdin_writer->fault(), WorkerStdin::Fault::kOverflow);
  EXPECT_TRUE(readable(stdin_writer->wake_fd()));
}

TEST(WorkerStdin, AHostFaultWakesTheLoopAndTheFirstFaultStays) {
  TestPipe pipe = make_test_pipe();
  auto stdin_writer = WorkerStdin::create(pipe.write_end.get(), 100);
  stdin_writer->fail(WorkerStdin::Fault::kHost);
  stdin_writer->fail(WorkerStdin::Fault::kOverflow);
  EXPECT_EQ(stdin_writer->fault(), WorkerStdin::Fault::kHost);
  EXPECT_TRUE(readable(stdin_writer->wake_fd()));
}

TEST(WorkerStdin, AfterCloseNothingIsWrittenAndLateFaultsAreIgnored) {
  TestPipe pipe = make_test_pipe();
  auto stdin_writer = WorkerStdin::create(pipe.write_end.get(), 1 << 20);
  stdin_writer->close();
  stdin_writer->send("late");
  stdin_writer->fail(WorkerStdin::Fault::kHost);
  EXPECT_EQ(read_available(pipe.read_end.get()), "");
  EXPECT_FALSE(stdin_writer->wants_write());
  EXPECT_EQ(stdin_writer->fault(), WorkerStdin::Fault::kNone);
}

TEST(WorkerStdin, AWorkerThatStoppedReadingIsNoFaultAndRaisesNoSigpipe) {
  TestPipe pipe = make_test_pipe();
  auto stdin_writer = WorkerStdin::create(pipe.write_end.get(), 1 << 20);
  pipe.read_end.reset();
  // With SIGPIPE at its default action, a delivered SIGPIPE would end this test process.
  auto previous = signal(SIGPIPE, SIG_DFL);
  stdin_writer->send("answer");
  stdin_writer->send("another");
  signal(SIGPIPE, previous);
  EXPECT_FALSE(stdin_writer->wants_write());
  EXPECT_EQ(stdin_writer->fault(), WorkerStdin::Fault::kNone);
}

TEST(WorkerStdin, FramesFromManyThreadsArriveWholeAndNeverInterleaved) {
  TestPipe pipe = make_test_pipe();
  auto stdin_writer = WorkerStdin::create(pipe.write_end.get(), 64u << 20);
  constexpr int kThreads = 8;
  constexpr int kFrames = 200;
  // Frames of 5,000 bytes are above PIPE_BUF, so the pipe may take one in parts.
  std::vector<std::thread> senders;
  for (int t = 0; t < kThreads; ++t) {
    senders.emplace_back([&, t] {
      for (int i = 0; i < kFrames; ++i) stdin_writer->send(std::string(5000, char('a' + t)));
    });
  }
  std::string received;
  const std::size_t total = std::size_t{kThreads} * kFrames * 5000;
  std::thread reader([&] {
    const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (received.size() < total && std::chrono::steady_clock::now() < limit) {
      pollfd entry{pipe.read_end.get(), POLLIN, 0};
      poll(&entry, 1, 10);
      received += read_available(pipe.read_end.get());
      stdin_writer->write_queued();  // as the session loop does on POLLOUT
    }
  });
  for (std::thread& sender : senders) sender.join();
  reader.join();
  ASSERT_EQ(received.size(), total);
  // Each frame is one letter throughout (a scan bounded by the frame: one thread's frames often
  // follow each other, and an unbounded scan would cross all of them for every frame).
  for (std::size_t at = 0; at < total; at += 5000) {
    const std::string_view frame = std::string_view(received).substr(at, 5000);
    EXPECT_EQ(frame.find_first_not_of(frame.front()), std::string_view::npos) << "frame at " << at;
  }
}

}  // namespace
}  // namespace codemode::internal
