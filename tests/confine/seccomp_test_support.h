// Helpers shared by the seccomp tests: load the worker's filter in a child, run a call that must
// kill under it, make raw futex calls.
#ifndef CODEMODE_TESTS_SANDBOX_CONFINE_SECCOMP_TEST_SUPPORT_H_
#define CODEMODE_TESTS_SANDBOX_CONFINE_SECCOMP_TEST_SUPPORT_H_

#include <cstddef>
#include <cstdint>
#include <ctime>

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"
#include "confine/seccomp_policy.h"

namespace codemode::confine_testing {

inline constexpr std::size_t kPage = 4096;

// Builds and compiles the worker's filter (of `engine`'s profile) and loads it as the worker
// does: the first thing a child does before its checks.
inline bool confine_to_worker_policy(EngineProfile engine = EngineProfile::kInterpreter) {
  Result<confine::SeccompProgram> program = confine::compile_worker_seccomp_program(engine);
  return program.ok() && confine::apply_seccomp_program(*program).ok();
}

// Runs `forbidden` under the filter of `engine`'s profile. The child says "filtered" just before
// the call, so a death is known to come from that call and not from anything earlier; "survived"
// means it did not.
template <typename Forbidden>
ChildOutcome run_forbidden(Forbidden forbidden,
                           EngineProfile engine = EngineProfile::kInterpreter) {
  return run_in_child([&forbidden, engine](int report_fd) {
    ChildChecks checks(report_fd);
    if (!checks.expect(confine_to_worker_policy(engine), "filter_not_loaded")) return 1;
    checks.say("filtered");
    forbidden();
    checks.say(" survived");
    return 0;
  });
}

inline void expect_killed_by_the_call(const ChildOutcome& outcome) {
  EXPECT_TRUE(outcome.killed_by(SIGSYS)) << outcome.describe();
  EXPECT_EQ(outcome.report, "filtered");
}

// futex(2) has no glibc wrapper.
inline long futex_call(std::uint32_t* word, int op, std::uint32_t value, const timespec* timeout,
                       std::uint32_t bitset) {
  return syscall(SYS_futex, word, op, value, timeout, nullptr, bitset);
}

}  // namespace codemode::confine_testing

#endif  // CODEMODE_TESTS_SANDBOX_CONFINE_SECCOMP_TEST_SUPPORT_H_
