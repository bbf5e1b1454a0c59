#include "core/time/deadline_timer.h"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>

namespace codemode::internal {
namespace {

using Clock = DeadlineTimer::Clock;

// The queue and its one thread. Created on first use and deliberately leaked: the thread runs until
// the process exits, so no static destructor can race a callback or a late cancel.
class TimerQueue {
 public:
  TimerQueue() {
    std::thread thread([this] { run(); });
    thread_id_ = thread.get_id();
    thread.detach();
  }

  std::uint64_t add(Clock::time_point deadline, std::function<void()> callback);
  void cancel(std::uint64_t id);

 private:
  using Key = std::pair<Clock::time_point, std::uint64_t>;  // the id breaks ties in FIFO order

  [[noreturn]] void run();
  void run_due(std::unique_lock<std::mutex>& lock);

  std::mutex mu_;
  std::condition_variable wake_;  // the timer thread: a new first deadline
  std::condition_variable idle_;  // cancellers: the running callback finished
  std::map<Key, std::function<void()>> pending_;
  std::unordered_map<std::uint64_t, Clock::time_point> deadlines_;
  std::uint64_t next_id_ = 1;
  std::uint64_t running_id_ = 0;  // 0: no callback is running
  // When the timer thread will next look at pending_ by itself: the deadline it sleeps until,
  // max() while it sleeps without one, min() while it is awake (it looks again before sleeping).
  // A deadline earlier than this needs a wake-up; a later one does not. A tool call's timeout is
  // usually later than the one the thread sleeps until (an earlier call's), so most calls cost
  // the timer thread nothing.
  Clock::time_point next_look_ = Clock::time_point::min();
  std::thread::id thread_id_;
};

TimerQueue& queue() {
  static TimerQueue* const instance = new TimerQueue();
  return *instance;
}

std::uint64_t TimerQueue::add(Clock::time_point deadline, std::function<void()> callback) {
  std::lock_guard lock(mu_);
  const std::uint64_t id = next_id_++;
  // deadlines_ first: if either insertion throws, no callback is left queued without a handle.
  deadlines_.emplace(id, deadline);
  try {
    pending_.emplace(Key{deadline, id}, std::move(callback));
  } catch (...) {
    deadlines_.erase(id);
    throw;
  }
  if (deadline < next_look_) {
    next_look_ = Clock::time_point::min();  // one wake-up is enough until it sleeps again
    wake_.notify_one();
  }
  return id;
}

void TimerQueue::cancel(std::uint64_t id) {
  std::unique_lock lock(mu_);
  if (auto it = deadlines_.find(id); it != deadlines_.end()) {
    pending_.erase(Key{it->second, id});
    deadlines_.erase(it);
    return;
  }
  // A callback that cancels a handle (even its own) runs on the timer thread: waiting would be
  // waiting for ourselves.
  if (std::this_thread::get_id() == thread_id_) return;
  idle_.wait(lock, [&] { return running_id_ != id; });
}

void TimerQueue::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    if (pending_.empty()) {
      next_look_ = Clock::time_point::max();
      wake_.wait(lock);
      next_look_ = Clock::time_point::min();
      continue;
    }
    // A copy: a cancel may erase the first entry while this thread waits.
    const Clock::time_point first = pending_.begin()->first.first;
    if (first > Clock::now()) {
      next_look_ = first;
      wake_.wait_until(lock, first);
      next_look_ = Clock::time_point::min();
    } else {
      run_due(lock);
    }
  }
}

void TimerQueue::run_due(std::unique_lock<std::mutex>& lock) {
  auto node = pending_.extract(pending_.begin());
  const std::uint64_t id = node.key().second;
  deadlines_.erase(id);
  running_id_ = id;
  lock.unlock();
  try {
    node.mapped()();
  } catch (...) {
    // A callback must not throw; if one does, the timer thread still serves everyone else.
  }
  // The callback (and what it captured) is destroyed before a canceller is released.
  node = {};
  lock.lock();
  running_id_ = 0;
  idle_.notify_all();
}

}  // namespace

TimerHandle::TimerHandle(TimerHandle&& other) noexcept : id_(std::exchange(other.id_, 0)) {}

TimerHandle& TimerHandle::operator=(TimerHandle&& other) noexcept {
  if (this != &other) {
    cancel();
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void TimerHandle::cancel() {
  if (id_ == 0) return;
  queue().cancel(std::exchange(id_, 0));
}

TimerHandle DeadlineTimer::schedule(Clock::time_point deadline, std::function<void()> callback) {
  return TimerHandle(queue().add(deadline, std::move(callback)));
}

}  // namespace codemode::internal
