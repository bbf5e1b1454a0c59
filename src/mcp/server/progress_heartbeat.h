// ProgressHeartbeat: notifications/progress for one long call whose request carried
// _meta.progressToken, one every `interval` while the call runs (progress 1, 2, 3, ...), so a
// client that resets its request timeout on progress (the TypeScript SDK's
// resetTimeoutOnProgress) keeps waiting for a long call. A call shorter than `interval` sends
// none.
//
// The TypeScript SDK handles a notification a microtask later than a response that arrives in the
// same read, so a progress written just before the response reaches it as "unknown token". The
// destructor therefore stops the heartbeat and then keeps a short quiet gap after the last
// progress; the response is written after it.
//
// Thread-safety: owned by the call's thread; `send` is called from the heartbeat's own thread.
#ifndef CODEMODE_MCP_SERVER_PROGRESS_HEARTBEAT_H_
#define CODEMODE_MCP_SERVER_PROGRESS_HEARTBEAT_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "codemode/json.h"

namespace codemode::mcp {

class ProgressHeartbeat {
 public:
  static constexpr std::chrono::milliseconds kQuietGap{50};

  ProgressHeartbeat(std::function<void(const Json&)> send, Json token,
                    std::chrono::milliseconds interval);
  ~ProgressHeartbeat();
  ProgressHeartbeat(const ProgressHeartbeat&) = delete;
  ProgressHeartbeat& operator=(const ProgressHeartbeat&) = delete;

 private:
  void run(std::stop_token stop);

  std::function<void(const Json&)> send_;
  Json token_;
  std::chrono::milliseconds interval_;
  std::mutex mu_;
  std::condition_variable_any wake_;
  std::chrono::steady_clock::time_point last_sent_{};
  std::jthread thread_;  // last: starts after every member it uses exists
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_SERVER_PROGRESS_HEARTBEAT_H_
