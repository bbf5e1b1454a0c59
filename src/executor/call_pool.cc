#include "executor/call_pool.h"

#include <algorithm>
#include <utility>

#include "core/process/pipe_io.h"

namespace codemode::internal {

CallPool::~CallPool() {
  std::vector<std::thread> threads;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    threads.swap(threads_);
  }
  work_.notify_all();
  for (std::thread& thread : threads) thread.join();  // each drains the queue first
}

bool CallPool::run(Task task) noexcept {
  try {
    std::unique_lock lock(mu_);
    if (stopping_) return false;
    join_ended_threads();
    // Every queued task has a thread bound to look at the queue: an idle one not yet counted for
    // an earlier task, or a new one. So no task waits for a busy thread.
    if (idle_ > queue_.size()) {
      queue_.push_back(std::move(task));
      lock.unlock();
      work_.notify_one();  // unlocked: the woken thread does not then wait for mu_
      return true;
    }
    threads_.reserve(threads_.size() + 1);       // so that the push below cannot throw
    threads_.emplace_back([this] { serve(); });  // waits for mu_ before it looks at the queue
    queue_.push_back(std::move(task));
    return true;
  } catch (...) {
    // No thread could be started, or the task could not be queued (a new thread then finds the
    // queue empty and idles): the task never runs.
    return false;
  }
}

void CallPool::serve() {
  block_sigpipe_in_this_thread();
  std::unique_lock lock(mu_);
  for (;;) {
    if (queue_.empty()) {
      if (stopping_) return;
      ++idle_;
      const bool woken =
          work_.wait_for(lock, idle_linger_, [this] { return !queue_.empty() || stopping_; });
      --idle_;
      if (!woken) {
        ended_.push_back(std::this_thread::get_id());  // joined by the next run() or the end
        return;
      }
      continue;
    }
    Task task = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    try {
      task();
    } catch (...) {
      // A task must not throw; if one does, the thread still serves the next.
    }
    task = nullptr;  // what the task captured goes before the thread waits again
    lock.lock();
  }
}

// The threads in ended_ have left serve() (they recorded themselves under mu_ as their last act),
// so these joins return at once.
void CallPool::join_ended_threads() {
  for (const std::thread::id id : ended_) {
    auto it = std::find_if(threads_.begin(), threads_.end(),
                           [id](const std::thread& thread) { return thread.get_id() == id; });
    if (it == threads_.end()) continue;
    it->join();
    threads_.erase(it);
  }
  ended_.clear();
}

std::size_t CallPool::thread_count() const {
  std::lock_guard lock(mu_);
  return threads_.size() - ended_.size();
}

}  // namespace codemode::internal
