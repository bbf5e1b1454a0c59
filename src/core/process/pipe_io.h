// Non-blocking reads and writes on the parent's ends of a child's pipes, and EventFd, the wake-up
// a poll loop waits on beside them. Internal to libcodemode.
//
// Thread-safety: the functions are thread-safe; EventFd::notify may be called from any thread.
#ifndef CODEMODE_CORE_PROCESS_PIPE_IO_H_
#define CODEMODE_CORE_PROCESS_PIPE_IO_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <signal.h>

#include "core/process/unique_fd.h"

namespace codemode::internal {

enum class IoStatus {
  kOk,          // `bytes` were transferred (a read of 0 bytes is kClosed instead)
  kWouldBlock,  // nothing can be transferred now; poll first
  kClosed,      // end of stream (read) or no reader left (write: EPIPE)
  kFailed,      // any other error
};

struct IoResult {
  IoStatus status = IoStatus::kFailed;
  std::size_t bytes = 0;
};

// Appends at most `max_bytes` read from `fd` to `out`. EINTR is retried.
IoResult read_some(int fd, std::size_t max_bytes, std::string& out);

// Reads at most buffer.size() bytes from `fd` into `buffer`, which a caller keeps across reads (no
// allocation, no zero-filling per read). EINTR is retried.
IoResult read_into(int fd, std::span<char> buffer);

// Writes a prefix of `data` to `fd`. EINTR is retried. A write to a pipe whose reader has gone
// never raises SIGPIPE (which would end the host process): SIGPIPE is blocked in this thread for
// the write, and the one the write raised is consumed before the old mask returns. In a thread
// that called block_sigpipe_in_this_thread, the mask is left alone (no system calls for it).
IoResult write_some(int fd, std::string_view data);

// Blocks SIGPIPE in the calling thread for the rest of its life, so write_some there changes no
// signal mask per write, and no write of this thread (the library's, or a tool's) can end the
// process with SIGPIPE: a write to a pipe without reader fails with EPIPE. For threads the library
// owns (CallPool's); never for a caller's thread.
void block_sigpipe_in_this_thread();

// Blocks SIGPIPE in the calling thread while it lives, as block_sigpipe_in_this_thread does for
// good: for a caller's thread the library borrows for a while (a worker session, where the
// answers of non_blocking tools are written and such tools run). On destruction it consumes a
// SIGPIPE that became pending meanwhile (one a write raised) and restores the thread's mask. Does
// nothing in a thread that blocks SIGPIPE for good already. Not movable; one thread.
class ScopedSigpipeBlock {
 public:
  ScopedSigpipeBlock();
  ~ScopedSigpipeBlock();
  ScopedSigpipeBlock(const ScopedSigpipeBlock&) = delete;
  ScopedSigpipeBlock& operator=(const ScopedSigpipeBlock&) = delete;

 private:
  bool active_ = false;
  bool was_pending_ = false;
  sigset_t old_mask_{};
};

// An eventfd that wakes a poll loop from another thread.
class EventFd {
 public:
  // nullopt when the kernel refuses an eventfd (out of fds).
  static std::optional<EventFd> create();

  int fd() const { return fd_.get(); }
  // Makes fd() readable. Safe from any thread while this object lives.
  void notify() const;
  // Makes fd() unreadable again.
  void drain() const;

 private:
  explicit EventFd(UniqueFd fd) : fd_(std::move(fd)) {}
  UniqueFd fd_;
};

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_PROCESS_PIPE_IO_H_
