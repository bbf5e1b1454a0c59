#include "worker/watchdog.h"

#include <algorithm>
#include <utility>

#include <unistd.h>

#include "worker/exit_codes.h"
#include "worker/worker_error.h"

namespace codemode::worker {
namespace {

using std::chrono::nanoseconds;

// The watchdog only reads clocks and sleeps.
constexpr std::size_t kWatchdogStackBytes = 128u << 10;
// Longest sleep between two reads of the CPU clock: bounds how late a stop is requested.
constexpr nanoseconds kMaxCheckInterval = std::chrono::milliseconds(10);

// The CPU clock of the calling thread, named by its kernel thread id, so other threads can read
// it. Not pthread_getcpuclockid(pthread_self()): a fork server's child is made by a raw clone(2),
// which leaves glibc's cached thread id that of the server's thread, whose clock this process
// cannot read. The encoding is the kernel's ABI for thread CPU clocks (include/linux/
// posix-timers.h: CPUCLOCK_PERTHREAD_MASK 4 | CPUCLOCK_SCHED 2, the id complemented above them),
// the same one glibc computes.
clockid_t calling_thread_cpu_clock() {
  const auto tid = static_cast<clockid_t>(gettid());
  return static_cast<clockid_t>((~tid) << 3) | 4 | 2;
}

}  // namespace

Result<std::unique_ptr<Watchdog>> Watchdog::start_for_calling_thread(
    std::function<void()> on_cpu_exhausted) {
  const clockid_t clock = calling_thread_cpu_clock();
  timespec now{};
  if (clock_gettime(clock, &now) != 0) {
    return worker_error("worker_watchdog", "The worker could not read its thread CPU clock.");
  }
  std::unique_ptr<Watchdog> watchdog(new Watchdog(clock, std::move(on_cpu_exhausted)));
  Result<Thread> thread = Thread::launch(kWatchdogStackBytes, [w = watchdog.get()] { w->run(); });
  if (!thread.ok()) return std::move(thread).error();
  watchdog->thread_ = std::move(*thread);
  return watchdog;
}

Watchdog::Watchdog(clockid_t clock, std::function<void()> on_cpu_exhausted)
    : clock_(clock), on_cpu_exhausted_(std::move(on_cpu_exhausted)) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard lock(mu_);
    quit_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Watchdog::arm(Milliseconds cpu, Milliseconds wall) {
  {
    std::lock_guard lock(mu_);
    budget_ = Budget{cpu_now() + cpu, std::chrono::steady_clock::now() + wall + kWallGrace};
  }
  wake_.notify_all();
}

nanoseconds Watchdog::cpu_now() const {
  timespec now{};
  clock_gettime(clock_, &now);
  return std::chrono::seconds(now.tv_sec) + nanoseconds(now.tv_nsec) -
         nanoseconds(credit_ns_.load(std::memory_order_relaxed));
}

void Watchdog::run() {
  std::unique_lock lock(mu_);
  while (wait_for_check(lock)) {
    if (std::chrono::steady_clock::now() >= budget_->wall_deadline) {
      // The parent should have killed this worker by now; it has nothing left to report to.
      _exit(kExitWallTime);
    }
    if (cpu_now() >= budget_->cpu_deadline) {
      on_cpu_exhausted_();
      budget_->cpu_deadline = nanoseconds::max();  // once; the engine stays stopped
    }
  }
}

bool Watchdog::wait_for_check(std::unique_lock<std::mutex>& lock) {
  if (!budget_) wake_.wait(lock, [this] { return quit_ || budget_.has_value(); });
  if (quit_) return false;
  const nanoseconds cpu_left = budget_->cpu_deadline - std::min(cpu_now(), budget_->cpu_deadline);
  const auto wall_left = budget_->wall_deadline - std::chrono::steady_clock::now();
  const nanoseconds sleep =
      std::max(nanoseconds(0), std::min({cpu_left, nanoseconds(wall_left), kMaxCheckInterval}));
  wake_.wait_for(lock, sleep, [this] { return quit_; });
  return !quit_;
}

}  // namespace codemode::worker
