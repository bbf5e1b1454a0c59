// The process-attribute layer: no_new_privs, not dumpable, no READ_IMPLIES_EXEC, and a
// parent-death signal that really fires, with the parent-death race detected.
#include "confine/process_attributes.h"

#include <csignal>

#include <sys/personality.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"

namespace codemode::confine {
namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::run_in_child;

constexpr unsigned long kQueryPersonality = 0xffffffff;

TEST(ProcessAttributesTest, SetsNoNewPrivsNotDumpableAndParentDeathSignal) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    checks.expect(apply_process_attributes(getppid()).ok(), "apply_failed");
    checks.expect(prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1, "no_new_privs");
    checks.expect(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0) == 0, "not_dumpable");
    int signal = 0;
    checks.expect(prctl(PR_GET_PDEATHSIG, &signal, 0, 0, 0) == 0 && signal == SIGKILL,
                  "parent_death_signal");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(ProcessAttributesTest, ClearsReadImpliesExec) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    const int persona = personality(kQueryPersonality);
    checks.expect(personality(static_cast<unsigned long>(persona) | READ_IMPLIES_EXEC) != -1 &&
                      (personality(kQueryPersonality) & READ_IMPLIES_EXEC) != 0,
                  "setup");
    checks.expect(apply_process_attributes(getppid()).ok(), "apply_failed");
    checks.expect((personality(kQueryPersonality) & READ_IMPLIES_EXEC) == 0, "read_implies_exec");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

// The race the getppid() check exists for: the parent dies before the signal is armed, the
// worker is reparented, and no signal will ever come.
TEST(ProcessAttributesTest, ParentThatDiedBeforeArmingIsReportedAsParentDied) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    const pid_t original_parent = getpid();
    if (fork() == 0) {
      ChildChecks checks(report_fd);
      while (getppid() == original_parent) usleep(1000);
      const Status status = apply_process_attributes(original_parent);
      checks.say(status.ok() ? "ok" : status.error().rule);
      _exit(0);
    }
    return 0;  // the parent of the grandchild exits at once
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
  EXPECT_EQ(outcome.report, "parent_died");
}

// The grandchild arms the signal, tells its parent, and would report "survived" 5 s after its
// parent exits; SIGKILL must come first, closing the report pipe with "armed" alone in it.
TEST(ProcessAttributesTest, ParentDeathKillsTheConfinedProcess) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    int armed[2];
    if (pipe(armed) != 0) return 2;
    if (fork() == 0) {
      ChildChecks checks(report_fd);
      const bool ok = apply_process_attributes(getppid()).ok();
      checks.say(ok ? "armed" : "apply_failed");
      [[maybe_unused]] const ssize_t sent = write(armed[1], "x", 1);
      sleep(5);
      checks.say(" survived");
      _exit(0);
    }
    char byte = 0;
    return read(armed[0], &byte, 1) == 1 ? 0 : 3;
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
  EXPECT_EQ(outcome.report, "armed");
}

TEST(ProcessAttributesTest, WrongExpectedParentIsUnsupportedProfile) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    const Status status = apply_process_attributes(-1);
    checks.expect(!status.ok() && status.error().code == ErrorCode::kUnsupportedProfile &&
                      status.error().rule == "parent_died",
                  "not_reported");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

}  // namespace
}  // namespace codemode::confine
