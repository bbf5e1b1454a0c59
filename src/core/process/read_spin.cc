#include "core/process/read_spin.h"

#include <utility>

#include <poll.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace codemode::internal {
namespace {

// poll(2) itself, not glibc's wrapper: the filter allows the poll system call with a zero
// timeout, and a wrapper could as well use ppoll.
bool readable_now(int fd) {
  pollfd check{.fd = fd, .events = POLLIN, .revents = 0};
  return syscall(SYS_poll, &check, 1, 0) != 0;  // ready, hung up, or an error the read reports
}

}  // namespace

ReadSpin::ReadSpin(Credit credit, std::chrono::nanoseconds max_credit, const TimeSource& clock)
    : credit_(std::move(credit)), max_credit_(max_credit), clock_(clock) {}

void ReadSpin::before_read(int fd) {
  wait_start_ = clock_.now();
  if (waits_to_skip_ > 0) {
    --waits_to_skip_;
    return;
  }
  if (!spinning()) return;
  const std::chrono::nanoseconds cpu_start = clock_.thread_cpu_time();
  const std::chrono::steady_clock::time_point give_up = wait_start_ + kSpinWindow;
  // sched_yield, not a pause: with more runnable threads than cores (two executions on two
  // cores), the parent that is to answer may be waiting for this core.
  while (!readable_now(fd) && clock_.now() < give_up) sched_yield();
  const std::chrono::nanoseconds spent = clock_.thread_cpu_time() - cpu_start;
  spent_ += spent;
  credit_(spent);
  // Off the core for over half the spin: other threads wanted it, and spinning slows them.
  if (2 * spent < clock_.now() - wait_start_) waits_to_skip_ = kContendedWaitsToSkip;
}

void ReadSpin::after_read() {
  // The wait's whole length, the spin included: a spin that ran out is never "short".
  spin_ = clock_.now() - wait_start_ <= kSpinWindow;
}

}  // namespace codemode::internal
