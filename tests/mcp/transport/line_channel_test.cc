// Newline-delimited framing over real pipes: whole lines, CRLF, lines split across writes, an
// oversized line skipped without stopping the stream, end of stream, and the wake fd.
#include "mcp/transport/line_channel.h"

#include <string>

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/process/pipe_io.h"
#include "core/process/unique_fd.h"

namespace codemode::mcp {
namespace {

struct Pipe {
  internal::UniqueFd read_end;
  internal::UniqueFd write_end;
};

Pipe make_pipe() {
  int fds[2];
  EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);
  return Pipe{internal::UniqueFd(fds[0]), internal::UniqueFd(fds[1])};
}

void write_all(int fd, std::string_view text) {
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

TEST(LineChannelTest, ReadsWholeLinesAndStripsCarriageReturns) {
  Pipe pipe = make_pipe();
  write_all(pipe.write_end.get(), "one\ntwo\r\nthr");
  write_all(pipe.write_end.get(), "ee\n");
  pipe.write_end.reset();
  LineReader reader(pipe.read_end.get(), 100);
  EXPECT_EQ(reader.read_line().line, "one");
  EXPECT_EQ(reader.read_line().line, "two");
  EXPECT_EQ(reader.read_line().line, "three");
  EXPECT_EQ(reader.read_line().status, LineRead::Status::kClosed);
}

TEST(LineChannelTest, AnOversizedLineIsSkippedAndReadingGoesOn) {
  Pipe pipe = make_pipe();
  write_all(pipe.write_end.get(), std::string(300, 'x') + "\nafter\n");
  pipe.write_end.reset();
  LineReader reader(pipe.read_end.get(), 10);
  EXPECT_EQ(reader.read_line().status, LineRead::Status::kOversized);
  const LineRead next = reader.read_line();
  EXPECT_EQ(next.status, LineRead::Status::kLine);
  EXPECT_EQ(next.line, "after");
}

TEST(LineChannelTest, AnUnterminatedLastLineIsNotALine) {
  Pipe pipe = make_pipe();
  write_all(pipe.write_end.get(), "partial");
  pipe.write_end.reset();
  LineReader reader(pipe.read_end.get(), 100);
  EXPECT_EQ(reader.read_line().status, LineRead::Status::kClosed);
}

TEST(LineChannelTest, TheWakeFdEndsAWait) {
  Pipe pipe = make_pipe();
  ASSERT_EQ(fcntl(pipe.read_end.get(), F_SETFL, O_NONBLOCK), 0);
  std::optional<internal::EventFd> wake = internal::EventFd::create();
  ASSERT_TRUE(wake.has_value());
  wake->notify();
  LineReader reader(pipe.read_end.get(), 100, wake->fd());
  EXPECT_EQ(reader.read_line().status, LineRead::Status::kWoken);
}

TEST(LineChannelTest, WriterAddsTheNewlineAndFailsOnceTheReaderIsGone) {
  Pipe pipe = make_pipe();
  LineWriter writer(pipe.write_end.get());
  EXPECT_TRUE(writer.write_line(R"({"a":1})"));
  char buffer[16] = {};
  ASSERT_EQ(::read(pipe.read_end.get(), buffer, sizeof buffer), 8);
  EXPECT_EQ(std::string(buffer, 8), "{\"a\":1}\n");
  pipe.read_end.reset();
  EXPECT_FALSE(writer.write_line("x"));
  EXPECT_FALSE(writer.write_line("y"));
}

}  // namespace
}  // namespace codemode::mcp
