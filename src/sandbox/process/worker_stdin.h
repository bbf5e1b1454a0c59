// WorkerStdin is the parent's writing side of one worker's stdin, shared by the session's poll loop
// and the ToolBridge's call threads. A frame goes into the pipe from the thread that has it when
// nothing is queued before it; what the pipe does not take at once is queued, and the session's
// loop writes it as the pipe drains (it polls for POLLOUT while wants_write()). So a tool's answer
// reaches the worker from the call thread that produced it, without a hand-over to the session
// thread, and a worker that does not read never blocks any thread.
//
// The bridge may answer after the session ended (the executor waits for admitted calls only after
// the adapter returns), so the object is shared: each callback holds it, and once the session
// closes it, nothing is written and later frames are dropped. It borrows the fd; the session keeps
// the fd open until after close().
//
// Faults are sticky and wake the loop: kOverflow when frames would pile up past `cap` bytes for a
// worker that does not read (the session's worker_protocol_error), kHost when the parent could not
// encode an answer. A worker that closed its stdin is not a fault: frames are dropped, and its
// stdout decides how the execution ends.
//
// Thread-safety: every method is thread-safe.
#ifndef CODEMODE_SANDBOX_PROCESS_WORKER_STDIN_H_
#define CODEMODE_SANDBOX_PROCESS_WORKER_STDIN_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "core/process/pipe_io.h"

namespace codemode::internal {

// The most the parent keeps queued for a worker that does not read its stdin: a few tool results
// at the program's own cap on top of a fixed allowance. A worker that lets more pile up (by never
// reading, or by flooding calls while it computes) ends with worker_protocol_error instead of
// growing the parent's memory by up to maxToolCalls results.
inline constexpr std::size_t kOutboundAllowanceBytes = 16u << 20;
inline constexpr std::size_t kOutboundResultFrames = 4;

class WorkerStdin {
 public:
  enum class Fault { kNone, kOverflow, kHost };

  // Writes to `fd` (non-blocking; borrowed) and queues at most `cap` bytes, a first frame of any
  // size excepted. nullptr when no eventfd could be made.
  static std::shared_ptr<WorkerStdin> create(int fd, std::size_t cap);

  // Readable after a fault, after a frame was queued where none was, and after wake().
  int wake_fd() const { return wake_.fd(); }
  // Makes wake_fd() unreadable again (the session, before it looks at what woke it).
  void drain_wake() const { wake_.drain(); }

  // Writes `frame` after every frame sent before it. Dropped after close() or once the worker
  // stopped reading; a fault (kOverflow) when it would queue more than the cap.
  void send(std::string frame);
  // Records a fault (the first one stays) and wakes the loop; nothing once writing stopped.
  void fail(Fault fault);
  // Wakes the loop without anything to do (the caller's stop fired).
  void wake() const { wake_.notify(); }

  // Whether frames wait for the pipe to take them (the session polls for POLLOUT).
  bool wants_write() const;
  // Writes queued frames until the pipe is full (the session, when poll reports POLLOUT).
  void write_queued();
  Fault fault() const;

  // Nothing is written from now on.
  void close();

 private:
  WorkerStdin(int fd, std::size_t cap, EventFd wake) : fd_(fd), cap_(cap), wake_(std::move(wake)) {}

  // REQUIRES: mu_ held.
  void write_front();
  void stop_writing();

  const int fd_;
  const std::size_t cap_;
  const EventFd wake_;
  mutable std::mutex mu_;
  bool writable_ = true;  // false once closed or once the worker stopped reading
  Fault fault_ = Fault::kNone;
  std::deque<std::string> queue_;
  std::size_t queued_bytes_ = 0;
  std::size_t front_offset_ = 0;  // bytes of queue_.front() already written
};

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_WORKER_STDIN_H_
