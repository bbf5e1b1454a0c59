// ChildProcess and spawn_child (src/core/child_process.cc): the child gets only its three pipes,
// an empty (or the given) environment and default signals; the owner always kills and reaps.
#include "core/child_process.h"

#include <string>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/descendants.h"
#include "support/process_support.h"
#include "support/timing.h"

namespace codemode::internal {
namespace {

using testing::run_process;

TEST(SpawnChild, GivesAnEmptyEnvironmentByDefault) {
  EXPECT_EQ(run_process({"/usr/bin/env"}, "").out, "");
}

TEST(SpawnChild, GivesExactlyTheEnvironmentAsked) {
  auto child = spawn_child({.path = "/usr/bin/env", .argv = {"env"}, .env = {"ONLY=this"}});
  ASSERT_TRUE(child.ok());
  std::string out;
  while (read_some(child->stdout_fd.get(), 4096, out).status != IoStatus::kClosed) {
    usleep(1000);
  }
  EXPECT_EQ(out, "ONLY=this\n");
}

TEST(SpawnChild, InheritsNoFdButItsPipesEvenWithoutCloexec) {
  const int leaked = fcntl(0, F_DUPFD, 20);  // deliberately without FD_CLOEXEC
  ASSERT_GE(leaked, 20);
  const auto run =
      run_process({"/bin/sh", "-c", "for f in /proc/$$/fd/*; do echo ${f##*/}; done"}, "");
  close(leaked);
  // 3 is the directory the shell's glob itself opens to list the fds.
  EXPECT_EQ(run.out, "0\n1\n2\n3\n");
}

TEST(SpawnChild, StartsWithDefaultSignalsNoneBlocked) {
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigset_t old;
  pthread_sigmask(SIG_BLOCK, &usr1, &old);
  auto previous = signal(SIGUSR2, SIG_IGN);
  const auto run = run_process({"/bin/grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"}, "");
  signal(SIGUSR2, previous);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  // Signals 1..31 are at their defaults. glibc's posix_spawn leaves its two internal real-time
  // signals (32, 33) ignored in the child; the new program's libc sets them up again.
  ASSERT_EQ(run.out.size(), 50u) << run.out;
  EXPECT_EQ(run.out.substr(0, 25), "SigBlk:\t0000000000000000\n");
  const std::uint64_t ignored = std::stoull(run.out.substr(33, 16), nullptr, 16);
  EXPECT_EQ(ignored & 0x7fffffffu, 0u);
}

TEST(SpawnChild, WorksWhenTheHostClosedItsStdin) {
  const int saved = dup(0);
  ASSERT_GE(saved, 0);
  close(0);  // the next pipe end would land on fd 0
  const auto run = run_process({"/bin/cat"}, "through the pipe");
  dup2(saved, 0);
  close(saved);
  EXPECT_EQ(run.out, "through the pipe");
}

TEST(SpawnChild, FailureToExecuteLeavesNoChildAndNoFd) {
  const std::size_t fds = testing::open_fd_count();
  auto child = spawn_child({.path = "/nonexistent/program", .argv = {"program"}});
  ASSERT_FALSE(child.ok());
  EXPECT_EQ(child.error().code, ErrorCode::kToolFailed);
  EXPECT_EQ(child.error().rule, "spawn_failed");
  EXPECT_EQ(testing::open_fd_count(), fds);
  EXPECT_TRUE(testing::child_pids().empty());
}

TEST(ChildProcess, DestructorKillsAndReaps) {
  pid_t pid = -1;
  {
    auto child = spawn_child({.path = "/bin/sleep", .argv = {"sleep", "100"}});
    ASSERT_TRUE(child.ok());
    pid = child->process.pid();
    EXPECT_TRUE(testing::is_unreaped_child(pid));
  }
  EXPECT_FALSE(testing::is_unreaped_child(pid));  // neither running nor a zombie
  EXPECT_TRUE(testing::child_pids().empty());
}

TEST(ChildProcess, ReportsExitCodeAndSignal) {
  auto exits = spawn_child({.path = "/bin/sh", .argv = {"sh", "-c", "exit 3"}});
  ASSERT_TRUE(exits.ok());
  std::optional<ExitStatus> status;
  while (!(status = exits->process.try_reap())) usleep(1000);
  EXPECT_EQ(status->exit_code, 3);
  EXPECT_FALSE(status->signal.has_value());

  auto killed = spawn_child({.path = "/bin/sh", .argv = {"sh", "-c", "kill -SYS $$"}});
  ASSERT_TRUE(killed.ok());
  while (!(status = killed->process.try_reap())) usleep(1000);
  EXPECT_EQ(status->signal, SIGSYS);
  EXPECT_FALSE(status->exit_code.has_value());
}

TEST(ChildProcess, KillAndReapIsIdempotent) {
  auto child = spawn_child({.path = "/bin/sleep", .argv = {"sleep", "100"}});
  ASSERT_TRUE(child.ok());
  std::optional<ExitStatus> first = child->process.kill_and_reap();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->signal, SIGKILL);
  EXPECT_FALSE(child->process.owned());
  EXPECT_FALSE(child->process.kill_and_reap().has_value());
}

TEST(ChildProcess, MoveTransfersOwnership) {
  auto child = spawn_child({.path = "/bin/sleep", .argv = {"sleep", "100"}});
  ASSERT_TRUE(child.ok());
  const pid_t pid = child->process.pid();
  ChildProcess moved = std::move(child->process);
  EXPECT_FALSE(child->process.owned());
  EXPECT_EQ(moved.pid(), pid);
  EXPECT_TRUE(testing::is_unreaped_child(pid));
  moved.kill_and_reap();
  EXPECT_FALSE(testing::is_unreaped_child(pid));
}

TEST(SpawnChild, LeadsAGroupOfItsOwnOnlyWhenAsked) {
  auto shared = spawn_child({.path = "/bin/sleep", .argv = {"sleep", "100"}});
  auto own = spawn_child(
      {.path = "/bin/sleep", .argv = {"sleep", "100"}, .group = ChildProcess::Group::kOwn});
  ASSERT_TRUE(shared.ok());
  ASSERT_TRUE(own.ok());
  EXPECT_EQ(getpgid(shared->process.pid()), getpgrp());
  EXPECT_EQ(getpgid(own->process.pid()), own->process.pid());
}

// sh as a group leader that starts two background sleeps (recorded in `record`), then `tail`.
Result<SpawnedChild> spawn_leader(const std::string& record, const std::string& tail) {
  std::string script;
  for (int i = 0; i < 2; ++i) {
    script += std::string("/bin/sleep 300 >/dev/null & ") + testing::kRecordLastJob + "; ";
  }
  return spawn_child({.path = "/bin/sh",
                      .argv = {"sh", "-c", script + tail, record},
                      .group = ChildProcess::Group::kOwn});
}

TEST(ChildProcess, KillAndReapEndsTheWholeGroup) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  auto child = spawn_leader(dir.file("jobs"), "wait");
  ASSERT_TRUE(child.ok());
  const auto jobs =
      testing::wait_for_recorded(dir.file("jobs"), 2, testing::slack(std::chrono::seconds(5)));
  EXPECT_EQ(child->process.kill_and_reap()->signal, SIGKILL);
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(std::chrono::seconds(5))));
  EXPECT_EQ(jobs.size(), 2u);
}

TEST(ChildProcess, ReapingALeaderThatExitedEndsWhatItLeft) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  auto child = spawn_leader(dir.file("jobs"), "exit 0");
  ASSERT_TRUE(child.ok());
  std::optional<ExitStatus> status;
  while (!(status = child->process.try_reap())) usleep(1000);
  EXPECT_EQ(status->exit_code, 0);  // the leader's own status, not the kill's
  const auto jobs = testing::recorded_processes(dir.file("jobs"));
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(std::chrono::seconds(5))));
  EXPECT_EQ(jobs.size(), 2u);
}

TEST(ChildProcess, MoveKeepsTheGroup) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  auto child = spawn_leader(dir.file("jobs"), "wait");
  ASSERT_TRUE(child.ok());
  const auto jobs =
      testing::wait_for_recorded(dir.file("jobs"), 2, testing::slack(std::chrono::seconds(5)));
  ChildProcess(std::move(child->process)).kill_and_reap();  // the moved-to owner ends the group
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(std::chrono::seconds(5))));
  EXPECT_EQ(jobs.size(), 2u);
}

}  // namespace
}  // namespace codemode::internal
