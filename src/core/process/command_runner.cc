#include "core/process/command_runner.h"

#include <array>
#include <optional>
#include <utility>

#include <errno.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/process/child_process.h"
#include "core/process/pipe_io.h"

namespace codemode::internal {
namespace {

using Ending = CommandRun::Ending;

constexpr std::size_t kReadChunkBytes = 64u << 10;
// Without a pidfd (kernels before 5.3), how often the exit is checked after stdout closed.
constexpr int kReapPollMillis = 1;

Ending ending_of(const ExitStatus& status) {
  return status.exit_code == 0 ? Ending::kExitedZero : Ending::kFailed;
}

// One run: the child, its pipes and the wake-up for `stop`, all owned. The command runs in a
// process group of its own, which is killed when the run ends, however it ends: when the command
// exits (what it left running in the background goes with it, also on exit status 0), on `stop`,
// and on any failure (by the ChildProcess's destruction).
class CommandProcess {
 public:
  CommandProcess(SpawnedChild child, EventFd wake, std::string_view input, std::size_t cap)
      : child_(std::move(child)), wake_(std::move(wake)), input_(input), cap_(cap) {}

  CommandRun run(std::stop_token stop);

 private:
  std::optional<Ending> exchange();
  std::optional<Ending> read_stdout();
  std::optional<Ending> reap();
  void write_stdin();
  Ending wait_for_exit(const std::stop_token& stop);
  bool wait_ready(int fd, int timeout_millis);

  SpawnedChild child_;
  EventFd wake_;
  UniqueFd exit_fd_;  // a pidfd of the command while it is unreaped, when the kernel has them
  std::optional<ExitStatus> status_;  // once reaped
  std::string_view input_;            // what is left to write
  const std::size_t cap_;
  std::string output_;
};

CommandRun CommandProcess::run(std::stop_token stop) {
  std::stop_callback wake_on_stop(stop, [this] { wake_.notify(); });
  // Safe from pid reuse: the child is ours and unreaped.
  const long pid_fd = syscall(SYS_pidfd_open, child_.process.pid(), 0);
  if (pid_fd >= 0) exit_fd_.reset(static_cast<int>(pid_fd));
  if (input_.empty()) child_.stdin_fd.reset();
  while (child_.stdout_fd.valid()) {
    if (stop.stop_requested()) return {Ending::kStopped, {}};
    if (std::optional<Ending> ending = exchange()) return {*ending, {}};
  }
  const Ending ending = status_ ? ending_of(*status_) : wait_for_exit(stop);
  return {ending, ending == Ending::kExitedZero ? std::move(output_) : std::string()};
}

// One poll() round over stdin, stdout, the command's exit and the wake-up. An ending when the run
// is decided early.
std::optional<Ending> CommandProcess::exchange() {
  enum Slot { kWake, kStdout, kStdin, kExit };
  std::array<pollfd, 4> fds{};
  fds[kWake] = {wake_.fd(), POLLIN, 0};
  fds[kStdout] = {child_.stdout_fd.get(), POLLIN, 0};
  fds[kStdin] = {child_.stdin_fd.get(), POLLOUT, 0};  // -1 once all is written: skipped
  fds[kExit] = {exit_fd_.get(), POLLIN, 0};           // -1 once reaped (or no pidfd): skipped
  if (poll(fds.data(), fds.size(), -1) < 0) {
    return errno == EINTR ? std::nullopt : std::optional<Ending>(Ending::kFailed);
  }
  // The command exited while something it started holds stdout open: reaping kills its group,
  // so stdout ends once what is in the pipe is read, instead of when the background job ends.
  if (fds[kExit].revents != 0) {
    if (std::optional<Ending> failed = reap()) return failed;
  }
  if (fds[kStdin].revents != 0) write_stdin();
  if (fds[kStdout].revents != 0) return read_stdout();
  return std::nullopt;
}

// Reaps the exited command (its group is killed first). kFailed when someone else reaped it.
std::optional<Ending> CommandProcess::reap() {
  status_ = child_.process.try_reap();
  if (!status_ && child_.process.owned()) return std::nullopt;  // not exited after all
  exit_fd_.reset();
  child_.stdin_fd.reset();  // nothing of the command is left to read it
  return status_ ? std::nullopt : std::optional<Ending>(Ending::kFailed);
}

void CommandProcess::write_stdin() {
  const IoResult written = write_some(child_.stdin_fd.get(), input_);
  if (written.status == IoStatus::kWouldBlock) return;
  if (written.status == IoStatus::kOk) input_.remove_prefix(written.bytes);
  // All written, or the command stopped reading (it may not need its input): end of file.
  if (written.status != IoStatus::kOk || input_.empty()) child_.stdin_fd.reset();
}

std::optional<Ending> CommandProcess::read_stdout() {
  const IoResult read = read_some(child_.stdout_fd.get(), kReadChunkBytes, output_);
  if (read.status == IoStatus::kClosed) child_.stdout_fd.reset();
  if (read.status == IoStatus::kFailed) return Ending::kFailed;
  if (output_.size() > cap_) return Ending::kOutputTooLarge;
  return std::nullopt;
}

// stdout closed; the command may still be running. Waits for its exit, or for `stop`.
Ending CommandProcess::wait_for_exit(const std::stop_token& stop) {
  while (!stop.stop_requested()) {
    if (std::optional<ExitStatus> status = child_.process.try_reap()) return ending_of(*status);
    if (!child_.process.owned()) return Ending::kFailed;  // reaped by someone else
    if (!wait_ready(exit_fd_.get(), exit_fd_.valid() ? -1 : kReapPollMillis)) {
      return Ending::kFailed;
    }
  }
  return Ending::kStopped;
}

// Waits for `fd` (a pidfd, or -1) or the wake-up. False when poll itself fails.
bool CommandProcess::wait_ready(int fd, int timeout_millis) {
  std::array<pollfd, 2> fds{{{wake_.fd(), POLLIN, 0}, {fd, POLLIN, 0}}};
  if (poll(fds.data(), fds.size(), timeout_millis) < 0 && errno != EINTR) return false;
  return true;
}

}  // namespace

CommandRun run_command(const CommandSpec& spec, std::string_view stdin_text,
                       std::size_t max_output_bytes, std::stop_token stop) {
  std::optional<EventFd> wake = EventFd::create();
  if (!wake) return {Ending::kNotStarted, {}};
  Result<SpawnedChild> child = spawn_child({.path = spec.path,
                                            .argv = spec.argv,
                                            .env = spec.env,
                                            .stderr_mode = SpawnOptions::Stderr::kDiscard,
                                            .group = ChildProcess::Group::kOwn,
                                            .parent_death = SpawnOptions::ParentDeath::kKill});
  if (!child.ok()) return {Ending::kNotStarted, {}};
  CommandProcess process(std::move(*child), std::move(*wake), stdin_text, max_output_bytes);
  return process.run(std::move(stop));
}

}  // namespace codemode::internal
