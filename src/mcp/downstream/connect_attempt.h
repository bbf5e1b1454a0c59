// ConnectAttempt: one start of a downstream MCP server (spawn, initialize, initialized), run on a
// thread of its own so that everyone waiting for it can leave as soon as their own stop token
// fires, while the start goes on. DownstreamClient keeps one attempt at a time: callers that
// arrive during a (re)start share it instead of each starting a server, and no lock is held
// across the handshake.
//
// A start that all its waiters left is not killed but left to finish: it is bounded by the
// server's timeoutMs anyway, and the next caller then gets the connection without paying for a
// second start (killing it would keep a server that starts slower than its callers are patient
// from ever coming up, and every cancelled call would cost a spawn). When the start fails or times
// out, its half-started process is killed and reaped on the attempt's thread.
//
// Ownership: destroying the attempt cuts a start still in progress short (the connect function's
// stop token fires) and joins the thread; the connection it made is shared with every waiter.
// Thread-safety: every method is thread-safe.
#ifndef CODEMODE_MCP_DOWNSTREAM_CONNECT_ATTEMPT_H_
#define CODEMODE_MCP_DOWNSTREAM_CONNECT_ATTEMPT_H_

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

#include "codemode/error.h"

#include "mcp/downstream/downstream_connection.h"

namespace codemode::mcp {

class ConnectAttempt {
 public:
  using Outcome = Result<std::shared_ptr<DownstreamConnection>>;
  // Starts and initializes a connection; returns early (with an error) when its token fires.
  using Connect = std::function<Outcome(std::stop_token)>;

  // Runs `connect` on the attempt's own thread at once. Without a thread (or when `connect` throws)
  // the outcome is TOOL_FAILED "spawn_failed".
  explicit ConnectAttempt(Connect connect);
  ConnectAttempt(const ConnectAttempt&) = delete;
  ConnectAttempt& operator=(const ConnectAttempt&) = delete;

  // The start's outcome, once it finished; CANCELLED "cancelled" (the error of a cancelled
  // downstream request) as soon as `stop` fires first. The start goes on either way.
  Outcome wait(std::stop_token stop);

  // Whether a caller should wait for this attempt rather than start another: it is still
  // starting, or it connected and the connection is alive.
  bool usable() const;

 private:
  void run(std::stop_token abort, const Connect& connect);

  mutable std::mutex mu_;
  std::condition_variable_any finished_;
  std::optional<Outcome> outcome_;
  std::jthread thread_;  // last: starts after every member it uses exists, stops and joins first
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_DOWNSTREAM_CONNECT_ATTEMPT_H_
