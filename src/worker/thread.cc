#include "worker/thread.h"

#include <latch>
#include <utility>

#include "worker/worker_error.h"

namespace codemode::worker {

// What a new thread needs; shared by the thread and its creator, which waits for `started`.
struct Thread::Startup {
  std::function<void()> body;
  std::latch started{1};
};

void* Thread::run_body(void* raw) {
  auto* handoff = static_cast<std::shared_ptr<Startup>*>(raw);
  std::shared_ptr<Startup> startup = std::move(*handoff);
  delete handoff;
  std::function<void()> body = std::move(startup->body);
  // glibc has registered this thread (rseq, robust futex list) before calling us; from here on it
  // makes no system call the worker's filter forbids.
  startup->started.count_down();
  startup.reset();
  body();
  return nullptr;
}

namespace {

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
    : handle_(other.handle_),
      joinable_(std::exchange(other.joinable_, false)),
      startup_(std::move(other.startup_)) {}

Thread& Thread::operator=(Thread&& other) noexcept {
  if (this != &other) {
    join();
    handle_ = other.handle_;
    joinable_ = std::exchange(other.joinable_, false);
    startup_ = std::move(other.startup_);
  }
  return *this;
}

Result<Thread> Thread::start(std::size_t stack_bytes, std::function<void()> body) {
  Result<Thread> thread = launch(stack_bytes, std::move(body));
  if (thread.ok()) thread->wait_until_running();
  return thread;
}

void Thread::wait_until_running() {
  // Until then, a thread created but not yet started would make its start-up system calls after
  // confinement, which the filter kills.
  if (startup_) startup_->started.wait();
  startup_.reset();
}

Result<Thread> Thread::launch(std::size_t stack_bytes, std::function<void()> body) {
  ThreadAttributes attributes;
  if (!attributes.set_stack_size(stack_bytes)) return thread_error("size a thread's stack");
  auto startup = std::make_shared<Startup>();
  startup->body = std::move(body);
  auto* handoff = new std::shared_ptr<Startup>(startup);
  Thread thread;
  if (pthread_create(&thread.handle_, attributes.get(), run_body, handoff) != 0) {
    delete handoff;
    return thread_error("start a thread");
  }
  thread.joinable_ = true;
  thread.startup_ = std::move(startup);
  return thread;
}

void Thread::join() {
  if (!joinable_) return;
  pthread_join(handle_, nullptr);
  joinable_ = false;
}

}  // namespace codemode::worker
