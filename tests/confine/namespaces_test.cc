// The isolated profile's child side (src/confine/namespaces.h): in a forked child that
// enters a new user and mount namespace, enter_empty_root leaves an empty root without /proc, a
// hard RLIMIT_NOFILE of 64 and only fds 0-2, which the fds layer then proves by probing; and
// check_isolation refuses a process that is not pid 1.
#include "confine/namespaces.h"

#include <string>
#include <string_view>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"
#include "confine/fds.h"

namespace codemode::confine {
namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::run_in_child;

constexpr int kRefusedByKernel = 77;

bool write_text(const char* path, const std::string& text) {
  const int fd = open(path, O_WRONLY | O_CLOEXEC);
  const bool written =
      fd >= 0 && write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  if (fd >= 0) close(fd);
  return written;
}

// A user namespace (root inside, this uid outside) and a mount namespace, as the library's clone
// would give the worker; false if the kernel refuses them.
bool enter_user_and_mount_namespaces(uid_t uid, gid_t gid) {
  return unshare(CLONE_NEWUSER | CLONE_NEWNS) == 0 &&
         write_text("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1\n") &&
         write_text("/proc/self/setgroups", "deny") &&
         write_text("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1\n");
}

bool root_is_empty() {
  DIR* root = opendir("/");
  if (!root) return false;
  int entries = 0;
  while (const dirent* entry = readdir(root)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") ++entries;
  }
  closedir(root);
  return entries == 0;
}

TEST(NamespacesTest, EmptyRootLeavesNoFileNoProcAndOnlyStdioWhichTheFdsLayerProves) {
  const uid_t uid = geteuid();
  const gid_t gid = getegid();
  const ChildOutcome outcome = run_in_child([uid, gid](int report_fd) {
    // enter_empty_root closes everything but 0-2, so the report goes through fd 2.
    if (dup2(report_fd, 2) != 2) return 1;
    ChildChecks checks(2);
    const int spare = open("/dev/null", O_RDONLY);  // must be closed by enter_empty_root
    if (!enter_user_and_mount_namespaces(uid, gid)) return kRefusedByKernel;
    checks.expect(enter_empty_root().ok(), "enter_empty_root");
    checks.expect(root_is_empty(), "root_not_empty");
    checks.expect(access("/proc/self", F_OK) != 0 && access("/etc/passwd", F_OK) != 0,
                  "host_files_visible");
    checks.expect(fcntl(spare, F_GETFD) == -1, "spare_fd_open");
    rlimit files{};
    checks.expect(getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_max == kEmptyRootMaxFds,
                  "nofile_not_lowered");
    Result<std::vector<int>> open_fds = list_open_fds();  // no /proc: probed
    checks.expect(open_fds.ok() && open_fds->size() <= 3, "fds_not_proven");
    checks.expect(close_other_fds(std::vector<int>{0, 1, 2}).ok(), "fds_layer_failed");
    checks.expect(check_isolation().error().rule == "namespaces_pid", "not_pid_one_accepted");
    return checks.exit_code();
  });
  if (!outcome.exited_cleanly() && WIFEXITED(outcome.wait_status) &&
      WEXITSTATUS(outcome.wait_status) == kRefusedByKernel) {
    GTEST_SKIP() << "this kernel refuses unprivileged user and mount namespaces.";
  }
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(NamespacesTest, CheckIsolationRefusesAProcessThatIsNotPidOne) {
  const Status checked = check_isolation();
  ASSERT_FALSE(checked.ok());
  EXPECT_EQ(checked.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(checked.error().rule, "namespaces_pid");
}

}  // namespace
}  // namespace codemode::confine
