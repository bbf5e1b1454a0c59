// BlockAllSignals blocks every signal for the calling thread while it lives and restores the
// thread's mask when it dies. A raw clone(2) is made under it, so that no handler of the host runs
// in the new child before the child resets its dispositions (the child inherits the mask).
//
// Thread-safety: affects only the thread that made it; destroy it on that thread.
#ifndef CODEMODE_CORE_PROCESS_BLOCK_ALL_SIGNALS_H_
#define CODEMODE_CORE_PROCESS_BLOCK_ALL_SIGNALS_H_

#include <pthread.h>
#include <signal.h>

namespace codemode::internal {

class BlockAllSignals {
 public:
  BlockAllSignals() {
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old_);
  }
  ~BlockAllSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  BlockAllSignals(const BlockAllSignals&) = delete;
  BlockAllSignals& operator=(const BlockAllSignals&) = delete;

 private:
  sigset_t old_;
};

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_PROCESS_BLOCK_ALL_SIGNALS_H_
