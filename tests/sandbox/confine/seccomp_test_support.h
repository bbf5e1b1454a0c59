// Helpers shared by the seccomp tests: load the worker's filter in a child, make raw futex calls.
#ifndef CODEMODE_TESTS_SANDBOX_CONFINE_SECCOMP_TEST_SUPPORT_H_
#define CODEMODE_TESTS_SANDBOX_CONFINE_SECCOMP_TEST_SUPPORT_H_

#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <ctime>

#include "sandbox/confine/seccomp_policy.h"

namespace codemode::confine_testing {

inline constexpr std::size_t kPage = 4096;

// Builds the worker's filter (of `engine`'s profile) and loads it: the first thing a child does
// before its checks.
inline bool confine_to_worker_policy(EngineProfile engine = EngineProfile::kInterpreter) {
  Result<confine::SeccompFilter> filter = confine::prepare_worker_seccomp_filter(engine);
  return filter.ok() && confine::apply_seccomp_filter(*filter).ok();
}

// futex(2) has no glibc wrapper.
inline long futex_call(std::uint32_t* word, int op, std::uint32_t value, const timespec* timeout,
                       std::uint32_t bitset) {
  return syscall(SYS_futex, word, op, value, timeout, nullptr, bitset);
}

}  // namespace codemode::confine_testing

#endif  // CODEMODE_TESTS_SANDBOX_CONFINE_SECCOMP_TEST_SUPPORT_H_
