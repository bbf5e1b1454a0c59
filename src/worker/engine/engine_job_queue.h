// The promise job queue (JS::JobQueue). SpiderMonkey's internal queue moves on to the next job
// when the interrupt callback terminates one, so a program with many queued jobs would need one
// interrupt per job; this queue stops at the first uncatchable failure and drops the rest, and its
// caller stops it (dropping the rest too) once the program's result is decided. It also
// forgets jobs as it runs them, so a `f = () => Promise.resolve().then(f)` storm stays small.
//
// REQUIRES: installed with JS::SetJobQueue before JS::InitSelfHostedCode.
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_JOB_QUEUE_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_JOB_QUEUE_H_

#include <atomic>
#include <cstddef>
#include <functional>

#include <js/Promise.h>
#include <jsapi.h>

#include "worker/engine/engine.h"

namespace codemode::worker {

class EngineJobQueue final : public JS::JobQueue {
 public:
  // Borrows `stop`, the engine's stop reason, which must outlive the queue: no job starts once
  // it is set.
  EngineJobQueue(JSContext* cx, const std::atomic<StopReason>& stop);

  JSObject* getIncumbentGlobal(JSContext* cx) override;
  bool enqueuePromiseJob(JSContext* cx, JS::HandleObject promise, JS::HandleObject job,
                         JS::HandleObject allocation_site,
                         JS::HandleObject incumbent_global) override;
  void runJobs(JSContext* cx) override;
  bool empty() const override;

  // Runs jobs, including those they enqueue, until none is left or `keep_going` (when given,
  // asked before every job) says false; either way the queue is left empty, so jobs not run then
  // never run. Returns false at once, leaving the queue empty, when a job stops uncatchably (false
  // with no exception pending) or the stop reason is set. A job that throws has its exception
  // cleared, as the engine's own queue does.
  bool drain(JSContext* cx, const std::function<bool()>& keep_going = {});

 private:
  class Saved;
  js::UniquePtr<SavedJobQueue> saveJobQueue(JSContext* cx) override;
  void clear();

  const std::atomic<StopReason>& stop_;
  JS::PersistentRootedObjectVector jobs_;
  std::size_t next_ = 0;  // jobs_[0, next_) have run and are null
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_JOB_QUEUE_H_
