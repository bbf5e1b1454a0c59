// DownstreamConnection: one running downstream MCP server (a child process speaking
// newline-delimited JSON-RPC on its stdin and stdout) and the requests in flight to it. A reader
// thread takes each line the child writes: a response completes its request; a request from the
// server (sampling, roots, elicitation) is refused with -32601, a ping answered; anything else
// is ignored. The child's stderr goes to /dev/null: nothing it says reaches a log or a caller.
//
// When the child's stdout ends (it exited or crashed), the connection is dead: the child's process
// group is killed, every request in flight completes with TOOL_FAILED "downstream_exited", and
// later requests fail at once. The owner (DownstreamClient) then starts a new connection on next
// use.
//
// The child leads a process group of its own (internal::ChildProcess::Group::kOwn), so whatever it
// started (a helper, a background job) is killed with it: when its stdout ends and when the
// connection is destroyed (a restart's old connection, a failed start, shutdown). A descendant
// that calls setsid() or setpgid() escapes that (the server is the host's configured program).
//
// Ownership: destroying the connection kills the child's group, reaps the child, stops and joins
// the reader, and completes what is still in flight with "downstream_exited".
// Thread-safety: every public method is thread-safe. Completions run on the reader thread or on
// the caller's, never under a lock of the connection's.
#ifndef CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_CONNECTION_H_
#define CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_CONNECTION_H_

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"

#include "core/process/child_process.h"
#include "core/process/pipe_io.h"
#include "mcp/transport/line_channel.h"

namespace codemode::mcp {

// CANCELLED "cancelled": what a request gets when its caller's stop token fires first (also a
// caller that stopped while the connection was still being started).
Error call_cancelled_error();

class DownstreamConnection : public std::enable_shared_from_this<DownstreamConnection> {
 public:
  // Called once with the response's result, or an Error: TOOL_FAILED "downstream_error" (the
  // server answered with a JSON-RPC error; its text is not kept), "downstream_exited",
  // CANCELLED "cancelled" (the stop token fired; the server was sent notifications/cancelled).
  using Completion = std::function<void(Result<Json>)>;

  // Starts the child. TOOL_FAILED "spawn_failed" when it cannot be started.
  static Result<std::shared_ptr<DownstreamConnection>> start(const internal::SpawnOptions& options);
  ~DownstreamConnection();
  DownstreamConnection(const DownstreamConnection&) = delete;
  DownstreamConnection& operator=(const DownstreamConnection&) = delete;

  // Sends a request; `done` is called exactly once. When `stop` fires first, the request is
  // cancelled (notifications/cancelled is sent) and `done` gets CANCELLED.
  void request(std::string_view method, Json params, std::stop_token stop, Completion done);
  void notify(std::string_view method, Json params);

  bool alive() const { return alive_.load(); }

 private:
  struct Pending;
  DownstreamConnection(internal::SpawnedChild child, internal::EventFd wake);
  void read_loop();
  void handle_line(std::string_view line);
  void handle_server_request(const Json& id, const std::string& method);
  void complete(std::int64_t id, Result<Json> result);
  void cancel_requested(std::int64_t id);
  void process_cancellations();
  void fail_all();

  internal::SpawnedChild child_;
  internal::EventFd wake_;  // wakes the reader: cancellations queued, or shutdown
  LineWriter writer_;
  std::atomic<bool> alive_ = true;
  std::atomic<bool> stopping_ = false;
  std::mutex mu_;
  std::int64_t next_id_ = 1;
  std::map<std::int64_t, std::shared_ptr<Pending>> pending_;
  std::vector<std::int64_t> cancellations_;  // ids whose caller stopped, for the reader to end
  std::thread reader_;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_DOWNSTREAM_DOWNSTREAM_CONNECTION_H_
