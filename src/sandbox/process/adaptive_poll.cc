#include "sandbox/process/adaptive_poll.h"

#include <cerrno>

namespace codemode::internal {
namespace {

void relax_cpu() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

}  // namespace

int AdaptivePoll::wait(std::span<pollfd> fds, int timeout_millis) {
  if (timeout_millis >= 0) return poll(fds.data(), fds.size(), timeout_millis);
  const std::chrono::steady_clock::time_point start = clock_.now();
  if (spin_) {
    const std::chrono::steady_clock::time_point give_up = start + kSpinWindow;
    do {
      const int ready = poll(fds.data(), fds.size(), 0);
      if (ready != 0) return ready;
      relax_cpu();
    } while (clock_.now() < give_up);
  }
  const int ready = poll(fds.data(), fds.size(), -1);
  const int poll_errno = errno;  // the caller reads errno (EINTR) after a failed poll
  // The wait's whole length, the spin included: a spin that ran out is never "short".
  spin_ = clock_.now() - start <= kSpinWindow;
  errno = poll_errno;
  return ready;
}

}  // namespace codemode::internal
