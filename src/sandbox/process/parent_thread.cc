#include "sandbox/process/parent_thread.h"

#include <utility>

namespace codemode::internal {

ParentThread::ParentThread() : thread_([this] { loop(); }) {}

ParentThread::~ParentThread() {
  {
    std::lock_guard lock(mu_);
    quit_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void ParentThread::run(const std::function<void()>& job) {
  std::lock_guard caller(caller_mu_);
  std::unique_lock lock(mu_);
  job_ = &job;
  done_ = false;
  wake_.notify_all();
  wake_.wait(lock, [this] { return done_; });
}

void ParentThread::loop() {
  std::unique_lock lock(mu_);
  for (;;) {
    wake_.wait(lock, [this] { return quit_ || job_ != nullptr; });
    if (quit_) return;
    const std::function<void()>* job = std::exchange(job_, nullptr);
    lock.unlock();
    (*job)();
    lock.lock();
    done_ = true;
    wake_.notify_all();
  }
}

}  // namespace codemode::internal
