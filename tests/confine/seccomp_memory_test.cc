// Native probes of the first security review (finding 1), under the real filter in forked
// children, in both engine profiles: a worker that escaped the engine cannot make memory that
// RLIMIT_DATA does not count (shared or grows-down mappings), cannot give a page a second view
// (mremap with old_size 0; the JIT profile's "map shared, alias, make one view executable, patch
// it through the other"), and cannot give the kernel advice nothing needs. What the allocators do
// use still works. RLIMIT_AS, the backstop for what the filter allows and RLIMIT_DATA misses, is
// in confinement_test.cc.
#include <cstddef>
#include <cstring>
#include <string>

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
using confine_testing::kGiB;
using confine_testing::kPage;
using confine_testing::run_forbidden;
using confine_testing::run_in_child;

class SeccompMemoryTest : public ::testing::TestWithParam<EngineProfile> {};

std::string engine_name(const ::testing::TestParamInfo<EngineProfile>& info) {
  return info.param == EngineProfile::kJit ? "Jit" : "Interpreter";
}

// The review's first probe: 1 GiB shared, every page written, while RLIMIT_DATA was 132 MiB.
TEST_P(SeccompMemoryTest, SharedMappingKills) {
  expect_killed_by_the_call(run_forbidden(
      [] {
        void* block =
            mmap(nullptr, kGiB, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (block != MAP_FAILED) std::memset(block, 1, kGiB);
      },
      GetParam()));
  expect_killed_by_the_call(run_forbidden(
      [] {
        mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE | MAP_ANONYMOUS, -1, 0);
      },
      GetParam()));
}

TEST_P(SeccompMemoryTest, GrowsDownMappingKills) {
  expect_killed_by_the_call(run_forbidden(
      [] {
        mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN,
             -1, 0);
      },
      GetParam()));
}

TEST_P(SeccompMemoryTest, MappingAFileDescriptorKills) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  expect_killed_by_the_call(run_forbidden(
      [&fds] { mmap(nullptr, kPage, PROT_READ, MAP_PRIVATE, fds[0], 0); }, GetParam()));
  close(fds[0]);
  close(fds[1]);
}

TEST_P(SeccompMemoryTest, MremapAliasOrPlacementKills) {
  void* page = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  expect_killed_by_the_call(
      run_forbidden([page] { syscall(SYS_mremap, page, 0, kPage, MREMAP_MAYMOVE); }, GetParam()));
  void* target = mmap(nullptr, kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(target, MAP_FAILED);
  expect_killed_by_the_call(run_forbidden(
      [page, target] {
        syscall(SYS_mremap, page, kPage, kPage, MREMAP_MAYMOVE | MREMAP_FIXED, target);
      },
      GetParam()));
  expect_killed_by_the_call(run_forbidden(
      [page] { syscall(SYS_mremap, page, kPage, kPage, MREMAP_MAYMOVE | MREMAP_DONTUNMAP); },
      GetParam()));
  munmap(page, kPage);
  munmap(target, kPage);
}

TEST_P(SeccompMemoryTest, AdviceBeyondDontNeedKills) {
  void* page = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(page, MAP_FAILED);
  for (const int advice : {MADV_MERGEABLE, MADV_HUGEPAGE, MADV_DONTFORK, MADV_FREE}) {
    SCOPED_TRACE(advice);
    expect_killed_by_the_call(
        run_forbidden([page, advice] { madvise(page, kPage, advice); }, GetParam()));
  }
  munmap(page, kPage);
}

// What glibc's malloc and SpiderMonkey's GC do after the filter (measured with strace): private
// anonymous mappings, reservations with MAP_NORESERVE, commits with MAP_FIXED, realloc's mremap,
// trimming with MADV_DONTNEED.
TEST_P(SeccompMemoryTest, WhatTheAllocatorsUseStillWorks) {
  const EngineProfile engine = GetParam();
  const ChildOutcome outcome = run_in_child([engine](int report_fd) {
    ChildChecks checks(report_fd);
    if (!checks.expect(confine_to_worker_policy(engine), "filter_not_loaded")) return 1;
    void* reserved =
        mmap(nullptr, 16 * kPage, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    checks.expect(reserved != MAP_FAILED, "reserve");
    void* committed = mmap(reserved, 4 * kPage, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    checks.expect(committed == reserved, "commit");
    static_cast<char*>(committed)[0] = 1;
    checks.expect(madvise(committed, 4 * kPage, MADV_DONTNEED) == 0, "dontneed");
    void* block = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    void* grown = mremap(block, kPage, 64 * kPage, MREMAP_MAYMOVE);
    checks.expect(grown != MAP_FAILED, "mremap_grow");
    void* shrunk = mremap(grown, 64 * kPage, kPage, 0);
    checks.expect(shrunk == grown, "mremap_shrink");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

INSTANTIATE_TEST_SUITE_P(Profiles, SeccompMemoryTest,
                         ::testing::Values(EngineProfile::kInterpreter, EngineProfile::kJit),
                         engine_name);

// The review's JIT-profile probe: a shared page, aliased by mremap(old_size = 0), one view made
// read+exec and patched through the other, then run. Under today's filter the first step kills,
// and the aliasing step would too on its own.
TEST(SeccompJitMemoryTest, AliasingAWritableViewOfJitCodeKills) {
  expect_killed_by_the_call(run_forbidden(
      [] {
        void* shared =
            mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (shared == MAP_FAILED) return;
        const long alias = syscall(SYS_mremap, shared, 0, kPage, MREMAP_MAYMOVE);
        if (alias == -1) return;
        mprotect(reinterpret_cast<void*>(alias), kPage, PROT_READ | PROT_EXEC);
        static_cast<unsigned char*>(shared)[0] = 0xc3;  // ret, written through the other view
        reinterpret_cast<void (*)()>(alias)();
      },
      EngineProfile::kJit));
}

}  // namespace
}  // namespace codemode::confine
