// The events a workflow worker loop reported (WorkerLoopOptions::report, the console's
// on_worker_event), in order, for a test thread to wait on.
#ifndef CODEMODE_TESTS_WORKFLOW_WORKER_EVENTS_H_
#define CODEMODE_TESTS_WORKFLOW_WORKER_EVENTS_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <vector>

#include "codemode/workflow_runtime.h"

namespace codemode::testing {

class WorkerEvents {
 public:
  void add(const WorkerEvent& event) {
    std::lock_guard lock(mutex_);
    events_.push_back(event);
    changed_.notify_all();
  }
  // Waits until `count` events arrived (or the timeout); whether they did.
  bool wait_for(std::size_t count, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] { return events_.size() >= count; });
  }
  // Waits until an event of `kind` arrived (or the timeout); whether it did.
  bool wait_for(WorkerEvent::Kind kind, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, timeout, [&] {
      for (const WorkerEvent& event : events_) {
        if (event.kind == kind) return true;
      }
      return false;
    });
  }
  std::vector<WorkerEvent> events() {
    std::lock_guard lock(mutex_);
    return events_;
  }
  std::vector<WorkerEvent::Kind> kinds() {
    std::lock_guard lock(mutex_);
    std::vector<WorkerEvent::Kind> kinds;
    for (const WorkerEvent& event : events_) kinds.push_back(event.kind);
    return kinds;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<WorkerEvent> events_;
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_WORKFLOW_WORKER_EVENTS_H_
