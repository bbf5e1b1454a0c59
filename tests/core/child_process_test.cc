// ChildProcess and spawn_child (src/core/process/child_process.cc): the child gets only its three
// pipes, an empty (or the given) environment and default signals, whether posix_spawn or clone_exec
// starts it; the owner always kills and reaps; a child bound to its parent dies with the thread
// that started it.
#include "core/process/child_process.h"

#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/descendants.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/timing.h"

namespace codemode::internal {
namespace {

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

// ParentDeath::kKill starts the child with clone_exec instead of posix_spawn: the same start,
// checked here with both.
class SpawnModes : public ::testing::TestWithParam<SpawnOptions::ParentDeath> {
 protected:
  // `options` spawned in this test's mode, stdin closed; its stdout once it closed, and the exit.
  std::pair<std::string, std::optional<ExitStatus>> output_of(SpawnOptions options) {
    options.parent_death = GetParam();
    auto child = spawn_child(options);
    EXPECT_TRUE(child.ok());
    if (!child.ok()) return {};
    child->stdin_fd.reset();
    std::string out;
    while (read_some(child->stdout_fd.get(), 4096, out).status != IoStatus::kClosed) {
      usleep(1000);
    }
    std::optional<ExitStatus> status;
    while (!(status = child->process.try_reap())) usleep(1000);
    return {out, status};
  }
};

TEST_P(SpawnModes, GivesExactlyTheEnvironmentAsked) {
  EXPECT_EQ(output_of({.path = "/usr/bin/env", .argv = {"env"}, .env = {"ONLY=this"}}).first,
            "ONLY=this\n");
  EXPECT_EQ(output_of({.path = "/usr/bin/env", .argv = {"env"}}).first, "");
}

TEST_P(SpawnModes, InheritsNoFdButItsPipesEvenWithoutCloexec) {
  const int leaked = fcntl(0, F_DUPFD, 20);  // deliberately without FD_CLOEXEC
  ASSERT_GE(leaked, 20);
  const auto [out, status] = output_of(
      {.path = "/bin/sh", .argv = {"sh", "-c", "for f in /proc/$$/fd/*; do echo ${f##*/}; done"}});
  close(leaked);
  EXPECT_EQ(out, "0\n1\n2\n3\n");  // 3: the shell's glob reading the directory
}

TEST_P(SpawnModes, StartsWithDefaultSignalsNoneBlocked) {
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigset_t old;
  pthread_sigmask(SIG_BLOCK, &usr1, &old);
  auto previous = signal(SIGUSR2, SIG_IGN);
  const auto [out, status] = output_of(
      {.path = "/bin/grep", .argv = {"grep", "-E", "^Sig(Blk|Ign)", "/proc/self/status"}});
  signal(SIGUSR2, previous);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  // Signals 1..31 are at their defaults. glibc's posix_spawn leaves its two internal real-time
  // signals (32, 33) ignored in the child (clone_exec: at their defaults); the new program's libc
  // sets them up again.
  ASSERT_EQ(out.size(), 50u) << out;
  EXPECT_EQ(out.substr(0, 25), "SigBlk:\t0000000000000000\n");
  EXPECT_EQ(std::stoull(out.substr(33, 16), nullptr, 16) & 0x7fffffffu, 0u);
}

TEST_P(SpawnModes, DiscardsStderrAndRunsInTheDirectoryAsked) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  const auto [out, status] =
      output_of({.path = "/bin/sh",
                 .argv = {"sh", "-c", "pwd; readlink /proc/$$/fd/2; echo lost >&2"},
                 .stderr_mode = SpawnOptions::Stderr::kDiscard,
                 .cwd = dir.path().string()});
  EXPECT_EQ(out, dir.path().string() + "\n/dev/null\n");
  EXPECT_EQ(status->exit_code, 0);
}

TEST_P(SpawnModes, LeadsAGroupOfItsOwnOnlyWhenAsked) {
  auto shared =
      spawn_child({.path = "/bin/sleep", .argv = {"sleep", "100"}, .parent_death = GetParam()});
  auto own = spawn_child({.path = "/bin/sleep",
                          .argv = {"sleep", "100"},
                          .group = ChildProcess::Group::kOwn,
                          .parent_death = GetParam()});
  ASSERT_TRUE(shared.ok());
  ASSERT_TRUE(own.ok());
  EXPECT_EQ(getpgid(shared->process.pid()), getpgrp());
  EXPECT_EQ(getpgid(own->process.pid()), own->process.pid());
}

TEST_P(SpawnModes, WorksWhenTheHostClosedItsStdin) {
  const int saved = dup(0);
  ASSERT_GE(saved, 0);
  close(0);  // the next pipe end would land on fd 0
  const auto [out, status] = output_of({.path = "/bin/echo", .argv = {"echo", "through"}});
  dup2(saved, 0);
  close(saved);
  EXPECT_EQ(out, "through\n");
}

TEST_P(SpawnModes, FailureToExecuteLeavesNoChildAndNoFd) {
  const std::size_t fds = testing::open_fd_count();
  auto child = spawn_child(
      {.path = "/nonexistent/program", .argv = {"program"}, .parent_death = GetParam()});
  ASSERT_FALSE(child.ok());
  EXPECT_EQ(child.error().code, ErrorCode::kToolFailed);
  EXPECT_EQ(child.error().rule, "spawn_failed");
  EXPECT_EQ(testing::open_fd_count(), fds);
  EXPECT_TRUE(testing::child_pids().empty());
}

INSTANTIATE_TEST_SUITE_P(ParentDeath, SpawnModes,
                         ::testing::Values(SpawnOptions::ParentDeath::kIgnore,
                                           SpawnOptions::ParentDeath::kKill),
                         [](const auto& info) {
                           return info.param == SpawnOptions::ParentDeath::kKill ? "Kill"
                                                                                 : "Ignore";
                         });

// PR_SET_PDEATHSIG follows the thread that started the child, not the process: a bound child
// started by a thread that then ends is killed, an unbound one lives on. (So callers wait for a
// bound child on the thread that started it, as run_command does.)
TEST(SpawnChild, ABoundChildDiesWithTheThreadThatStartedIt) {
  for (const auto mode : {SpawnOptions::ParentDeath::kIgnore, SpawnOptions::ParentDeath::kKill}) {
    std::optional<SpawnedChild> child;
    std::thread([&] {
      auto spawned =
          spawn_child({.path = "/bin/sleep", .argv = {"sleep", "100"}, .parent_death = mode});
      if (spawned.ok()) child.emplace(std::move(*spawned));
    }).join();
    ASSERT_TRUE(child.has_value());
    if (mode == SpawnOptions::ParentDeath::kIgnore) {
      usleep(100'000);
      EXPECT_FALSE(child->process.try_reap().has_value()) << "an unbound child was killed";
      continue;  // its owner kills and reaps it
    }
    std::optional<ExitStatus> status;
    const auto deadline =
        std::chrono::steady_clock::now() + testing::slack(std::chrono::seconds(5));
    while (!(status = child->process.try_reap()) && std::chrono::steady_clock::now() < deadline) {
      usleep(1000);
    }
    ASSERT_TRUE(status.has_value()) << "the bound child outlived the thread that started it";
    EXPECT_EQ(status->signal, SIGKILL);
  }
}

}  // namespace
}  // namespace codemode::internal
