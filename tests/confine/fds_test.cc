// The fd layer: every fd but the kept ones is closed, by close_range and by the listing fallback.
#include "confine/fds.h"

#include <algorithm>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"

namespace codemode::confine {
namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::run_in_child;

bool is_open(int fd) { return fcntl(fd, F_GETFD) != -1; }

enum class CloseMethod { kCloseRange, kListing };

Status close_with(CloseMethod method, std::span<const int> keep) {
  return method == CloseMethod::kCloseRange ? close_other_fds(keep)
                                            : close_other_fds_by_listing(keep);
}

// Opens a spread of fds (a pipe, /dev/null, one far above the rest), keeps 0, 2 and the report
// fd (so 1 is a gap), and checks exactly the kept ones survive.
int close_all_but_kept(CloseMethod method, int report_fd) {
  ChildChecks checks(report_fd);
  int extra_pipe[2];
  checks.expect(pipe(extra_pipe) == 0, "pipe");
  const int dev_null = open("/dev/null", O_RDONLY);
  const int high = dup2(dev_null, 200);
  checks.expect(dev_null >= 0 && high == 200, "setup");
  const int keep[] = {report_fd, 2, 0, 0};  // unsorted, with a duplicate
  checks.expect(close_with(method, keep).ok(), "close_failed");
  for (int fd : {1, extra_pipe[0], extra_pipe[1], dev_null, high}) {
    checks.expect(!is_open(fd), "an_unkept_fd_is_open");
  }
  checks.expect(is_open(0) && is_open(2) && is_open(report_fd), "a_kept_fd_was_closed");
  Result<std::vector<int>> listed = list_open_fds();
  checks.expect(
      listed.ok() && std::all_of(listed->begin(), listed->end(),
                                 [&](int fd) { return fd == 0 || fd == 2 || fd == report_fd; }),
      "listing_shows_an_unkept_fd");
  return checks.exit_code();
}

TEST(FdsTest, CloseRangeClosesEveryFdNotKept) {
  const ChildOutcome outcome = run_in_child(
      [](int report_fd) { return close_all_but_kept(CloseMethod::kCloseRange, report_fd); });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(FdsTest, ListingFallbackClosesEveryFdNotKept) {
  const ChildOutcome outcome = run_in_child(
      [](int report_fd) { return close_all_but_kept(CloseMethod::kListing, report_fd); });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(FdsTest, KeptFdsStayUsable) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    const int keep[] = {report_fd};
    checks.expect(close_other_fds(keep).ok(), "close_failed");
    checks.say("still_writable");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
  EXPECT_EQ(outcome.report, "still_writable");
}

TEST(FdsTest, ListingExcludesItsOwnDirectoryFd) {
  Result<std::vector<int>> before = list_open_fds();
  ASSERT_TRUE(before.ok());
  Result<std::vector<int>> again = list_open_fds();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*before, *again);
  for (int fd : *before) EXPECT_TRUE(is_open(fd)) << fd;
}

}  // namespace
}  // namespace codemode::confine
