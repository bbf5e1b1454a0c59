// A test double of the parent: spawns the real codemode-worker with pipes on its stdin and stdout,
// speaks frames (protocol/frame_codec.h) and reaps it. Every wait is bounded, so a broken worker
// fails a test instead of hanging it. The worker runs in this test run's engine profile
// (CODEMODE_TEST_ENGINE, support/adapter_options.h: with --jit for "jit") unless a test names one.
#ifndef CODEMODE_TESTS_WORKER_WORKER_PROCESS_H_
#define CODEMODE_TESTS_WORKER_WORKER_PROCESS_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

#include "codemode/json.h"
#include "codemode/process_adapter.h"

#include "support/adapter_options.h"

namespace codemode::testing {

inline constexpr const char* kWorkerBinary = CODEMODE_WORKER_BINARY;
inline constexpr const char* kTestHooksBinary = CODEMODE_WORKER_TESTHOOKS_BINARY;

// The limits of a start frame, with test defaults.
struct StartLimits {
  std::int64_t cpu_millis = 5000;
  std::int64_t wall_time_millis = 30000;
  std::int64_t memory_bytes = 64 << 20;
  std::int64_t max_output_bytes = 1 << 20;
  std::int64_t max_tool_input_bytes = 1 << 20;
  std::int64_t max_tool_calls = 100;
  std::int64_t stack_bytes = 6 << 20;

  Json to_json() const;
};

Json start_frame(std::string_view source, const Json& input, const StartLimits& limits = {});

// Where the worker's fd 2 goes: the test's own stderr, or a pipe read by read_stderr().
enum class WorkerStderr { kInherit, kCapture };

class WorkerProcess {
 public:
  explicit WorkerProcess(const char* binary = kWorkerBinary,
                         WorkerStderr stderr_mode = WorkerStderr::kInherit,
                         EngineProfile engine = test_engine());
  ~WorkerProcess();  // kills and reaps the worker if it still runs
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  pid_t pid() const { return pid_; }
  void send(const Json& message);
  void send_bytes(std::string_view bytes);
  void close_stdin();
  // The next frame, or nullopt at end of stream or after `timeout`.
  std::optional<Json> receive(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // With WorkerStderr::kCapture: everything the worker writes to fd 2 until it closes it (exits)
  // or `timeout` passes.
  std::string read_stderr(std::chrono::milliseconds timeout = std::chrono::seconds(60));
  // Waits for the worker to exit; its wait status, or nullopt after `timeout`.
  std::optional<int> wait(std::chrono::milliseconds timeout = std::chrono::seconds(60));

 private:
  bool read_exact(char* out, std::size_t size, std::chrono::steady_clock::time_point deadline);

  pid_t pid_ = -1;
  int to_worker_ = -1;
  int from_worker_ = -1;
  int stderr_from_worker_ = -1;
  std::optional<int> status_;
};

// Answers one toolCall frame: returns the toolResult fields (status, hasOutput, output/error).
using ToolResponder = std::function<Json(const Json& tool_call)>;

// Echoes every call: {status:"succeeded", hasOutput:true, output:{toolId, input}}.
Json echo_tool(const Json& tool_call);

// What one execution produced.
struct Execution {
  std::optional<Json> confined;
  std::vector<Json> tool_calls;
  std::optional<Json> result;  // nullopt when the worker died without one
  std::optional<int> wait_status;
  std::chrono::milliseconds elapsed{0};

  bool succeeded() const;
  // The result as JSON, or "no result": for failure messages.
  std::string describe() const;
  // result.reason, or "" when there is no failed result.
  std::string reason() const;
  // result.output; REQUIRES: succeeded().
  const Json& output() const;
  bool exited_normally(int code) const;
  bool killed_by(int signal) const;
};

// Starts the worker, sends the start frame, answers tool calls with `responder`, and reads until
// the result frame and the worker's exit.
Execution execute(std::string_view source, const Json& input = nullptr,
                  const StartLimits& limits = {}, const ToolResponder& responder = echo_tool,
                  const char* binary = kWorkerBinary, EngineProfile engine = test_engine());

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_WORKER_WORKER_PROCESS_H_
