// The seccomp layer's killing side, under the real filter in forked children: executable memory,
// the forbidden futex commands, an unlisted call, foreign-ABI calls and every row of the denial
// table (one generated test each, as Chromium's TEST_BASELINE_SIGSYS) die of SIGSYS.
#include <csignal>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include <linux/futex.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"
#include "confine/seccomp_policy.h"
#include "confine/seccomp_test_support.h"
#include "core/sanitizer_build.h"

namespace codemode::confine {

// Names the parameter of the generated tests in gtest's messages.
void PrintTo(const SyscallDecision& row, std::ostream* out) { *out << row.name; }

namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::confine_to_worker_policy;
using confine_testing::expect_killed_by_the_call;
using confine_testing::futex_call;
using confine_testing::kPage;
using confine_testing::run_forbidden;
using confine_testing::run_in_child;

TEST(SeccompKillTest, MmapWithProtExecKillsTheProcess) {
  const ChildOutcome outcome = run_forbidden(
      [] { mmap(nullptr, kPage, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); });
  expect_killed_by_the_call(outcome);
}

TEST(SeccompKillTest, WritableExecutableMmapKillsTheProcess) {
  const ChildOutcome outcome = run_forbidden([] {
    mmap(nullptr, kPage, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  });
  expect_killed_by_the_call(outcome);
}

// The worker may wait in poll only for a bounded time: never forever (a negative timeout).
TEST(SeccompKillTest, PollThatMayWaitForeverKillsTheProcess) {
  const ChildOutcome outcome = run_forbidden([] {
    pollfd check{.fd = 0, .events = POLLIN, .revents = 0};
    syscall(SYS_poll, &check, 1, -1);
  });
  expect_killed_by_the_call(outcome);
}

// Nor past the bound (2^22 - 1 ms): the kernel reads an int, so the high bits change nothing.
TEST(SeccompKillTest, PollPastItsBoundKillsWhateverItsHighBits) {
  const ChildOutcome outcome = run_forbidden([] {
    pollfd check{.fd = 0, .events = POLLIN, .revents = 0};
    syscall(SYS_poll, &check, 1, (std::uint64_t{1} << 32) | (std::uint64_t{1} << 22));
  });
  expect_killed_by_the_call(outcome);
}

TEST(SeccompKillTest, MprotectToExecutableKillsTheProcess) {
  void* block = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(block, MAP_FAILED);
  const ChildOutcome outcome =
      run_forbidden([block] { mprotect(block, kPage, PROT_READ | PROT_EXEC); });
  expect_killed_by_the_call(outcome);
  munmap(block, kPage);
}

// Only four futex commands are allowed; priority inheritance and requeueing are not.
class ForbiddenFutexTest : public ::testing::TestWithParam<int> {};

TEST_P(ForbiddenFutexTest, KillsTheProcess) {
  const int op = GetParam();
  const ChildOutcome outcome = run_forbidden([op] {
    std::uint32_t word = 0;
    futex_call(&word, op, 0, nullptr, 0);
  });
  expect_killed_by_the_call(outcome);
}

INSTANTIATE_TEST_SUITE_P(WorkerPolicy, ForbiddenFutexTest,
                         ::testing::Values(FUTEX_LOCK_PI, FUTEX_UNLOCK_PI, FUTEX_TRYLOCK_PI,
                                           FUTEX_CMP_REQUEUE, FUTEX_CMP_REQUEUE_PI,
                                           FUTEX_WAIT_REQUEUE_PI, FUTEX_WAKE_OP, FUTEX_REQUEUE));

// One death test per row of the denial table, generated from the table (TEST_BASELINE_SIGSYS).
// The arguments are all zero: the filter decides on the number alone, before the kernel would.
class DeniedSyscallTest : public ::testing::TestWithParam<SyscallDecision> {};

TEST_P(DeniedSyscallTest, KillsTheProcessWithSigsys) {
  const std::optional<int> number = syscall_number(GetParam().name);
  if (!number) GTEST_SKIP() << GetParam().name << " does not exist on this architecture";
  const ChildOutcome outcome = run_forbidden([number] { syscall(*number, 0, 0, 0, 0, 0, 0); });
  SCOPED_TRACE(std::string(GetParam().name));
  expect_killed_by_the_call(outcome);
}

INSTANTIATE_TEST_SUITE_P(WorkerPolicy, DeniedSyscallTest,
                         ::testing::ValuesIn(worker_denied_syscalls().begin(),
                                             worker_denied_syscalls().end()),
                         [](const ::testing::TestParamInfo<SyscallDecision>& info) {
                           return std::string(info.param.name);
                         });

// Sanitizer builds allow reading the alternate signal stack (ASan does before every noreturn call);
// installing one stays denied in every build.
TEST(SeccompKillTest, InstallingAnAlternateSignalStackKillsTheProcess) {
  static char stack[64 * 1024];
  const ChildOutcome outcome = run_forbidden([] {
    stack_t alternate{};
    alternate.ss_sp = stack;
    alternate.ss_size = sizeof stack;
    syscall(SYS_sigaltstack, &alternate, nullptr);
  });
  expect_killed_by_the_call(outcome);
}

TEST(SeccompKillTest, ReadingTheAlternateSignalStackKillsOutsideSanitizerBuilds) {
  const ChildOutcome outcome = run_forbidden([] {
    stack_t current{};
    syscall(SYS_sigaltstack, nullptr, &current);
  });
  if (internal::kSanitizerBuild) {
    EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
    EXPECT_EQ(outcome.report, "filtered survived");
  } else {
    expect_killed_by_the_call(outcome);
  }
}

TEST(SeccompKillTest, GetpidKillsOutsideSanitizerBuilds) {
  const ChildOutcome outcome = run_forbidden([] { syscall(SYS_getpid); });
  if (internal::kSanitizerBuild) {
    EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
  } else {
    expect_killed_by_the_call(outcome);
  }
}

// An unlisted call with no row anywhere falls to the default action too.
TEST(SeccompKillTest, UnlistedCallKillsTheProcess) {
  const ChildOutcome outcome = run_forbidden([] { syscall(SYS_getppid); });
  expect_killed_by_the_call(outcome);
}

#if defined(__x86_64__)
// A call through another ABI (the i386 int 0x80 gate, the x32 bit) must not slip past a filter
// written for x86_64 numbers, and must kill the whole process, not only the calling thread.
long i386_getpid() {
  long result = 20;  // __NR_getpid in the i386 table
  asm volatile("int $0x80" : "+a"(result) : : "memory");
  return result;
}

bool i386_gate_works() {
  const ChildOutcome probe = run_in_child([](int) { return i386_getpid() > 0 ? 0 : 1; });
  return probe.exited_cleanly();
}

TEST(SeccompKillTest, I386SystemCallKillsTheProcess) {
  if (!i386_gate_works()) GTEST_SKIP() << "this kernel has no IA32 emulation";
  const ChildOutcome outcome = run_forbidden([] { i386_getpid(); });
  expect_killed_by_the_call(outcome);
}

TEST(SeccompKillTest, X32SystemCallKillsTheProcess) {
  constexpr long kX32SyscallBit = 0x40000000;
  const ChildOutcome outcome = run_forbidden([] { syscall(kX32SyscallBit | SYS_getpid); });
  expect_killed_by_the_call(outcome);
}
#endif

}  // namespace
}  // namespace codemode::confine
