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
  // As start, but returns once the thread is created, so that several threads start at once and
  // their creator waits once (each wait is a wake-up on another CPU). REQUIRES: wait_until_running
  // before anything that forbids a new thread's start-up system calls (the filter).
  [[nodiscard]] static Result<Thread> launch(std::size_t stack_bytes, std::function<void()> body);
  // Returns once the thread has run its start-up (glibc's registration) and entered its body.
  // Idempotent.
  void wait_until_running();

  // Waits for the body to return. Idempotent.
  void join();
  pthread_t native_handle() const { return handle_; }

 private:
  struct Startup;
  static void* run_body(void* raw);  // the new thread's entry: pthread_create's start routine

  pthread_t handle_{};
  bool joinable_ = false;
  std::shared_ptr<Startup> startup_;  // until wait_until_running has seen the thread run
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_THREAD_H_
