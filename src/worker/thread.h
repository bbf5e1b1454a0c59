// A joinable thread with an explicit stack size. The worker sizes every stack on purpose: thread
// stacks are private writable mappings, so they count against RLIMIT_DATA, and the engine thread's
// stack size bounds the engine's native stack quota.
//
// Ownership: move-only; the destructor joins, so the body must be told to finish first.
#ifndef CODEMODE_WORKER_THREAD_H_
#define CODEMODE_WORKER_THREAD_H_

#include <cstddef>
#include <functional>
#include <memory>

#include <pthread.h>

#include "codemode/error.h"

namespace codemode::worker {

class Thread {
 public:
  Thread() = default;
  Thread(Thread&& other) noexcept;
  Thread& operator=(Thread&& other) noexcept;
  Thread(const Thread&) = delete;
  Thread& operator=(const Thread&) = delete;
  ~Thread() { join(); }

  // Starts `body` on a new thread whose stack is `stack_bytes`, and returns once the thread runs.
  [[nodiscard]] static Result<Thread> start(std::size_t stack_bytes, std::function<void()> body);

  // Waits for the body to return. Idempotent.
  void join();
  pthread_t native_handle() const { return handle_; }

 private:
  pthread_t handle_{};
  bool joinable_ = false;
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_THREAD_H_
