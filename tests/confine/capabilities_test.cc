// The capabilities layer in a forked child: a root process ends with every set empty, bounding and
// ambient included, on its own thread and on a thread started afterwards; the check refuses a
// process that still holds a capability. Run as root (CI is), these show the drop; run
// unprivileged, they show it changes nothing that was not already empty.
#include "confine/capabilities.h"

#include <cstdio>
#include <string_view>
#include <thread>

#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"

namespace codemode::confine {
namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::read_once;
using confine_testing::run_in_child;
using confine_testing::status_field_is;

constexpr std::string_view kNone = "0000000000000000";

void expect_no_capability(ChildChecks& checks, pid_t tid, bool bounding_too) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/status", static_cast<int>(tid));
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  char buffer[8192];
  const std::string_view status = read_once(fd, buffer);
  close(fd);
  for (std::string_view set : {"CapInh", "CapPrm", "CapEff", "CapAmb"}) {
    checks.expect(status_field_is(status, set, kNone), set);
  }
  if (bounding_too) checks.expect(status_field_is(status, "CapBnd", kNone), "CapBnd");
}

pid_t own_tid() { return static_cast<pid_t>(syscall(SYS_gettid)); }

TEST(CapabilitiesTest, DropEmptiesEverySetAndThreadsStartedAfterInheritIt) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    const bool root = geteuid() == 0;
    if (!checks.expect(drop_capabilities().ok(), "drop_failed")) return 1;
    expect_no_capability(checks, own_tid(), root);
    std::thread later([&checks, root] { expect_no_capability(checks, own_tid(), root); });
    later.join();
    checks.expect(check_capabilities_dropped().ok(), "check_failed");
    // Dropped for good: the drop is idempotent, and nothing can be raised again.
    checks.expect(drop_capabilities().ok(), "second_drop_failed");
    checks.expect(setuid(0) == 0 || !root, "setuid_to_self");
    expect_no_capability(checks, own_tid(), root);
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

// The fork server's part: the bounding set goes, the effective set stays (the isolated profile's
// clone needs it), and a process forked afterwards starts with the empty bounding set and still
// drops the rest itself.
TEST(CapabilitiesTest, BoundingSetDropKeepsTheEffectiveSetAndIsInherited) {
  if (geteuid() != 0) GTEST_SKIP() << "an unprivileged process cannot change its bounding set";
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    if (!checks.expect(drop_bounding_set().ok(), "bounding_drop_failed")) return 1;
    char buffer[8192];
    const int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    const std::string_view status = read_once(fd, buffer);
    close(fd);
    checks.expect(status_field_is(status, "CapBnd", kNone), "CapBnd");
    checks.expect(!status_field_is(status, "CapEff", kNone), "CapEff_kept");
    checks.expect(!check_capabilities_dropped().ok(), "check_passed_too_early");
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      ChildChecks inner(report_fd);
      if (!inner.expect(drop_capabilities().ok(), "child_drop_failed")) _exit(1);
      expect_no_capability(inner, own_tid(), true);
      _exit(inner.exit_code());
    }
    int wait_status = 0;
    checks.expect(waitpid(grandchild, &wait_status, 0) == grandchild && WIFEXITED(wait_status) &&
                      WEXITSTATUS(wait_status) == 0,
                  "child_failed");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(CapabilitiesTest, CheckRefusesAProcessThatStillHoldsOne) {
  if (geteuid() != 0) GTEST_SKIP() << "an unprivileged test process holds no capability";
  const Status status = check_capabilities_dropped();  // this test process: root, undropped
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(status.error().rule, "capabilities");
  EXPECT_NE(status.error().message.find("capabilities"), std::string::npos);
}

}  // namespace
}  // namespace codemode::confine
