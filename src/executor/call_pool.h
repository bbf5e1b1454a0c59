// CallPool is the executor's standing set of threads for tool calls. A call is handed to a waiting
// thread (one futex wake) instead of a thread created and torn down per call, which on this kind
// of machine cost more than the rest of the round trip (docs/performance.md). Threads are shared
// by every execution of one CodeMode and reused across calls and executions.
//
// No task ever waits for another: when no thread is idle, run() starts one, so calls run as
// concurrently as the bridge admits them (maxToolConcurrency per execution). A thread left idle
// for kIdleLinger ends, so a burst of concurrent calls does not keep its threads for good.
//
// Pool threads block SIGPIPE for their whole life (core/pipe_io.h): writing a tool's answer into a
// worker's stdin then changes no signal mask per call, and a tool whose own write meets a closed
// pipe gets EPIPE rather than ending the host process.
//
// Ownership: the destructor lets every queued or running task finish, then joins every thread.
// Thread-safety: run() is thread-safe; a task may call run().
#ifndef CODEMODE_EXECUTOR_CALL_POOL_H_
#define CODEMODE_EXECUTOR_CALL_POOL_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace codemode::internal {

class CallPool {
 public:
  using Task = std::function<void()>;

  // How long a thread waits for a task before it ends.
  static constexpr std::chrono::milliseconds kIdleLinger{10'000};

  explicit CallPool(std::chrono::milliseconds idle_linger = kIdleLinger)
      : idle_linger_(idle_linger) {}
  ~CallPool();
  CallPool(const CallPool&) = delete;
  CallPool& operator=(const CallPool&) = delete;

  // Runs `task` on a pool thread: an idle one, else a new one. False when no thread could be
  // started (nothing of `task` runs then). REQUIRES: `task` does not throw.
  [[nodiscard]] bool run(Task task) noexcept;

  // Threads alive now (tests).
  std::size_t thread_count() const;

 private:
  void serve();
  void join_ended_threads();  // REQUIRES: mu_ held

  const std::chrono::milliseconds idle_linger_;
  mutable std::mutex mu_;
  std::condition_variable work_;
  std::deque<Task> queue_;
  std::size_t idle_ = 0;  // threads waiting for a task, not counting those a queued task will take
  bool stopping_ = false;
  std::vector<std::thread> threads_;
  std::vector<std::thread::id> ended_;  // threads that returned from serve() and await a join
};

}  // namespace codemode::internal

#endif  // CODEMODE_EXECUTOR_CALL_POOL_H_
