#include "worker/engine/engine_job_queue.h"

#include <utility>

#include <js/CallAndConstruct.h>

namespace codemode::worker {
namespace {

// Compact once this many run jobs sit at the front (and they are at least half the queue).
constexpr std::size_t kCompactAfter = 4096;

}  // namespace

// What the Debugger's AutoDebuggerJobQueueInterruption needs: the queue set aside and restored.
// The worker never exposes a Debugger; this exists because the interface requires it.
class EngineJobQueue::Saved final : public JS::JobQueue::SavedJobQueue {
 public:
  Saved(JSContext* cx, EngineJobQueue& queue) : queue_(queue), jobs_(cx), next_(queue.next_) {
    std::swap(jobs_.get(), queue.jobs_.get());
    queue.next_ = 0;
  }
  ~Saved() override {
    std::swap(jobs_.get(), queue_.jobs_.get());
    queue_.next_ = next_;
  }

 private:
  EngineJobQueue& queue_;
  JS::PersistentRootedObjectVector jobs_;
  std::size_t next_;
};

EngineJobQueue::EngineJobQueue(JSContext* cx, const std::atomic<StopReason>& stop)
    : stop_(stop), jobs_(cx) {}

JSObject* EngineJobQueue::getIncumbentGlobal(JSContext* cx) { return JS::CurrentGlobalOrNull(cx); }

bool EngineJobQueue::enqueuePromiseJob(JSContext* cx, JS::HandleObject, JS::HandleObject job,
                                       JS::HandleObject, JS::HandleObject) {
  if (!jobs_.append(job)) {
    JS_ReportOutOfMemory(cx);
    return false;
  }
  return true;
}

void EngineJobQueue::runJobs(JSContext* cx) { (void)drain(cx); }

bool EngineJobQueue::empty() const { return next_ == jobs_.length(); }

bool EngineJobQueue::drain(JSContext* cx, const std::function<bool()>& keep_going) {
  while (!empty()) {
    if (stop_.load() != StopReason::kNone || (keep_going && !keep_going())) break;
    JS::RootedObject job(cx, jobs_[next_]);
    jobs_[next_++].set(nullptr);
    if (next_ >= kCompactAfter && 2 * next_ >= jobs_.length()) {
      jobs_.erase(jobs_.begin(), jobs_.begin() + next_);
      next_ = 0;
    }
    JSAutoRealm realm(cx, job);
    JS::RootedValue ignored(cx);
    if (!JS::Call(cx, JS::UndefinedHandleValue, job, JS::HandleValueArray::empty(), &ignored)) {
      if (!JS_IsExceptionPending(cx)) {
        clear();  // uncatchable: the interrupt callback or out-of-memory ended the program
        return false;
      }
      JS_ClearPendingException(cx);
    }
  }
  const bool stopped = stop_.load() != StopReason::kNone;
  clear();
  return !stopped;
}

void EngineJobQueue::clear() {
  jobs_.clear();
  next_ = 0;
}

js::UniquePtr<JS::JobQueue::SavedJobQueue> EngineJobQueue::saveJobQueue(JSContext* cx) {
  auto saved = js::MakeUnique<Saved>(cx, *this);
  if (!saved) JS_ReportOutOfMemory(cx);
  return saved;
}

}  // namespace codemode::worker
