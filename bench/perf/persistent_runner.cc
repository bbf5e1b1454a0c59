#include "perf/persistent_runner.h"

#include <cerrno>
#include <utility>

#include <unistd.h>

#include "perf/child_process.h"

namespace codemode::perf {
namespace {

constexpr std::uint64_t kReadyId = 0;

Error exited_error() { return Error::tool_failed("child_process", "The runner process exited."); }

}  // namespace

Result<std::unique_ptr<PersistentRunner>> PersistentRunner::start(
    const std::vector<std::string>& argv) {
  Result<SpawnedChild> child = spawn_child(argv);
  if (!child.ok()) {
    return Error::unsupported_profile("baseline_unavailable", "The runner could not be started.");
  }
  std::unique_ptr<PersistentRunner> runner(
      new PersistentRunner(child->pid, child->stdin_fd, child->stdout_fd));
  Result<Json> ready = runner->wait_for(kReadyId);
  if (!ready.ok() || ready->value("status", "") != "ready") {
    return Error::unsupported_profile(
        "baseline_unavailable",
        "The runner exited before it was ready (are its npm packages installed and built?).");
  }
  return runner;
}

PersistentRunner::PersistentRunner(pid_t pid, int to_child, int from_child)
    : pid_(pid), to_child_(to_child), from_child_(from_child) {
  reader_ = std::jthread([this] { read_answers(); });
}

PersistentRunner::~PersistentRunner() {
  close(to_child_);  // EOF on its stdin: the runner exits, so the reader sees EOF
  if (reader_.joinable()) reader_.join();
  close(from_child_);
  reap_child(pid_);
}

Result<Json> PersistentRunner::call(Json request) {
  std::uint64_t id = 0;
  {
    std::lock_guard lock(mu_);
    if (exited_) return exited_error();
    id = next_id_++;
  }
  request["id"] = id;
  const std::string line = request.dump() + "\n";
  bool written = false;
  {
    std::lock_guard lock(write_mu_);
    written = write_all(to_child_, line);
  }
  if (!written) return exited_error();
  return wait_for(id);
}

Result<Json> PersistentRunner::wait_for(std::uint64_t id) {
  std::unique_lock lock(mu_);
  answered_.wait(lock, [&] { return answers_.contains(id) || exited_; });
  auto it = answers_.find(id);
  if (it == answers_.end()) return exited_error();
  Json answer = std::move(it->second);
  answers_.erase(it);
  return answer;
}

void PersistentRunner::read_answers() {
  std::string pending;
  char buffer[65536];
  for (;;) {
    const ssize_t n = read(from_child_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    pending.append(buffer, static_cast<std::size_t>(n));
    std::size_t start = 0;
    for (std::size_t end; (end = pending.find('\n', start)) != std::string::npos; start = end + 1) {
      deliver(pending.substr(start, end - start));
    }
    pending.erase(0, start);
  }
  std::lock_guard lock(mu_);
  exited_ = true;
  answered_.notify_all();
}

// A line that is not an answer with a known id (which the runners never write) is dropped; its
// caller then waits until the runner exits.
void PersistentRunner::deliver(const std::string& line) {
  Json answer = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object() || !answer["id"].is_number_unsigned()) return;
  const std::uint64_t id = answer["id"].get<std::uint64_t>();
  std::lock_guard lock(mu_);
  answers_[id] = std::move(answer);
  answered_.notify_all();
}

}  // namespace codemode::perf
