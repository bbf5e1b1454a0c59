// The seccomp layer, tested under the real filter in forked children: the tables are consistent,
// every allowed call works, executable memory and every notable denial kill the process with
// SIGSYS (one generated test per row of the denial table), the filter covers threads that existed
// before it, and a policy that cannot be built is UNSUPPORTED_PROFILE.
#include "sandbox/confine/seccomp_policy.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <ostream>
#include <set>
#include <string>
#include <thread>

#include "sandbox/confine/child_process.h"

namespace codemode::confine {

// Names the parameter of the generated tests in gtest's messages.
void PrintTo(const SyscallDecision& row, std::ostream* out) { *out << row.name; }

namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::kUnderAddressSanitizer;
using confine_testing::read_once;
using confine_testing::run_in_child;
using confine_testing::status_field_is;

constexpr std::size_t kPage = 4096;

// Builds the worker's filter and loads it: the first thing a child does before its checks.
bool confine_to_worker_policy() {
  Result<SeccompFilter> filter = prepare_worker_seccomp_filter();
  return filter.ok() && apply_seccomp_filter(*filter).ok();
}

long futex_call(std::uint32_t* word, int op, std::uint32_t value, const timespec* timeout,
                std::uint32_t bitset) {
  return syscall(SYS_futex, word, op, value, timeout, nullptr, bitset);
}

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

TEST(SeccompPolicyTest, EveryAllowedCallExistsOnThisArchitecture) {
  for (const SyscallDecision& row : worker_allowed_syscalls()) {
    EXPECT_TRUE(syscall_number(row.name).has_value()) << row.name;
  }
}

TEST(SeccompPolicyTest, MemoryMappingIsAllowedOnlyWithoutProtExec) {
  int checked = 0;
  for (const SyscallDecision& row : worker_allowed_syscalls()) {
    if (row.name != "mmap" && row.name != "mprotect") continue;
    ASSERT_TRUE(row.only_if.has_value()) << row.name;
    EXPECT_EQ(row.only_if->index, 2u) << row.name;
    EXPECT_EQ(row.only_if->mask, static_cast<std::uint64_t>(PROT_EXEC)) << row.name;
    EXPECT_EQ(row.only_if->value, 0u) << row.name;
    ++checked;
  }
  EXPECT_EQ(checked, 2);
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

TEST(SeccompPolicyTest, LoadingAnEmptiedFilterIsUnsupportedProfile) {
  Result<SeccompFilter> filter = prepare_worker_seccomp_filter();
  ASSERT_TRUE(filter.ok()) << filter.error().message;
  SeccompFilter taken = std::move(*filter);
  const Status loaded = apply_seccomp_filter(*filter);  // NOLINT(bugprone-use-after-move)
  ASSERT_FALSE(loaded.ok());
  expect_unsupported(loaded.error(), "seccomp_load");
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

int open_task_status(pid_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/status", static_cast<int>(tid));
  return open(path, O_RDONLY);
}

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

// ---- forbidden calls kill the process ----

// Runs `forbidden` under the filter. The child says "filtered" just before the call, so a death
// is known to come from that call and not from anything earlier; "survived" means it did not.
template <typename Forbidden>
ChildOutcome run_forbidden(Forbidden forbidden) {
  return run_in_child([&forbidden](int report_fd) {
    ChildChecks checks(report_fd);
    if (!checks.expect(confine_to_worker_policy(), "filter_not_loaded")) return 1;
    checks.say("filtered");
    forbidden();
    checks.say(" survived");
    return 0;
  });
}

void expect_killed_by_the_call(const ChildOutcome& outcome) {
  EXPECT_TRUE(outcome.killed_by(SIGSYS)) << outcome.describe();
  EXPECT_EQ(outcome.report, "filtered");
}

TEST(SeccompPolicyTest, MmapWithProtExecKillsTheProcess) {
  const ChildOutcome outcome = run_forbidden(
      [] { mmap(nullptr, kPage, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0); });
  expect_killed_by_the_call(outcome);
}

TEST(SeccompPolicyTest, WritableExecutableMmapKillsTheProcess) {
  const ChildOutcome outcome = run_forbidden([] {
    mmap(nullptr, kPage, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  });
  expect_killed_by_the_call(outcome);
}

TEST(SeccompPolicyTest, MprotectToExecutableKillsTheProcess) {
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

// An unlisted call with no row anywhere falls to the default action too.
TEST(SeccompPolicyTest, UnlistedCallKillsTheProcess) {
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

TEST(SeccompPolicyTest, I386SystemCallKillsTheProcess) {
  if (!i386_gate_works()) GTEST_SKIP() << "this kernel has no IA32 emulation";
  const ChildOutcome outcome = run_forbidden([] { i386_getpid(); });
  expect_killed_by_the_call(outcome);
}

TEST(SeccompPolicyTest, X32SystemCallKillsTheProcess) {
  constexpr long kX32SyscallBit = 0x40000000;
  const ChildOutcome outcome = run_forbidden([] { syscall(kX32SyscallBit | SYS_getpid); });
  expect_killed_by_the_call(outcome);
}
#endif

}  // namespace
}  // namespace codemode::confine
