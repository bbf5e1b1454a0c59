#include "worker/engine/engine_helper_threads.h"

// js/HelperThreadAPI.h uses JS_PUBLIC_API without defining it: jsapi.h must come first.
// clang-format off
#include <jsapi.h>
#include <js/HelperThreadAPI.h>
// clang-format on

#include <condition_variable>
#include <mutex>
#include <vector>

#include "worker/thread.h"

namespace codemode::worker {
namespace {

// The pool the engine dispatches to. The callback API carries no user data, so the pool is the
// one process-wide object of the worker; it lives until the process _exits.
class HelperPool {
 public:
  static HelperPool& instance() {
    static HelperPool* pool = new HelperPool();  // never destroyed: threads outlive main's frame
    return *pool;
  }

  // JS::HelperThreadTaskCallback: one more task is ready (reason does not matter to a FIFO count).
  static void dispatch(JS::DispatchReason) {
    HelperPool& pool = instance();
    {
      std::lock_guard lock(pool.mu_);
      ++pool.ready_;
    }
    pool.wake_.notify_one();
  }

  Status start(std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      Result<Thread> thread = Thread::launch(kHelperThreadStackBytes, [this] { run(); });
      if (!thread.ok()) return std::move(thread).error();
      threads_.push_back(std::move(*thread));
    }
    return {};
  }

  void wait_until_running() {
    for (Thread& thread : threads_) thread.wait_until_running();
  }

 private:
  void run() {
    for (;;) {
      {
        std::unique_lock lock(mu_);
        wake_.wait(lock, [this] { return ready_ > 0; });
        --ready_;
      }
      JS::RunHelperThreadTask();
    }
  }

  std::mutex mu_;
  std::condition_variable wake_;
  std::size_t ready_ = 0;
  std::vector<Thread> threads_;
};

}  // namespace

void register_engine_helper_threads() {
  JS::SetHelperThreadTaskCallback(HelperPool::dispatch, kHelperThreadCount,
                                  kHelperThreadStackBytes);
}

Status start_engine_helper_threads() { return HelperPool::instance().start(kHelperThreadCount); }

void wait_for_engine_helper_threads() { HelperPool::instance().wait_until_running(); }

}  // namespace codemode::worker
