// The fork-and-report harness for the confinement tests (see child_process.h).
#include "confine/child_process.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>

#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace codemode::confine_testing {
namespace {

constexpr unsigned kChildAlarmSeconds = 20;

std::string read_to_eof(int fd) {
  std::string out;
  char buffer[512];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n > 0) {
      out.append(buffer, static_cast<std::size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      return out;
    }
  }
}

int reap(pid_t child) {
  int status = 0;
  while (waitpid(child, &status, 0) == -1 && errno == EINTR) {
  }
  return status;
}

// exit_group(2) itself, and deliberately not declared noreturn: ASan instruments every call to a
// noreturn function (_exit included) with __asan_handle_no_return, which calls sigaltstack(2), a
// call the filter under test denies.
void end_child(int code) {
  for (;;) syscall(SYS_exit_group, code);
}

}  // namespace

bool ChildOutcome::exited_cleanly() const {
  return WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0;
}

bool ChildOutcome::killed_by(int signal) const {
  return WIFSIGNALED(wait_status) && WTERMSIG(wait_status) == signal;
}

std::string ChildOutcome::describe() const {
  std::string how = WIFEXITED(wait_status) ? "exit " + std::to_string(WEXITSTATUS(wait_status))
                                           : "signal " + std::to_string(WTERMSIG(wait_status));
  return how + "; report: [" + report + "]";
}

ChildOutcome run_in_child(const std::function<int(int report_fd)>& body) {
  int fds[2];
  if (pipe(fds) != 0) std::abort();
  const pid_t child = fork();
  if (child == -1) std::abort();
  if (child == 0) {
    close(fds[0]);
    alarm(kChildAlarmSeconds);
    end_child(body(fds[1]));
  }
  close(fds[1]);
  ChildOutcome outcome;
  outcome.report = read_to_eof(fds[0]);
  close(fds[0]);
  outcome.wait_status = reap(child);
  return outcome;
}

bool ChildChecks::expect(bool ok, std::string_view what) {
  if (!ok) {
    failed_ = true;
    say(what);
    say("\n");
  }
  return ok;
}

void ChildChecks::say(std::string_view text) const {
  // A short write to a pipe is atomic; a failure has nowhere better to go.
  [[maybe_unused]] const ssize_t written = write(report_fd_, text.data(), text.size());
}

std::string_view read_once(int fd, std::span<char> buffer) {
  const ssize_t n = read(fd, buffer.data(), buffer.size());
  return n > 0 ? std::string_view(buffer.data(), static_cast<std::size_t>(n)) : std::string_view();
}

bool status_field_is(std::string_view status_text, std::string_view field, std::string_view value) {
  for (std::size_t start = 0; start < status_text.size();) {
    std::size_t end = status_text.find('\n', start);
    if (end == std::string_view::npos) end = status_text.size();
    std::string_view line = status_text.substr(start, end - start);
    if (line.starts_with(field) && line.substr(field.size()).starts_with(":\t")) {
      return line.substr(field.size() + 2) == value;
    }
    start = end + 1;
  }
  return false;
}

}  // namespace codemode::confine_testing
