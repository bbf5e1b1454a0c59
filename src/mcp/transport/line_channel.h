// Newline-delimited framing, the MCP stdio transport: each message is one line of compact JSON
// (which never holds a raw newline) ended by "\n". LineReader splits what one fd delivers into
// bounded lines; LineWriter writes whole lines to one fd, one writer at a time. Both work on
// blocking fds (the server's own stdin and stdout) and non-blocking ones (a downstream's pipes),
// waiting with poll(2) where a non-blocking fd has nothing to give.
//
// Ownership: neither owns its fd; the fd must outlive the object.
// Thread-safety: one thread reads a LineReader; LineWriter::write_line may be called from any
// thread.
#ifndef CODEMODE_MCP_TRANSPORT_LINE_CHANNEL_H_
#define CODEMODE_MCP_TRANSPORT_LINE_CHANNEL_H_

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace codemode::mcp {

struct LineRead {
  enum class Status {
    kLine,       // `line` holds one line, without its "\n" (and without a "\r" before it)
    kOversized,  // a line longer than the cap was skipped whole; reading may go on
    kClosed,     // end of stream (or a read error): no more lines
    kWoken,      // the wake fd became readable
  } status = Status::kClosed;
  std::string line;
};

class LineReader {
 public:
  // `wake_fd` (optional, -1 for none) ends a wait with kWoken when it becomes readable.
  LineReader(int fd, std::size_t max_line_bytes, int wake_fd = -1)
      : fd_(fd), wake_fd_(wake_fd), max_line_bytes_(max_line_bytes) {}

  // Blocks until a line, the end of the stream, or the wake fd.
  LineRead read_line();

 private:
  bool fill();  // false at end of stream; sets woken_ when the wake fd fired
  int fd_;
  int wake_fd_;
  std::size_t max_line_bytes_;
  std::string buffer_;
  bool skipping_ = false;  // inside an oversized line, discarding up to its "\n"
  bool closed_ = false;
  bool woken_ = false;
};

class LineWriter {
 public:
  explicit LineWriter(int fd) : fd_(fd) {}
  // Writes `line` and "\n" as one unit. REQUIRES: `line` holds no "\n". False once the reader
  // has gone or the fd failed; every later call is false as well.
  bool write_line(std::string_view line);

 private:
  std::mutex mu_;
  int fd_;
  bool failed_ = false;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_TRANSPORT_LINE_CHANNEL_H_
