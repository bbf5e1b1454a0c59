// CallRegistry: one session's tools/call requests in flight, each on its own thread with its own
// stop source, by request id. (How many may run is the server's ServerCapacity's to say.)
// notifications/cancelled stops one call; shutdown stops them all and joins every thread, so no
// call outlives the server.
//
// Thread-safety: every method is thread-safe. REQUIRES: stop_all_and_join before destruction of
// anything the running calls use.
#ifndef CODEMODE_MCP_SERVER_CALL_REGISTRY_H_
#define CODEMODE_MCP_SERVER_CALL_REGISTRY_H_

#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

namespace codemode::mcp {

class CallRegistry {
 public:
  CallRegistry() = default;
  ~CallRegistry() { stop_all_and_join(); }

  // kNoThread: no thread could be started (a process or memory limit).
  enum class Admission { kStarted, kNoThread, kDuplicateId, kStopping };

  // Runs `call` on a new thread under the key `id` (the request id's JSON text). `call` gets a
  // stop_token that fires on cancel(id) or stop_all_and_join(), and `cancelled()` tells it whether
  // the client cancelled (then it must not answer).
  using CallFn = std::function<void(std::stop_token stop, const std::function<bool()>& cancelled)>;
  Admission start(const std::string& id, CallFn call);

  // The client cancelled request `id`; unknown or finished ids are ignored.
  void cancel(const std::string& id);

  void stop_all_and_join();

 private:
  struct Call {
    std::stop_source stop;
    bool cancelled = false;
    std::thread thread;
  };
  void finish(const std::string& id);
  void join_finished(std::unique_lock<std::mutex>& lock);

  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Call>> running_;
  std::list<std::shared_ptr<Call>> finished_;  // threads still to join
  bool stopping_ = false;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_SERVER_CALL_REGISTRY_H_
