// The seccomp layer's tables and its allowed side: the tables are consistent, a policy that cannot
// be built or loaded is UNSUPPORTED_PROFILE, and under the real filter (in forked children) every
// allowed call works, including on a thread that existed before the filter (TSYNC). The calls
// that must kill are in seccomp_policy_death_test.cc.
#include "confine/seccomp_policy.h"

#include <array>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"
#include "confine/seccomp_test_support.h"
#include "core/sanitizer_build.h"

namespace codemode::confine {

namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::confine_to_worker_policy;
using confine_testing::futex_call;
using confine_testing::kPage;
using confine_testing::kUnderAddressSanitizer;
using confine_testing::open_task_status;
using confine_testing::read_once;
using confine_testing::run_in_child;
using confine_testing::status_field_is;

// ---- the tables ----

TEST(SeccompPolicyTest, EveryDecisionHasAReason) {
  for (const auto& table : {worker_allowed_syscalls(), worker_denied_syscalls()}) {
    for (const SyscallDecision& row : table) EXPECT_FALSE(row.reason.empty()) << row.name;
  }
}

TEST(SeccompPolicyTest, NoCallIsBothAllowedAndDenied) {
  std::set<std::string_view> allowed;
  for (const SyscallDecision& row : worker_allowed_syscalls()) {
    EXPECT_EQ(row.action, SeccompAction::kAllow) << row.name;
    allowed.insert(row.name);
  }
  std::set<std::string_view> denied;
  for (const SyscallDecision& row : worker_denied_syscalls()) {
    EXPECT_EQ(row.action, SeccompAction::kKillProcess) << row.name;
    EXPECT_EQ(allowed.count(row.name), 0u) << row.name;
    EXPECT_TRUE(denied.insert(row.name).second) << "listed twice: " << row.name;
  }
}

TEST(SeccompPolicyTest, AllowListStaysSmall) {
  std::set<std::string_view> calls;
  for (const SyscallDecision& row : worker_allowed_syscalls()) calls.insert(row.name);
  EXPECT_LE(calls.size(), 24u);
}

// The calls only a sanitizer build allows (docs/security.md "Sanitizer builds") are absent from a
// release build's table, and sigaltstack is allowed for reading only (a null new stack).
TEST(SeccompPolicyTest, SanitizerOnlyCallsAreAllowedOnlyInSanitizerBuilds) {
  std::size_t found = 0;
  std::size_t sanitizer_rows = 0;
  for (const SyscallDecision& row : worker_allowed_syscalls()) {
    if (row.name == "sigaltstack") {
      ASSERT_EQ(row.only_if.size(), 1u);
      EXPECT_TRUE(row.only_if[0].holds(0));
      EXPECT_FALSE(row.only_if[0].holds(0x7fff0000));
      EXPECT_EQ(row.only_if[0].index, 0u);
    }
    if (row.name == "sigaltstack" || row.name == "getpid") {
      EXPECT_TRUE(row.reason.starts_with("sanitizer builds")) << row.name;
      ++found;
    }
    if (row.reason.starts_with("sanitizer builds")) ++sanitizer_rows;
  }
  EXPECT_EQ(found, internal::kSanitizerBuild ? 2u : 0u);
  // sigaltstack, getpid and two madvise advices ASan gives its shadow.
  EXPECT_EQ(sanitizer_rows, internal::kSanitizerBuild ? 4u : 0u);
}

TEST(SeccompPolicyTest, EveryAllowedCallExistsOnThisArchitecture) {
  for (const SyscallDecision& row : worker_allowed_syscalls()) {
    EXPECT_TRUE(syscall_number(row.name).has_value()) << row.name;
  }
}

// Whether `row` allows a call whose arguments are `args` (unnamed arguments are 0).
bool row_allows(const SyscallDecision& row, const std::array<std::uint64_t, 6>& args) {
  for (const ArgCondition& condition : row.only_if) {
    if (!condition.holds(args[condition.index])) return false;
  }
  return true;
}

bool table_allows(std::string_view call, const std::array<std::uint64_t, 6>& args) {
  for (const SyscallDecision& row : worker_allowed_syscalls()) {
    if (row.name == call && row_allows(row, args)) return true;
  }
  return false;
}

constexpr std::uint64_t kPrivateAnonymous = MAP_PRIVATE | MAP_ANONYMOUS;

TEST(SeccompPolicyTest, MmapIsAllowedOnlyPrivateAnonymousAndWithoutProtExec) {
  const std::uint64_t rw = PROT_READ | PROT_WRITE;
  EXPECT_TRUE(table_allows("mmap", {0, kPage, rw, kPrivateAnonymous, ~0ull, 0}));
  EXPECT_TRUE(table_allows("mmap", {0, kPage, PROT_NONE, kPrivateAnonymous | MAP_NORESERVE}));
  EXPECT_TRUE(table_allows("mmap", {0, kPage, rw, kPrivateAnonymous | MAP_FIXED}));
  EXPECT_FALSE(table_allows("mmap", {0, kPage, rw | PROT_EXEC, kPrivateAnonymous}));
  EXPECT_FALSE(table_allows("mmap", {0, kPage, PROT_READ | PROT_EXEC, kPrivateAnonymous}));
  for (const std::uint64_t flags :
       {std::uint64_t{MAP_SHARED | MAP_ANONYMOUS},
        std::uint64_t{MAP_SHARED_VALIDATE | MAP_ANONYMOUS}, kPrivateAnonymous | MAP_GROWSDOWN,
        kPrivateAnonymous | MAP_HUGETLB, kPrivateAnonymous | MAP_LOCKED,
        kPrivateAnonymous | MAP_STACK, std::uint64_t{MAP_PRIVATE},
        kPrivateAnonymous | (std::uint64_t{1} << 40)}) {
    EXPECT_FALSE(table_allows("mmap", {0, kPage, rw, flags})) << std::hex << flags;
  }
}

TEST(SeccompPolicyTest, MprotectIsAllowedOnlyWithoutProtExec) {
  EXPECT_TRUE(table_allows("mprotect", {0, kPage, PROT_READ | PROT_WRITE}));
  EXPECT_FALSE(table_allows("mprotect", {0, kPage, PROT_READ | PROT_EXEC}));
}

TEST(SeccompPolicyTest, MremapMayOnlyResizeOrMove) {
  EXPECT_TRUE(table_allows("mremap", {0, kPage, 2 * kPage, 0}));
  EXPECT_TRUE(table_allows("mremap", {0, kPage, 2 * kPage, MREMAP_MAYMOVE}));
  EXPECT_FALSE(table_allows("mremap", {0, 0, kPage, MREMAP_MAYMOVE}));  // an alias
  EXPECT_FALSE(table_allows("mremap", {0, kPage, kPage, MREMAP_MAYMOVE | MREMAP_FIXED}));
  EXPECT_FALSE(table_allows("mremap", {0, kPage, kPage, MREMAP_MAYMOVE | MREMAP_DONTUNMAP}));
}

TEST(SeccompPolicyTest, MadviseIsAllowedOnlyForDontNeed) {
  EXPECT_TRUE(table_allows("madvise", {0, kPage, MADV_DONTNEED}));
  for (const std::uint64_t advice :
       {std::uint64_t{MADV_MERGEABLE}, std::uint64_t{MADV_HUGEPAGE}, std::uint64_t{MADV_DONTFORK},
        std::uint64_t{MADV_WIPEONFORK}, std::uint64_t{MADV_FREE}, std::uint64_t{MADV_PAGEOUT},
        std::uint64_t{MADV_HWPOISON}, MADV_DONTNEED | (std::uint64_t{1} << 32)}) {
    EXPECT_FALSE(table_allows("madvise", {0, kPage, advice})) << advice;
  }
}

// A check, or a bounded wait for a timer: the timeout (argument 2, an int) is 0 .. 2^22 - 1 ms.
TEST(SeccompPolicyTest, PollIsAllowedOnlyWithABoundedTimeout) {
  EXPECT_TRUE(table_allows("poll", {0, 1, 0}));
  EXPECT_TRUE(table_allows("poll", {0, 1, 1}));
  EXPECT_TRUE(table_allows("poll", {0, 1, 3'600'000}));  // the longest wallTimeMillis
  EXPECT_TRUE(table_allows("poll", {0, 1, (std::uint64_t{1} << 22) - 1}));
  EXPECT_TRUE(table_allows("poll", {0, 1, std::uint64_t{1} << 32}));  // the kernel reads an int
  EXPECT_FALSE(table_allows("poll", {0, 1, std::uint64_t{1} << 22}));
  EXPECT_FALSE(table_allows("poll", {0, 1, 0xffffffffu}));  // -1: wait forever
  EXPECT_FALSE(table_allows("poll", {0, 1, 0x80000000u}));  // any negative int
  EXPECT_FALSE(table_allows("ppoll", {0, 1, 0}));
}

TEST(SeccompPolicyTest, StyleGuideDenialsAreListed) {
  std::set<std::string_view> denied;
  for (const SyscallDecision& row : worker_denied_syscalls()) denied.insert(row.name);
  for (std::string_view name : {"open", "openat", "openat2", "socket", "execve", "execveat", "fork",
                                "vfork", "clone", "clone3", "ptrace", "ioctl"}) {
    EXPECT_EQ(denied.count(name), 1u) << name;
  }
}

// ---- building and loading fails closed ----

void expect_unsupported(const Error& error, std::string_view rule) {
  EXPECT_EQ(error.code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(error.rule, rule);
  EXPECT_NE(error.message.find("seccomp"), std::string::npos);
}

TEST(SeccompPolicyTest, UnknownAllowedCallIsUnsupportedProfile) {
  const SyscallDecision allowed[] = {{"read", SeccompAction::kAllow, {}, "test"},
                                     {"no_such_call", SeccompAction::kAllow, {}, "test"}};
  Result<SeccompFilter> filter = prepare_seccomp_filter(allowed, {});
  ASSERT_FALSE(filter.ok());
  expect_unsupported(filter.error(), "seccomp_policy");
}

TEST(SeccompPolicyTest, UnknownDeniedCallIsUnsupportedProfile) {
  const SyscallDecision denied[] = {{"no_such_call", SeccompAction::kKillProcess, {}, "test"}};
  Result<SeccompFilter> filter = prepare_seccomp_filter(worker_allowed_syscalls(), denied);
  ASSERT_FALSE(filter.ok());
  expect_unsupported(filter.error(), "seccomp_policy");
}

TEST(SeccompPolicyTest, DenialRowThatAllowsIsUnsupportedProfile) {
  const SyscallDecision denied[] = {{"socket", SeccompAction::kAllow, {}, "test"}};
  Result<SeccompFilter> filter = prepare_seccomp_filter(worker_allowed_syscalls(), denied);
  ASSERT_FALSE(filter.ok());
  expect_unsupported(filter.error(), "seccomp_policy");
}

TEST(SeccompPolicyTest, CompilingAnEmptiedFilterIsUnsupportedProfile) {
  Result<SeccompFilter> filter = prepare_worker_seccomp_filter();
  ASSERT_TRUE(filter.ok()) << filter.error().message;
  SeccompFilter taken = std::move(*filter);
  const Result<SeccompProgram> compiled =
      compile_seccomp_filter(*filter);  // NOLINT(bugprone-use-after-move)
  ASSERT_FALSE(compiled.ok());
  expect_unsupported(compiled.error(), "seccomp_policy");
}

TEST(SeccompPolicyTest, LoadingAnEmptiedProgramIsUnsupportedProfile) {
  Result<SeccompProgram> program = compile_worker_seccomp_program();
  ASSERT_TRUE(program.ok()) << program.error().message;
  SeccompProgram taken = std::move(*program);
  EXPECT_GT(taken.instruction_count(), worker_allowed_syscalls().size());
  const Status loaded = apply_seccomp_program(*program);  // NOLINT(bugprone-use-after-move)
  ASSERT_FALSE(loaded.ok());
  expect_unsupported(loaded.error(), "seccomp_load");
}

// The fork server compiles once and every child loads its copy: the same instructions load in
// any number of processes, and each is filtered (a denied call kills it).
TEST(SeccompPolicyTest, OneCompiledProgramConfinesEveryChildThatLoadsIt) {
  Result<SeccompProgram> program = compile_worker_seccomp_program();
  ASSERT_TRUE(program.ok()) << program.error().message;
  for (int child = 0; child < 2; ++child) {
    const ChildOutcome outcome = run_in_child([&program](int report_fd) {
      ChildChecks checks(report_fd);
      const int status_fd = open("/proc/self/status", O_RDONLY);  // the filter forbids open
      if (!checks.expect(apply_seccomp_program(*program).ok(), "load_failed")) return 1;
      char buffer[8192];
      const std::string_view status = read_once(status_fd, buffer);
      checks.expect(status_field_is(status, "Seccomp", "2"), "not_loaded");
      checks.expect(status_field_is(status, "NoNewPrivs", "1"), "no_new_privs");
      checks.say("filtered");
      syscall(SYS_getpid);                           // allowed
      syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);  // denied: the process dies here
      checks.say("survived");
      return checks.exit_code();
    });
    EXPECT_TRUE(outcome.killed_by(SIGSYS)) << outcome.describe();
    EXPECT_NE(outcome.report.find("filtered"), std::string::npos) << outcome.describe();
    EXPECT_EQ(outcome.report.find("survived"), std::string::npos) << outcome.describe();
  }
}

TEST(SeccompPolicyTest, PreparingLoadsNothing) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    checks.expect(prepare_worker_seccomp_filter().ok(), "prepare_failed");
    const int status_fd = open("/proc/self/status", O_RDONLY);
    char buffer[8192];
    checks.expect(status_field_is(read_once(status_fd, buffer), "Seccomp", "0"), "loaded");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

// ---- allowed calls work under the filter ----

volatile std::sig_atomic_t alarm_handled = 0;
void on_alarm(int) { alarm_handled = 1; }

void check_io(ChildChecks& checks, int read_fd, int write_fd) {
  char byte = 0;
  pollfd check{.fd = read_fd, .events = POLLIN, .revents = 0};
  checks.expect(syscall(SYS_poll, &check, 1, 0) == 0, "poll");
  checks.expect(syscall(SYS_poll, &check, 1, std::uint64_t{1} << 32) == 0, "poll_int_timeout");
  checks.expect(write(write_fd, "x", 1) == 1, "write");
  checks.expect(read(read_fd, &byte, 1) == 1 && byte == 'x', "read");
  checks.expect(close(write_fd) == 0, "close");
}

void check_memory(ChildChecks& checks) {
  void* block = mmap(nullptr, kPage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  checks.expect(block != MAP_FAILED, "mmap");
  static_cast<char*>(block)[0] = 1;
  checks.expect(mprotect(block, kPage, PROT_READ) == 0, "mprotect");
  void* grown = mremap(block, kPage, 4 * kPage, MREMAP_MAYMOVE);
  checks.expect(grown != MAP_FAILED, "mremap");
  checks.expect(madvise(grown, 4 * kPage, MADV_DONTNEED) == 0, "madvise");
  checks.expect(munmap(grown, 4 * kPage) == 0, "munmap");
  checks.expect(syscall(SYS_brk, 0) > 0, "brk");
}

void check_futex(ChildChecks& checks) {
  std::uint32_t word = 0;
  const timespec short_wait{0, 1'000'000};
  checks.expect(futex_call(&word, FUTEX_WAKE_PRIVATE, 1, nullptr, 0) == 0, "futex_wake");
  checks.expect(futex_call(&word, FUTEX_WAIT_PRIVATE, 1, nullptr, 0) == -1 && errno == EAGAIN,
                "futex_wait");
  checks.expect(
      futex_call(&word, FUTEX_WAIT_BITSET_PRIVATE, 0, nullptr, 0) == -1 && errno == EINVAL,
      "futex_wait_bitset");  // bitset 0 is EINVAL: reached the kernel, not killed
  checks.expect(futex_call(&word, FUTEX_WAKE_BITSET, 1, &short_wait, ~0u) == 0,
                "futex_wake_bitset");
}

void check_time_and_randomness(ChildChecks& checks) {
  timespec now{};
  checks.expect(clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0, "clock_gettime");
  timeval tv{};
  checks.expect(syscall(SYS_gettimeofday, &tv, nullptr) == 0, "gettimeofday");
  checks.expect(syscall(SYS_time, nullptr) > 0, "time");
  const timespec nap{0, 1'000'000};
  checks.expect(clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, nullptr) == 0, "clock_nanosleep");
  char random[16];
  checks.expect(getrandom(random, sizeof random, 0) == sizeof random, "getrandom");
  rusage usage{};
  checks.expect(getrusage(RUSAGE_SELF, &usage) == 0, "getrusage");
  checks.expect(sched_yield() == 0, "sched_yield");
}

void check_signals(ChildChecks& checks) {
  sigset_t none;
  sigemptyset(&none);
  checks.expect(sigprocmask(SIG_BLOCK, &none, nullptr) == 0, "rt_sigprocmask");
  // The timer armed before the filter fires now; returning from its handler is rt_sigreturn.
  const timespec nap{0, 10'000'000};
  for (int i = 0; i < 200 && !alarm_handled; ++i)
    clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, nullptr);
  checks.expect(alarm_handled == 1, "rt_sigreturn");
}

TEST(SeccompPolicyTest, AllowedCallsWorkUnderTheFilter) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    int fds[2];
    checks.expect(pipe(fds) == 0, "setup");
    if (!checks.expect(confine_to_worker_policy(), "filter_not_loaded")) return 1;
    check_io(checks, fds[0], fds[1]);
    check_memory(checks);
    check_futex(checks);
    check_time_and_randomness(checks);
    return checks.exit_code();  // _exit: exit_group
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(SeccompPolicyTest, SignalHandlerReturnsUnderTheFilter) {
  if (kUnderAddressSanitizer) {
    GTEST_SKIP() << "the ASan runtime calls sigaltstack(2) around signal handlers, which the "
                    "worker's filter denies; this test runs in the release build";
  }
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    struct sigaction action {};
    action.sa_handler = on_alarm;
    const itimerval in_50ms{{0, 0}, {0, 50'000}};
    checks.expect(
        sigaction(SIGALRM, &action, nullptr) == 0 && setitimer(ITIMER_REAL, &in_50ms, nullptr) == 0,
        "setup");
    if (!checks.expect(confine_to_worker_policy(), "filter_not_loaded")) return 1;
    check_signals(checks);
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

// ---- TSYNC: a thread that existed before the filter is filtered and still works ----

struct Handshake {
  std::mutex mutex;
  std::condition_variable changed;
  // 0 started, 1 tid published, 2 filter loaded, 3 thread's checks done, 4 thread may end
  int stage = 0;
  pid_t tid = 0;
  bool thread_ok = false;

  void advance_to(int next) {
    std::lock_guard lock(mutex);
    stage = next;
    changed.notify_all();
  }
  void wait_for(int wanted) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return stage >= wanted; });
  }
};

void check_task_status(ChildChecks& checks, int status_fd) {
  char buffer[8192];
  const std::string_view status = read_once(status_fd, buffer);
  checks.expect(status_field_is(status, "Seccomp", "2"), "seccomp_not_2");
  checks.expect(status_field_is(status, "NoNewPrivs", "1"), "no_new_privs_not_1");
}

TEST(SeccompPolicyTest, FilterCoversAThreadThatExistedBeforeIt) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    // Heap-allocated so that under ASan both can be left alone at the end (see below).
    auto* handshake = new Handshake;
    auto* existing = new std::thread([handshake] {
      handshake->tid = static_cast<pid_t>(syscall(SYS_gettid));
      handshake->advance_to(1);
      handshake->wait_for(2);
      timespec now{};
      handshake->thread_ok =
          clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 && getrandom(&now, 1, 0) == 1;
      handshake->advance_to(3);
      handshake->wait_for(4);  // alive until its status is read
    });
    handshake->wait_for(1);
    const int main_status = open_task_status(static_cast<pid_t>(syscall(SYS_gettid)));
    const int thread_status = open_task_status(handshake->tid);
    checks.expect(main_status >= 0 && thread_status >= 0, "setup");
    checks.expect(confine_to_worker_policy(), "filter_not_loaded");
    handshake->advance_to(2);
    handshake->wait_for(3);
    checks.expect(handshake->thread_ok, "thread_calls_failed");
    check_task_status(checks, main_status);
    check_task_status(checks, thread_status);  // read while the thread still exists
    // The thread's exit path and join run under the filter too. Not under ASan: its runtime
    // makes calls the filter denies when a thread ends (pipe2, sigaltstack); there the thread
    // stays parked until exit_group.
    if (!kUnderAddressSanitizer) {
      handshake->advance_to(4);
      existing->join();
      delete existing;
      delete handshake;
    }
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

}  // namespace
}  // namespace codemode::confine
