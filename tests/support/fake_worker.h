// Test doubles of the worker for the process adapter's protocol tests: a WorkerLauncher that runs
// a /bin/sh script in place of codemode-worker, and helpers that write frames from such a script.
// The adapter under test is the real one; only the process at the other end of the pipes lies.
#ifndef CODEMODE_TESTS_SUPPORT_FAKE_WORKER_H_
#define CODEMODE_TESTS_SUPPORT_FAKE_WORKER_H_

#include <atomic>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "codemode/json.h"

#include "protocol/frame_format.h"
#include "sandbox/process/process_adapter_impl.h"
#include "sandbox/process/worker_launcher.h"

namespace codemode::testing {

class ScriptLauncher final : public internal::WorkerLauncher {
 public:
  ScriptLauncher(std::string script, std::shared_ptr<std::atomic<int>> launches)
      : script_(std::move(script)), launches_(std::move(launches)) {}

  Result<internal::WorkerProcess> launch() override {
    ++*launches_;
    return internal::spawn_child(
        {.path = "/bin/sh", .argv = {"sh", "-c", script_}, .env = {"PATH=/usr/bin:/bin"}});
  }

 private:
  const std::string script_;
  const std::shared_ptr<std::atomic<int>> launches_;
};

// The production adapter with `script` playing the worker. `launches` counts the workers started.
inline std::shared_ptr<SandboxAdapter> fake_worker_adapter(
    std::string script,
    std::shared_ptr<std::atomic<int>> launches = std::make_shared<std::atomic<int>>(0)) {
  return internal::make_process_adapter_with(
      std::make_unique<ScriptLauncher>(std::move(script), std::move(launches)),
      [] { return true; });
}

// A shell command writing `bytes` exactly, every byte as a printf octal escape.
inline std::string printf_bytes(const std::string& bytes) {
  std::string command = "printf '";
  char escape[8];
  for (unsigned char byte : bytes) {
    std::snprintf(escape, sizeof escape, "\\%03o", byte);
    command += escape;
  }
  return command + "'; ";
}

// A shell command writing one frame: the 4-byte big-endian length, then `body`.
inline std::string printf_frame(const std::string& body, std::size_t length) {
  std::string prefix(4, '\0');
  for (int i = 0; i < 4; ++i) prefix[3 - i] = static_cast<char>((length >> (8 * i)) & 0xFF);
  return printf_bytes(prefix + body);
}
inline std::string printf_frame(const std::string& body) { return printf_frame(body, body.size()); }
inline std::string printf_frame(const Json& message) { return printf_frame(message.dump()); }

// What a real worker sends once confined: every layer, or the parent refuses it.
inline std::string confined_frame() {
  Json layers = Json::array();
  for (std::string_view layer : internal::kConfinementLayers) layers.push_back(std::string(layer));
  return printf_frame(Json{{"type", "confined"}, {"version", 1}, {"layers", layers}});
}

inline std::string tool_call_frame(std::int64_t call_id, const Json& input) {
  return printf_frame(Json{
      {"type", "toolCall"}, {"callId", call_id}, {"toolId", "number.double"}, {"input", input}});
}

inline std::string result_frame(const Json& output) {
  return printf_frame(
      Json{{"type", "result"}, {"status", "succeeded"}, {"hasOutput", true}, {"output", output}});
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_FAKE_WORKER_H_
