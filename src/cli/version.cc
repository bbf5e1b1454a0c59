#include "cli/version.h"

#include <cerrno>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <thread>

#include <poll.h>

#include "codemode/process_adapter.h"
#include "codemode/version.h"

#include "core/process/child_process.h"
#include "core/process/command_path.h"
#include "core/process/pipe_io.h"

namespace codemode::cli {
namespace {

constexpr auto kWorkerAnswerTime = std::chrono::seconds(2);
constexpr std::size_t kMaxAnswerBytes = 256;

// The first line `worker --version` prints, if it prints one and exits 0 in time.
std::optional<std::string> worker_version_line(const std::string& worker) {
  Result<internal::SpawnedChild> child =
      internal::spawn_child({.path = worker,
                             .argv = {worker, "--version"},
                             .stderr_mode = internal::SpawnOptions::Stderr::kDiscard});
  if (!child.ok()) return std::nullopt;
  std::string answer;
  const auto deadline = std::chrono::steady_clock::now() + kWorkerAnswerTime;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return std::nullopt;  // the child is killed and reaped by its owner
    pollfd readable{.fd = child->stdout_fd.get(), .events = POLLIN, .revents = 0};
    if (poll(&readable, 1, static_cast<int>(left.count())) < 0 && errno != EINTR) {
      return std::nullopt;
    }
    const internal::IoResult read =
        internal::read_some(child->stdout_fd.get(), kMaxAnswerBytes - answer.size(), answer);
    if (read.status == internal::IoStatus::kClosed || answer.size() >= kMaxAnswerBytes) break;
    if (read.status == internal::IoStatus::kFailed) return std::nullopt;
  }
  std::optional<internal::ExitStatus> status;
  while (!(status = child->process.try_reap())) {
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (status->exit_code != 0) return std::nullopt;
  const std::string line = answer.substr(0, answer.find('\n'));
  if (!line.starts_with("codemode-worker ")) return std::nullopt;
  return line;
}

}  // namespace

std::string version_text() {
  std::string text = std::string("codemode ") + kVersion + "\n";
  const std::string worker = default_worker_path();
  if (worker.empty() || !internal::is_executable_file(worker)) {
    return text + "codemode-worker: none found (" + (worker.empty() ? "?" : worker) +
           "); pass --worker or a sandbox file";
  }
  const std::optional<std::string> line = worker_version_line(worker);
  if (!line) return text + "codemode-worker: " + worker + " does not answer --version";
  return text + *line + "  (" + worker + ")";
}

}  // namespace codemode::cli
