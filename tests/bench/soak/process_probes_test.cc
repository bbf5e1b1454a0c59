// The probes see what they must count as leaks: a new fd, a zombie child.
#include "soak/process_probes.h"

#include <algorithm>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace codemode::soak {
namespace {

bool contains(const std::vector<pid_t>& pids, pid_t pid) {
  return std::find(pids.begin(), pids.end(), pid) != pids.end();
}

TEST(SoakProcessProbes, ResidentMemoryIsReadable) {
  const std::optional<std::size_t> kib = resident_kib();
  ASSERT_TRUE(kib.has_value());
  EXPECT_GT(*kib, 0u);
}

TEST(SoakProcessProbes, OpenFdCountSeesOneMoreFd) {
  const std::size_t before = open_fd_count();
  const int fd = dup(STDERR_FILENO);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(open_fd_count(), before + 1);
  close(fd);
  EXPECT_EQ(open_fd_count(), before);
}

TEST(SoakProcessProbes, AZombieChildCountsUntilReaped) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) _exit(0);
  // Wait until it has exited without reaping it: it stays a zombie, still our child.
  siginfo_t info{};
  ASSERT_EQ(waitid(P_PID, child, &info, WEXITED | WNOWAIT), 0);
  EXPECT_TRUE(contains(child_processes(), child));
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  EXPECT_FALSE(contains(child_processes(), child));
}

}  // namespace
}  // namespace codemode::soak
