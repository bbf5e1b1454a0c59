// ParentThread: one long-lived thread that starts processes on request. PR_SET_PDEATHSIG fires
// when the parent *thread* of a process exits, not its process (docs/security.md), so a process
// that must live longer than the executor thread that asked for it (the fork server, and through
// CLONE_PARENT every one of its children) is started from here, a thread that lives as long as its
// owner.
//
// Ownership: destroying it finishes the job running, then joins the thread; processes started
// here then receive their parent-death signal, so the owner kills and reaps them first.
// Thread-safety: run may be called from any thread; jobs run one at a time.
#ifndef CODEMODE_SANDBOX_PROCESS_PARENT_THREAD_H_
#define CODEMODE_SANDBOX_PROCESS_PARENT_THREAD_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace codemode::internal {

class ParentThread {
 public:
  ParentThread();
  ~ParentThread();
  ParentThread(const ParentThread&) = delete;
  ParentThread& operator=(const ParentThread&) = delete;

  // Runs `job` on the thread and returns when it has finished.
  void run(const std::function<void()>& job);

 private:
  void loop();

  std::mutex mu_;
  std::condition_variable wake_;
  const std::function<void()>* job_ = nullptr;  // borrowed from run() until done_
  bool done_ = false;
  bool quit_ = false;
  std::mutex caller_mu_;  // one run() at a time
  std::thread thread_;    // last: started once the members above exist
};

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_PARENT_THREAD_H_
