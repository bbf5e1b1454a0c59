// The approvals console (docs/console.md): a web page over a WorkflowRuntime's store where a
// person reviews each phase waiting for approval (intent, source, input, tools, limits, the exact
// digest and its expiry) and approves or rejects that exact digest, and reads finished phases'
// audit records. `codemode workflow console` serves it.
//
// Routes:
//   GET  /login?token=T                   starts a session, then redirects to /#session=ID
//   GET  /, /console.js, /console.css,    the page (embedded; strict Content-Security-Policy;
//        /source_view.js                  it holds no data, so it needs no session)
//   GET  /api/session                     {person, workflow}
//   GET  /api/runs                        console_views.h runs_view, and "worker": the console's
//                                         worker loop (below)
//   GET  /api/runs/RUN                    console_views.h run_view
//   GET  /api/events                      server-sent events: {"version": fingerprint} whenever
//                                         what the page shows changed (live updates)
//   POST /api/runs/RUN/phases/PHASE/approve|reject   {"digest": D}: decides that exact digest as
//                                         the console's person; 409 with the fresh request when D
//                                         went stale (expired, reissued) while the page was open
// Every request must name a Host the console serves and carry no Origin but the console's own,
// and every API request needs the access token: a session from /login, sent as a header, or the
// bearer token (console_access.h). Only runs of the console's own workflow are shown or decided. A
// connection stays open for further requests only once a request on it carried the token or a
// session; until then each closes after its answer (the page's files included), and at most 8
// such connections are live, the oldest idle one giving way to a new arrival, so a client without
// the token cannot hold the slots the person needs.
//
// The console runs the runtime's worker loop (WorkflowRuntime::work) for as long as it serves: it
// keeps the requests it shows current (reissue), and with `work` also executes approved phases.
// A pass that fails is reported, not dropped: in "worker" on /api/runs ({"duty", "failing": null
// or {"error", "since"}}), in the live-update stream (the version changes), and to
// on_worker_event.
//
// Ownership and thread-safety: start returns the owner; destroying it stops the worker loop and
// the HTTP server and joins their threads. The runtime is shared and must be thread-safe.
#ifndef CODEMODE_CONSOLE_CONSOLE_SERVER_H_
#define CODEMODE_CONSOLE_CONSOLE_SERVER_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "codemode/error.h"
#include "codemode/workflow_runtime.h"

#include "console/console_access.h"
#include "http/http_server.h"

namespace codemode::console {

struct ConsoleOptions {
  std::shared_ptr<WorkflowRuntime> runtime;  // required
  std::string workflow_id;                   // the workflow whose runs it shows and decides
  // The person deciding through this console, shown on the page, and the credential handed to
  // the runtime's VerifyPerson on every decision (which must vouch for it: docs/console.md).
  std::string person;
  std::string credential;
  // The person's Ed25519 private key (PEM), to sign each decision when the runtime has approver
  // keys (workflow_runtime.h); empty: decisions go unsigned.
  std::string signing_key_pem;
  std::string access_token;  // http::is_valid_access_token
  // The page's origin behind a TLS proxy ("https://approvals.example"), accepted as a request's
  // Origin besides "http://" + Host; empty: none.
  std::string public_origin;
  // Where to listen. Its body, head-time and per-address caps are the console's own (start).
  http::HttpServerOptions http;
  // How often the live-update streams look for changes, and the worker loop for due phases.
  std::chrono::milliseconds poll_interval{500};
  // Also execute approved phases (WorkflowRuntime::run_due), as `codemode workflow worker` does.
  bool work = false;
  // The worker loop's options but its duty, poll interval and report (set from the fields above).
  WorkerLoopOptions worker{};
  // Also hears every event the worker loop reports, on the loop's thread (the command logs them).
  std::function<void(const WorkerEvent&)> on_worker_event;
};

class ConsoleServer {
 public:
  // INVALID_CONFIG (rule "console") for a missing runtime or an invalid token; the HTTP server's
  // errors (rule "http_listen").
  static Result<std::unique_ptr<ConsoleServer>> start(ConsoleOptions options);
  ~ConsoleServer();
  ConsoleServer(const ConsoleServer&) = delete;
  ConsoleServer& operator=(const ConsoleServer&) = delete;

  std::uint16_t port() const { return server_->port(); }

 private:
  struct Routes;
  explicit ConsoleServer(ConsoleOptions options);

  ConsoleOptions options_;
  std::unique_ptr<Routes> routes_;
  std::unique_ptr<http::HttpServer> server_;
  std::jthread worker_;  // the worker loop; stops first
};

}  // namespace codemode::console

#endif  // CODEMODE_CONSOLE_CONSOLE_SERVER_H_
