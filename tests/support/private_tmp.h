// Runs the current test again, alone, in a child process whose /tmp and /dev/shm are fresh tmpfs
// mounts that no other process sees: the way for a test to check that nothing was left in those
// directories while other tests (and builds) write there at the same time.
//
// The child is forked while this process may have many threads, and only async-signal-safe system
// calls run between the fork and the exec. Being single-threaded there, it enters a new mount
// namespace as a whole (unshare(CLONE_NEWNS) applies to the calling thread only, so doing it in a
// test process that already has threads would leave them, and what they start, outside it), makes
// every mount private, mounts the two tmpfs and execs this test binary filtered to the current
// test, with kPrivateTmpVariable set. Every thread and process the test starts then sees only the
// private directories. With CAP_SYS_ADMIN (root, as in CI) the mount namespace alone is made;
// otherwise a user namespace that maps this uid and gid to themselves comes with it. When neither
// can be made, the result says why, and the caller reports that its file check did not run (a
// skip) rather than watching the shared directories.
#ifndef CODEMODE_TESTS_SUPPORT_PRIVATE_TMP_H_
#define CODEMODE_TESTS_SUPPORT_PRIVATE_TMP_H_

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

extern char** environ;

namespace codemode::testing {

// Set in the child's environment to this process's mount namespace ("mnt:[...]"), which the
// child's must differ from.
inline constexpr char kPrivateTmpVariable[] = "CODEMODE_TEST_PRIVATE_TMP_PARENT_NS";

inline std::string mount_namespace_of_self() {
  std::error_code error;
  return std::filesystem::read_symlink("/proc/self/ns/mnt", error).string();
}

// Whether this process is a child that run_current_test_in_private_tmp started: the variable is
// set and this process's mount namespace is not the one it names.
inline bool in_private_tmp() {
  const char* parent = std::getenv(kPrivateTmpVariable);
  if (parent == nullptr) return false;
  const std::string own = mount_namespace_of_self();
  return !own.empty() && own != parent;
}

struct PrivateTmpRun {
  std::string unavailable;  // why no private /tmp could be made; empty when the child ran
  std::optional<int> exit_code;
  int signal = 0;
  std::string output;  // the child's stdout and stderr
  // The child ran exactly this test, which passed (not skipped).
  bool passed() const {
    return unavailable.empty() && exit_code == 0 &&
           output.find("[  PASSED  ] 1 test.") != std::string::npos &&
           output.find("[  SKIPPED ]") == std::string::npos;
  }
};

namespace private_tmp_internal {

// What failed in the child before its exec, sent back over a close-on-exec pipe: the step (an
// index into kSteps), its errno, and the errno of the plain unshare(CLONE_NEWNS) tried first.
struct ChildFailure {
  int step;
  int error;
  int mount_namespace_error;
};

inline constexpr std::array<const char*, 9> kSteps = {
    "unshare(CLONE_NEWUSER | CLONE_NEWNS)", "writing /proc/self/setgroups",
    "writing /proc/self/uid_map",           "writing /proc/self/gid_map",
    "making every mount private",           "mounting a tmpfs on /tmp",
    "mounting a tmpfs on /dev/shm",         "execve of this test binary",
    "redirecting the child's output",
};

// Async-signal-safe: open, write, close.
inline bool write_file(const char* path, const char* text, std::size_t size) {
  const int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool written = write(fd, text, size) == static_cast<ssize_t>(size);
  close(fd);
  return written;
}

}  // namespace private_tmp_internal

// Forks, makes the private /tmp and /dev/shm in the child and runs the current test there; waits
// for it, collecting its output.
inline PrivateTmpRun run_current_test_in_private_tmp() {
  namespace internal = private_tmp_internal;
  PrivateTmpRun run;
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string parent_namespace = mount_namespace_of_self();
  if (test == nullptr || parent_namespace.empty()) {
    run.unavailable = "this process's mount namespace cannot be read";
    return run;
  }

  // Everything the child needs is made before the fork.
  std::vector<std::string> arguments = {
      "/proc/self/exe",
      std::string("--gtest_filter=") + test->test_suite_name() + "." + test->name(),
      "--gtest_color=no", "--gtest_brief=0"};
  std::vector<std::string> environment;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string_view text = *entry;
    const std::string_view name = text.substr(0, text.find('='));
    // The child runs this one test, whole: no sharding, no report of its own over the parent's.
    if (name == kPrivateTmpVariable || name == "GTEST_SHARD_INDEX" ||
        name == "GTEST_TOTAL_SHARDS" || name == "GTEST_OUTPUT" || name == "GTEST_FILTER") {
      continue;
    }
    environment.emplace_back(text);
  }
  environment.push_back(std::string(kPrivateTmpVariable) + "=" + parent_namespace);
  std::vector<char*> argv;
  for (std::string& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (std::string& entry : environment) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const std::string uid_map = std::to_string(getuid()) + " " + std::to_string(getuid()) + " 1";
  const std::string gid_map = std::to_string(getgid()) + " " + std::to_string(getgid()) + " 1";

  int output[2];
  int failures[2];
  if (pipe2(output, O_CLOEXEC) != 0) {
    run.unavailable = std::string("pipe2: ") + std::strerror(errno);
    return run;
  }
  if (pipe2(failures, O_CLOEXEC) != 0) {
    run.unavailable = std::string("pipe2: ") + std::strerror(errno);
    close(output[0]);
    close(output[1]);
    return run;
  }
  const pid_t child = fork();
  if (child == 0) {
    // The child: async-signal-safe system calls only, until the exec.
    int mount_namespace_error = 0;
    const auto fail = [&](int step) {
      const internal::ChildFailure failure{step, errno, mount_namespace_error};
      (void)!write(failures[1], &failure, sizeof failure);
      _exit(127);
    };
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // ends with the test that waits for it
    if (dup2(output[1], STDOUT_FILENO) < 0 || dup2(output[1], STDERR_FILENO) < 0) fail(8);
    if (unshare(CLONE_NEWNS) != 0) {  // needs CAP_SYS_ADMIN; else a user namespace gives it
      mount_namespace_error = errno;
      if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) fail(0);
      if (!internal::write_file("/proc/self/setgroups", "deny", 4)) fail(1);
      if (!internal::write_file("/proc/self/uid_map", uid_map.data(), uid_map.size())) fail(2);
      if (!internal::write_file("/proc/self/gid_map", gid_map.data(), gid_map.size())) fail(3);
    }
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) fail(4);
    if (mount("codemode-test-tmp", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0) {
      fail(5);
    }
    if (mount("codemode-test-shm", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0) {
      fail(6);
    }
    execve(argv[0], argv.data(), envp.data());
    fail(7);
  }
  close(output[1]);
  close(failures[1]);
  if (child < 0) {
    run.unavailable = std::string("fork: ") + std::strerror(errno);
    close(output[0]);
    close(failures[0]);
    return run;
  }

  // Reads until the output ends, or the child has ended and what is left is drained (a process
  // the child left behind could hold the pipe open; the test itself checks there is none).
  std::optional<int> status;
  std::array<char, 1 << 16> buffer;
  for (;;) {
    pollfd ready{output[0], POLLIN, 0};
    const int polled = poll(&ready, 1, 100);
    if (polled > 0) {
      const ssize_t got = read(output[0], buffer.data(), buffer.size());
      if (got > 0) {
        run.output.append(buffer.data(), static_cast<std::size_t>(got));
        continue;
      }
      if (got == 0 || errno != EINTR) break;
    }
    int raw = 0;
    if (!status && waitpid(child, &raw, WNOHANG) == child) {
      status = raw;
      const int flags = fcntl(output[0], F_GETFL);
      fcntl(output[0], F_SETFL, flags | O_NONBLOCK);  // drain, then stop
    } else if (status && polled == 0) {
      break;
    }
  }
  close(output[0]);
  if (!status) {
    int raw = 0;
    while (waitpid(child, &raw, 0) < 0 && errno == EINTR) {
    }
    status = raw;
  }
  internal::ChildFailure failure{};
  const ssize_t reported = read(failures[0], &failure, sizeof failure);
  close(failures[0]);
  if (reported == static_cast<ssize_t>(sizeof failure)) {
    const std::size_t step = static_cast<std::size_t>(failure.step) < internal::kSteps.size()
                                 ? static_cast<std::size_t>(failure.step)
                                 : 7;
    run.unavailable = "running as uid " + std::to_string(getuid()) + ": ";
    if (failure.mount_namespace_error != 0) {
      run.unavailable += std::string("unshare(CLONE_NEWNS) failed (") +
                         std::strerror(failure.mount_namespace_error) + "), then ";
    }
    run.unavailable += std::string(internal::kSteps[step]) + " failed (" +
                       std::strerror(failure.error) +
                       "); a private /tmp needs CAP_SYS_ADMIN, or user namespaces open to this "
                       "user";
    return run;
  }
  if (WIFEXITED(*status)) run.exit_code = WEXITSTATUS(*status);
  if (WIFSIGNALED(*status)) run.signal = WTERMSIG(*status);
  return run;
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_PRIVATE_TMP_H_
