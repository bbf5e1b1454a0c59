#include "worker/thread.h"

#include <cstring>
#include <utility>

#include "worker/worker_error.h"

namespace codemode::worker {
namespace {

void* run_body(void* raw) {
  std::unique_ptr<std::function<void()>> body(static_cast<std::function<void()>*>(raw));
  (*body)();
  return nullptr;
}

Error thread_error(const char* what) {
  return worker_error("worker_thread", std::string("The worker could not ") + what + ".");
}

// pthread_attr_t owner, so every exit path destroys it.
class ThreadAttributes {
 public:
  ThreadAttributes() { ok_ = pthread_attr_init(&attr_) == 0; }
  ~ThreadAttributes() {
    if (ok_) pthread_attr_destroy(&attr_);
  }
  bool set_stack_size(std::size_t bytes) {
    return ok_ && pthread_attr_setstacksize(&attr_, bytes) == 0;
  }
  const pthread_attr_t* get() const { return &attr_; }

 private:
  pthread_attr_t attr_;
  bool ok_ = false;
};

}  // namespace

Thread::Thread(Thread&& other) noexcept
    : handle_(other.handle_), joinable_(std::exchange(other.joinable_, false)) {}

Thread& Thread::operator=(Thread&& other) noexcept {
  if (this != &other) {
    join();
    handle_ = other.handle_;
    joinable_ = std::exchange(other.joinable_, false);
  }
  return *this;
}

Result<Thread> Thread::start(std::size_t stack_bytes, std::function<void()> body) {
  ThreadAttributes attributes;
  if (!attributes.set_stack_size(stack_bytes)) return thread_error("size a thread's stack");
  auto owned = std::make_unique<std::function<void()>>(std::move(body));
  Thread thread;
  if (pthread_create(&thread.handle_, attributes.get(), run_body, owned.get()) != 0) {
    return thread_error("start a thread");
  }
  owned.release();  // run_body owns it now
  thread.joinable_ = true;
  return thread;
}

void Thread::join() {
  if (!joinable_) return;
  pthread_join(handle_, nullptr);
  joinable_ = false;
}

}  // namespace codemode::worker
