#include "core/process/pipe_io.h"

#include <cstdint>

#include <errno.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

namespace codemode::internal {
namespace {

IoResult failure_of(int error) {
  if (error == EAGAIN || error == EWOULDBLOCK) return {IoStatus::kWouldBlock, 0};
  if (error == EPIPE) return {IoStatus::kClosed, 0};
  return {IoStatus::kFailed, 0};
}

// Blocks SIGPIPE in this thread while it lives; on destruction consumes a SIGPIPE that became
// pending meanwhile (the one a failed write raised), then restores the old mask. A SIGPIPE that
// was pending before is left alone: it is not ours.
class SigpipeSuppressor {
 public:
  SigpipeSuppressor() {
    sigemptyset(&pipe_set_);
    sigaddset(&pipe_set_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set_, &old_mask_);
    sigset_t pending;
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
  }
  ~SigpipeSuppressor() {
    if (raised_ && !was_pending_) {
      const timespec no_wait{};
      while (sigtimedwait(&pipe_set_, nullptr, &no_wait) < 0 && errno == EINTR) {
      }
    }
    pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  }
  void note_epipe() { raised_ = true; }

 private:
  sigset_t pipe_set_;
  sigset_t old_mask_;
  bool was_pending_ = false;
  bool raised_ = false;
};

thread_local bool sigpipe_blocked_in_thread = false;

// After EPIPE in a thread that blocks SIGPIPE for good: the signal the write raised is pending on
// this thread; consume it so it does not stay pending (standard signals do not queue, so one wait
// takes it).
void consume_pending_sigpipe() {
  sigset_t pipe_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  const timespec no_wait{};
  while (sigtimedwait(&pipe_set, nullptr, &no_wait) < 0 && errno == EINTR) {
  }
}

// One write(2), retried on EINTR: the bytes written, or -1 with errno set.
ssize_t write_retrying_eintr(int fd, std::string_view data) {
  ssize_t put;
  do {
    put = ::write(fd, data.data(), data.size());
  } while (put < 0 && errno == EINTR);
  return put;
}

IoResult write_unsuppressed(int fd, std::string_view data) {
  const ssize_t put = write_retrying_eintr(fd, data);
  if (put >= 0) return {IoStatus::kOk, static_cast<std::size_t>(put)};
  const int error = errno;
  if (error == EPIPE) consume_pending_sigpipe();
  return failure_of(error);
}

}  // namespace

IoResult read_into(int fd, std::span<char> buffer) {
  ssize_t got;
  do {
    got = ::read(fd, buffer.data(), buffer.size());
  } while (got < 0 && errno == EINTR);
  if (got < 0) return failure_of(errno);
  if (got == 0) return {IoStatus::kClosed, 0};
  return {IoStatus::kOk, static_cast<std::size_t>(got)};
}

IoResult read_some(int fd, std::size_t max_bytes, std::string& out) {
  const std::size_t old_size = out.size();
  out.resize(old_size + max_bytes);
  const IoResult read = read_into(fd, std::span<char>(out.data() + old_size, max_bytes));
  out.resize(old_size + read.bytes);
  return read;
}

IoResult write_some(int fd, std::string_view data) {
  if (sigpipe_blocked_in_thread) return write_unsuppressed(fd, data);
  SigpipeSuppressor suppressor;
  const ssize_t put = write_retrying_eintr(fd, data);
  if (put >= 0) return {IoStatus::kOk, static_cast<std::size_t>(put)};
  const int error = errno;
  if (error == EPIPE) suppressor.note_epipe();
  return failure_of(error);
}

void block_sigpipe_in_this_thread() {
  sigset_t pipe_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  // Fails only for an invalid `how`; the flag then stays false and write_some keeps suppressing.
  if (pthread_sigmask(SIG_BLOCK, &pipe_set, nullptr) == 0) sigpipe_blocked_in_thread = true;
}

ScopedSigpipeBlock::ScopedSigpipeBlock() {
  if (sigpipe_blocked_in_thread) return;
  sigset_t pipe_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  if (pthread_sigmask(SIG_BLOCK, &pipe_set, &old_mask_) != 0) return;
  sigset_t pending;
  sigpending(&pending);
  was_pending_ = sigismember(&pending, SIGPIPE) == 1;
  sigpipe_blocked_in_thread = true;
  active_ = true;
}

ScopedSigpipeBlock::~ScopedSigpipeBlock() {
  if (!active_) return;
  // A SIGPIPE pending from before is not ours; one raised meanwhile is (a write of this thread).
  if (!was_pending_) {
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE) == 1) consume_pending_sigpipe();
  }
  pthread_sigmask(SIG_SETMASK, &old_mask_, nullptr);
  sigpipe_blocked_in_thread = false;
}

std::optional<EventFd> EventFd::create() {
  const int fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (fd < 0) return std::nullopt;
  return EventFd(UniqueFd(fd));
}

void EventFd::notify() const {
  const std::uint64_t one = 1;
  // Fails only when the counter would overflow, and then the fd is readable anyway.
  [[maybe_unused]] const ssize_t ignored = ::write(fd_.get(), &one, sizeof one);
}

void EventFd::drain() const {
  std::uint64_t count = 0;
  [[maybe_unused]] const ssize_t ignored = ::read(fd_.get(), &count, sizeof count);
}

}  // namespace codemode::internal
