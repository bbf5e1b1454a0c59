// Runs a confinement check in a forked child, as Chromium's BPF_TEST does: confinement is
// irreversible, so it can only be tested in a process that is thrown away afterwards. The child
// reports through its exit status and a pipe, never through gtest assertions, whose failures
// would not reach the runner from inside a confined process.
#ifndef CODEMODE_TESTS_SANDBOX_CONFINE_CHILD_PROCESS_H_
#define CODEMODE_TESTS_SANDBOX_CONFINE_CHILD_PROCESS_H_

#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include <fcntl.h>
#include <sys/types.h>

namespace codemode::confine_testing {

// GCC and Clang define __SANITIZE_ADDRESS__ / have the feature under -fsanitize=address.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kUnderAddressSanitizer = true;
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif
#else
inline constexpr bool kUnderAddressSanitizer = false;
#endif

inline constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

// /proc/self/task/<tid>/status, opened read-only (-1 on failure): a thread's Seccomp and
// NoNewPrivs lines.
inline int open_task_status(pid_t tid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/self/task/%d/status", static_cast<int>(tid));
  return open(path, O_RDONLY | O_CLOEXEC);
}

struct ChildOutcome {
  int wait_status = 0;
  std::string report;  // everything the child (and any grandchild) wrote to the report fd

  bool exited_cleanly() const;  // exit status 0
  bool killed_by(int signal) const;
  std::string describe() const;  // "exit 1", "signal 31", ... plus the report, for messages
};

// Forks; the child runs `body(report_fd)` and ends with exit_group(its return value). The parent
// reads the report pipe to EOF, then reaps the child. The child gets SIGALRM after 20 s so a hang
// fails.
ChildOutcome run_in_child(const std::function<int(int report_fd)>& body);

// The child's side: collects failed checks by writing their names to the report fd, using only
// write(2), so it works under the seccomp filter, allocates nothing and respects any rlimit.
class ChildChecks {
 public:
  explicit ChildChecks(int report_fd) : report_fd_(report_fd) {}

  // Records `what` as failed unless `ok`. Returns `ok`.
  bool expect(bool ok, std::string_view what);
  // Writes `text` to the report fd unconditionally (for grandchildren reporting a result).
  void say(std::string_view text) const;
  int exit_code() const { return failed_ ? 1 : 0; }

 private:
  int report_fd_;
  bool failed_ = false;
};

// One read(2) of `fd` into `buffer` (a /proc status file is produced whole by the first read);
// empty on failure. Allocates nothing, so it works under the filter and a low RLIMIT_DATA.
std::string_view read_once(int fd, std::span<char> buffer);

// True when `status_text` (the contents of a /proc/<pid>/status file) has the line
// "<field>:\t<value>". Allocates nothing.
bool status_field_is(std::string_view status_text, std::string_view field, std::string_view value);

}  // namespace codemode::confine_testing

#endif  // CODEMODE_TESTS_SANDBOX_CONFINE_CHILD_PROCESS_H_
