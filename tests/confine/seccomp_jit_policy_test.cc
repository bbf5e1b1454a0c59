// The JIT engine profile's seccomp filter (worker_allowed_syscalls(EngineProfile::kJit)): the
// interpreter's allow-list, unchanged, plus mmap and mprotect without PROT_WRITE. Under the real
// filter in forked children, what SpiderMonkey's JIT does works (read-and-execute mappings,
// written pages flipped to read-and-execute), and memory both writable and executable still
// kills, as does pkey_mprotect, which would bypass the check. The interpreter filter's refusal of
// every PROT_EXEC is in seccomp_policy_death_test.cc.
#include <cstdint>
#include <functional>
#include <string_view>

#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"
#include "confine/seccomp_policy.h"
#include "confine/seccomp_test_support.h"

namespace codemode::confine {
namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::confine_to_worker_policy;
using confine_testing::expect_killed_by_the_call;
using confine_testing::kPage;
using confine_testing::run_in_child;

constexpr EngineProfile kJit = EngineProfile::kJit;

bool same_row(const SyscallDecision& a, const SyscallDecision& b) {
  return a.name == b.name && a.action == b.action && a.only_if.data() == b.only_if.data() &&
         a.only_if.size() == b.only_if.size();
}

TEST(SeccompJitPolicyTest, JitListIsTheInterpreterListPlusTwoRowsWithoutProtWrite) {
  const auto interpreter = worker_allowed_syscalls();
  const auto jit = worker_allowed_syscalls(kJit);
  ASSERT_EQ(jit.size(), interpreter.size() + 2);
  for (std::size_t i = 0; i < interpreter.size(); ++i) {
    EXPECT_TRUE(same_row(jit[i], interpreter[i])) << interpreter[i].name;
  }
  EXPECT_EQ(jit[interpreter.size()].name, "mmap");
  EXPECT_EQ(jit[interpreter.size() + 1].name, "mprotect");
  for (std::size_t i = interpreter.size(); i < jit.size(); ++i) {
    ASSERT_FALSE(jit[i].only_if.empty());
    const ArgCondition& protection = jit[i].only_if[0];
    EXPECT_EQ(protection.index, 2u);
    EXPECT_TRUE(protection.holds(PROT_READ | PROT_EXEC));
    EXPECT_FALSE(protection.holds(PROT_WRITE | PROT_EXEC));
    EXPECT_FALSE(jit[i].reason.empty());
  }
  // The JIT's mmap row keeps the interpreter's flag rule: private and anonymous only.
  ASSERT_EQ(jit[interpreter.size()].only_if.size(), 2u);
  const ArgCondition& flags = jit[interpreter.size()].only_if[1];
  EXPECT_EQ(flags.index, 3u);
  EXPECT_TRUE(flags.holds(MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED));
  EXPECT_FALSE(flags.holds(MAP_SHARED | MAP_ANONYMOUS));
}

TEST(SeccompJitPolicyTest, JitCodeMappingsWorkUnderTheJitFilter) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    if (!checks.expect(confine_to_worker_policy(kJit), "filter_not_loaded")) return 1;
    void* code = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    checks.expect(code != MAP_FAILED, "mmap_rw");
    static_cast<unsigned char*>(code)[0] = 0xc3;  // ret
    checks.expect(mprotect(code, kPage, PROT_READ | PROT_EXEC) == 0, "mprotect_rx");
    reinterpret_cast<void (*)()>(code)();  // runs: executable memory is really allowed
    checks.expect(mprotect(code, kPage, PROT_READ | PROT_WRITE) == 0, "mprotect_rw_again");
    void* mapped = mmap(nullptr, kPage, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    checks.expect(mapped != MAP_FAILED, "mmap_rx");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

ChildOutcome run_forbidden_under_jit_filter(const std::function<void()>& forbidden) {
  return confine_testing::run_forbidden(forbidden, kJit);
}

TEST(SeccompJitPolicyTest, WritableExecutableMmapKillsUnderTheJitFilter) {
  expect_killed_by_the_call(run_forbidden_under_jit_filter([] {
    mmap(nullptr, kPage, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  }));
  expect_killed_by_the_call(run_forbidden_under_jit_filter(
      [] { mmap(nullptr, kPage, PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); }));
}

TEST(SeccompJitPolicyTest, MprotectToWritableExecutableKillsUnderTheJitFilter) {
  void* block = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(block, MAP_FAILED);
  expect_killed_by_the_call(run_forbidden_under_jit_filter(
      [block] { mprotect(block, kPage, PROT_READ | PROT_WRITE | PROT_EXEC); }));
  munmap(block, kPage);
}

// pkey_mprotect takes the same protection in the same argument but is not in the list: without
// the kill, it would make any page executable past the mprotect rule.
TEST(SeccompJitPolicyTest, PkeyMprotectStillKillsUnderTheJitFilter) {
  void* block = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(block, MAP_FAILED);
  expect_killed_by_the_call(run_forbidden_under_jit_filter(
      [block] { syscall(SYS_pkey_mprotect, block, kPage, PROT_READ | PROT_EXEC, -1); }));
  munmap(block, kPage);
}

// READ_IMPLIES_EXEC stays refused: personality kills under the JIT filter as under the other.
TEST(SeccompJitPolicyTest, PersonalityStillKillsUnderTheJitFilter) {
  expect_killed_by_the_call(run_forbidden_under_jit_filter([] { syscall(SYS_personality, 0); }));
}

}  // namespace
}  // namespace codemode::confine
