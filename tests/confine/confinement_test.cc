// confine_worker as the worker calls it: capabilities dropped while the child has one thread, then
// every layer on, on every thread, in a forked child; RLIMIT_AS refuses what RLIMIT_DATA does not
// count; a bad plan or capabilities still held fail closed with UNSUPPORTED_PROFILE;
// describe_confinement lists every layer.
#include "confine/confinement.h"

#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/capabilities.h"
#include "confine/child_process.h"
#include "confine/rlimits.h"

namespace codemode::confine {
namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::kUnderAddressSanitizer;
using confine_testing::open_task_status;
using confine_testing::read_once;
using confine_testing::run_in_child;
using confine_testing::status_field_is;

// Under ASan the runtime's shadow memory already counts against RLIMIT_DATA and RLIMIT_AS, so any
// finite limit would fail its next mapping; there the test plan leaves both where they are.
ConfinementPlan test_plan(int report_fd, std::initializer_list<int> more_fds) {
  ConfinementPlan plan;
  plan.keep_fds = {0, 1, 2, report_fd};
  plan.keep_fds.insert(plan.keep_fds.end(), more_fds);
  plan.data_limit_bytes = kUnderAddressSanitizer ? RLIM_INFINITY : (1ull << 30);
  plan.address_space_limit_bytes = kUnderAddressSanitizer ? RLIM_INFINITY : (64ull << 30);
  plan.cpu_limit_seconds = 30;
  return plan;
}

// The worker's order: capabilities go while the process has one thread, the rest later.
bool drop_then_confine(ChildChecks& checks, const ConfinementPlan& plan) {
  return checks.expect(drop_capabilities().ok(), "drop_failed") &&
         checks.expect(confine_worker(plan).ok(), "confine_failed");
}

// The bounding set can be emptied only by a process holding CAP_SETPCAP (root here).
bool may_empty_bounding_set() { return geteuid() == 0; }

// A thread the "worker" made before confinement, parked until destroyed, which joins it.
class ParkedThread {
 public:
  ParkedThread()
      : thread_([this] {
          std::unique_lock lock(mutex_);
          tid_ = static_cast<pid_t>(syscall(SYS_gettid));
          changed_.notify_all();
          changed_.wait(lock, [this] { return finish_; });
        }) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return tid_ != 0; });
  }
  ~ParkedThread() {
    {
      std::lock_guard lock(mutex_);
      finish_ = true;
      changed_.notify_all();
    }
    thread_.join();
  }
  pid_t tid() const { return tid_; }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  pid_t tid_ = 0;
  bool finish_ = false;
  std::thread thread_;
};

bool limits_show(std::string_view limits, std::string_view name, std::string_view soft_hard) {
  const std::size_t at = limits.find(name);
  if (at == std::string_view::npos) return false;
  const std::string_view line = limits.substr(at, limits.find('\n', at) - at);
  return line.find(soft_hard) != std::string_view::npos;
}

TEST(ConfinementTest, ConfineWorkerEngagesEveryLayerOnEveryThread) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    const int stray = open("/dev/null", O_RDONLY);
    const bool bounding_emptied = may_empty_bounding_set();  // geteuid is not allowed later
    if (!checks.expect(drop_capabilities().ok(), "drop_failed")) return 1;
    auto* existing = new ParkedThread;
    const int main_status = open_task_status(static_cast<pid_t>(syscall(SYS_gettid)));
    const int thread_status = open_task_status(existing->tid());
    const int limits = open("/proc/self/limits", O_RDONLY);
    checks.expect(stray >= 0 && main_status >= 0 && thread_status >= 0 && limits >= 0, "setup");
    const ConfinementPlan plan = test_plan(report_fd, {main_status, thread_status, limits});
    if (!checks.expect(confine_worker(plan).ok(), "confine_failed")) return 1;
    char byte = 0;
    checks.expect(read(stray, &byte, 1) == -1 && errno == EBADF, "stray_fd_open");
    char buffer[8192];
    for (int status_fd : {main_status, thread_status}) {
      const std::string_view status = read_once(status_fd, buffer);
      checks.expect(status_field_is(status, "Seccomp", "2"), "seccomp_not_on_every_thread");
      checks.expect(status_field_is(status, "NoNewPrivs", "1"), "no_new_privs_not_everywhere");
      for (std::string_view set : {"CapInh", "CapPrm", "CapEff", "CapAmb"}) {
        checks.expect(status_field_is(status, set, "0000000000000000"), set);
      }
      checks.expect(!bounding_emptied || status_field_is(status, "CapBnd", "0000000000000000"),
                    "CapBnd");
    }
    const std::string_view limit_text = read_once(limits, buffer);
    checks.expect(limits_show(limit_text, "Max file size", "0                    0"), "fsize");
    checks.expect(limits_show(limit_text, "Max cpu time", "30                   31"), "cpu");
    checks.expect(limits_show(limit_text, "Max open files", "16                   16"), "nofile");
    if (!kUnderAddressSanitizer) {
      checks.expect(
          limits_show(limit_text, "Max address space", "68719476736          68719476736"), "as");
    }
    // The thread ends and is joined under the filter. Not under ASan: its runtime makes calls
    // the filter denies when a thread ends (pipe2, sigaltstack), so there the thread stays
    // parked until exit_group.
    if (!kUnderAddressSanitizer) delete existing;
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(ConfinementTest, ConfinedWorkerIsKilledForOpeningAFile) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    if (!drop_then_confine(checks, test_plan(report_fd, {}))) return 1;
    checks.say("confined");
    open("/etc/localtime", O_RDONLY);
    checks.say(" survived");
    return 0;
  });
  EXPECT_TRUE(outcome.killed_by(SIGSYS)) << outcome.describe();
  EXPECT_EQ(outcome.report, "confined");
}

// RLIMIT_DATA counts only private writable mappings; a read-only or inaccessible one costs page
// tables but no data. RLIMIT_AS, sized as the worker sizes it (what was mapped, plus the data
// limit, plus room), refuses a reservation far beyond it, which RLIMIT_DATA alone would grant.
TEST(ConfinementTest, AddressSpaceLimitRefusesWhatTheDataLimitDoesNotCount) {
  if (kUnderAddressSanitizer) GTEST_SKIP() << "ASan's shadow makes both limits infinite here";
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    constexpr std::uint64_t kGiB = 1ull << 30;
    const std::optional<std::uint64_t> mapped = mapped_address_space_bytes();
    if (!checks.expect(mapped.has_value(), "mapped")) return 1;
    ConfinementPlan plan = test_plan(report_fd, {});
    plan.data_limit_bytes = 128ull << 20;
    plan.address_space_limit_bytes = *mapped + plan.data_limit_bytes + (512ull << 20);
    void* before = mmap(nullptr, 4 * kGiB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    checks.expect(before != MAP_FAILED, "reserve_before");  // RLIMIT_DATA alone lets it pass
    if (before != MAP_FAILED) munmap(before, 4 * kGiB);
    if (!drop_then_confine(checks, plan)) return 1;
    void* after = mmap(nullptr, 4 * kGiB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    checks.expect(after == MAP_FAILED && errno == ENOMEM, "reserve_after");
    void* small = mmap(nullptr, 64ull << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    checks.expect(small != MAP_FAILED, "room_left");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

// A worker that skipped the drop (capabilities held by a root process) is refused before the
// filter, so it never runs a program.
TEST(ConfinementTest, CapabilitiesStillHeldFailClosed) {
  if (geteuid() != 0) GTEST_SKIP() << "an unprivileged test process holds no capability";
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    const Status status = confine_worker(test_plan(report_fd, {}));
    checks.expect(!status.ok(), "accepted");
    if (status.ok()) return checks.exit_code();
    checks.expect(status.error().code == ErrorCode::kUnsupportedProfile, "code");
    checks.expect(status.error().rule == "capabilities", "rule");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(ConfinementTest, BadPlanFailsClosedWithUnsupportedProfile) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    ConfinementPlan plan = test_plan(report_fd, {});
    plan.cpu_limit_seconds = 0;
    checks.expect(drop_capabilities().ok(), "drop_failed");
    const Status status = confine_worker(plan);
    checks.expect(!status.ok(), "accepted");
    if (status.ok()) return checks.exit_code();
    checks.expect(status.error().code == ErrorCode::kUnsupportedProfile, "code");
    checks.expect(status.error().rule == "rlimit_cpu", "rule");
    checks.expect(status.error().message.find("rlimits") != std::string::npos, "message");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(ConfinementTest, DescriptionListsEveryLayerOnOneLine) {
  ConfinementPlan plan;
  plan.data_limit_bytes = 1u << 20;
  plan.address_space_limit_bytes = 1u << 30;
  plan.cpu_limit_seconds = 4;
  const std::string line = describe_confinement(plan);
  EXPECT_EQ(line.find('\n'), std::string::npos);
  for (std::string_view part :
       {"fds=keep:0,1,2", "data:1048576", "as:1073741824", "capabilities=none", "cpu:4/5",
        "nofile:16", "fsize:0", "core:0", "nproc:0", "memlock:0", "msgqueue:0", "no_new_privs",
        "not_dumpable", "pdeathsig:SIGKILL", "default:kill_process", "tsync", "exec_memory:none"}) {
    EXPECT_NE(line.find(part), std::string::npos) << part << " missing from: " << line;
  }
  plan.engine = EngineProfile::kJit;
  const std::string jit = describe_confinement(plan);
  EXPECT_NE(jit.find("exec_memory:w^x"), std::string::npos) << jit;
  EXPECT_EQ(jit.find("exec_memory:none"), std::string::npos) << jit;
}

}  // namespace
}  // namespace codemode::confine
