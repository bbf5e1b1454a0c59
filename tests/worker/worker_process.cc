#include "worker/worker_process.h"

#include <cerrno>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "protocol/frame_codec.h"
#include "protocol/frame_format.h"

namespace codemode::testing {
namespace {

using Clock = std::chrono::steady_clock;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(what);
}

}  // namespace

Json StartLimits::to_json() const {
  return Json{{"cpuMillis", cpu_millis},
              {"wallTimeMillis", wall_time_millis},
              {"memoryBytes", memory_bytes},
              {"maxOutputBytes", max_output_bytes},
              {"maxToolInputBytes", max_tool_input_bytes},
              {"maxToolCalls", max_tool_calls},
              {"stackBytes", stack_bytes}};
}

Json start_frame(std::string_view source, const Json& input, const StartLimits& limits) {
  return Json{{"type", "start"},
              {"version", 1},
              {"source", source},
              {"input", input},
              {"limits", limits.to_json()}};
}

WorkerProcess::WorkerProcess(const char* binary, WorkerStderr stderr_mode, EngineProfile engine) {
  int in[2];
  int out[2];
  int err[2] = {-1, -1};
  check(pipe2(in, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0, "pipe2");
  if (stderr_mode == WorkerStderr::kCapture) check(pipe2(err, O_CLOEXEC) == 0, "pipe2");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  if (err[1] >= 0) posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  char jit_flag[] = "--jit";
  char* const argv[] = {const_cast<char*>(binary),
                        engine == EngineProfile::kJit ? jit_flag : nullptr, nullptr};
  char* const envp[] = {nullptr};
  const int spawned = posix_spawn(&pid_, binary, &actions, nullptr, argv, envp);
  posix_spawn_file_actions_destroy(&actions);
  close(in[0]);
  close(out[1]);
  if (err[1] >= 0) close(err[1]);
  to_worker_ = in[1];
  from_worker_ = out[0];
  stderr_from_worker_ = err[0];
  check(spawned == 0, "posix_spawn");
}

WorkerProcess::~WorkerProcess() {
  if (to_worker_ >= 0) close(to_worker_);
  if (from_worker_ >= 0) close(from_worker_);
  if (stderr_from_worker_ >= 0) close(stderr_from_worker_);
  if (!status_ && pid_ > 0) {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
}

void WorkerProcess::send(const Json& message) {
  Result<std::string> frame = internal::encode_frame(message, internal::kMaxFrameBytes);
  check(frame.ok(), "encode_frame");
  send_bytes(*frame);
}

void WorkerProcess::send_bytes(std::string_view bytes) {
  signal(SIGPIPE, SIG_IGN);  // a worker that already exited must not kill the test
  while (!bytes.empty()) {
    const ssize_t written = write(to_worker_, bytes.data(), bytes.size());
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return;  // the worker is gone; the test looks at what it said
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

void WorkerProcess::close_stdin() {
  close(to_worker_);
  to_worker_ = -1;
}

bool WorkerProcess::read_exact(char* out, std::size_t size, Clock::time_point deadline) {
  while (size > 0) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd ready{from_worker_, POLLIN, 0};
    if (left.count() <= 0 || poll(&ready, 1, static_cast<int>(left.count())) <= 0) return false;
    const ssize_t got = read(from_worker_, out, size);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    out += got;
    size -= static_cast<std::size_t>(got);
  }
  return true;
}

std::optional<Json> WorkerProcess::receive(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  std::string prefix(internal::kFrameLengthBytes, '\0');
  if (!read_exact(prefix.data(), prefix.size(), deadline)) return std::nullopt;
  std::size_t length = 0;
  for (char byte : prefix) length = (length << 8) | static_cast<unsigned char>(byte);
  std::string body(length, '\0');
  if (length > internal::kMaxFrameBytes || !read_exact(body.data(), length, deadline)) {
    return std::nullopt;
  }
  internal::FrameReader reader(internal::kMaxFrameBytes);
  reader.consume(prefix + body);
  Result<std::optional<Json>> frame = reader.next();
  check(frame.ok() && frame->has_value(), "the worker wrote a malformed frame");
  return std::move(**frame);
}

std::string WorkerProcess::read_stderr(std::chrono::milliseconds timeout) {
  check(stderr_from_worker_ >= 0, "the worker's stderr is not captured");
  const auto deadline = Clock::now() + timeout;
  std::string text;
  char buffer[4096];
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    pollfd ready{stderr_from_worker_, POLLIN, 0};
    if (left.count() <= 0 || poll(&ready, 1, static_cast<int>(left.count())) <= 0) return text;
    const ssize_t got = read(stderr_from_worker_, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
  }
}

std::optional<int> WorkerProcess::wait(std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!status_) {
    int status = 0;
    const pid_t done = waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      status_ = status;
    } else if (Clock::now() >= deadline) {
      return std::nullopt;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  return status_;
}

Json echo_tool(const Json& tool_call) {
  return Json{{"status", "succeeded"},
              {"hasOutput", true},
              {"output", Json{{"toolId", tool_call["toolId"]}, {"input", tool_call["input"]}}}};
}

bool Execution::succeeded() const { return result && (*result)["status"] == "succeeded"; }

std::string Execution::describe() const { return result ? result->dump() : "no result"; }

std::string Execution::reason() const {
  if (!result || !result->contains("reason")) return "";
  return (*result)["reason"].get<std::string>();
}

const Json& Execution::output() const { return (*result)["output"]; }

bool Execution::exited_normally(int code) const {
  return wait_status && WIFEXITED(*wait_status) && WEXITSTATUS(*wait_status) == code;
}

bool Execution::killed_by(int signal) const {
  return wait_status && WIFSIGNALED(*wait_status) && WTERMSIG(*wait_status) == signal;
}

Execution execute(std::string_view source, const Json& input, const StartLimits& limits,
                  const ToolResponder& responder, const char* binary, EngineProfile engine) {
  Execution execution;
  const auto started = Clock::now();
  WorkerProcess worker(binary, WorkerStderr::kInherit, engine);
  worker.send(start_frame(source, input, limits));
  while (std::optional<Json> frame = worker.receive()) {
    const std::string type = (*frame)["type"].get<std::string>();
    if (type == "confined") execution.confined = *frame;
    if (type == "result") {
      execution.result = *frame;
      break;
    }
    if (type != "toolCall") continue;
    execution.tool_calls.push_back(*frame);
    Json answer = responder(*frame);
    answer["type"] = "toolResult";
    answer["callId"] = (*frame)["callId"];
    worker.send(answer);
  }
  execution.wait_status = worker.wait();
  execution.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
  return execution;
}

}  // namespace codemode::testing
