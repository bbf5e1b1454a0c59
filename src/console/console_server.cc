#include "console/console_server.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

#include "codemode/rules.h"

#include "console/console_assets.h"
#include "console/console_views.h"
#include "http/http_access.h"

namespace codemode::console {
namespace {

using http::HttpExchange;
using http::HttpHeaders;
using http::HttpRequest;

constexpr std::string_view kJson = "application/json";
constexpr JsonLimits kDecisionLimits{.max_bytes = 4096};
constexpr std::string_view kRunsPrefix = "/api/runs/";
constexpr auto kEventHeartbeat = std::chrono::seconds(15);
constexpr std::size_t kMaxRequestBodyBytes = 4096;
// Of the server's connections, how many may be without a credential at once; the rest are kept
// for the person and scripts that have one (HttpServerOptions::max_unproven_connections).
constexpr std::size_t kMaxUnprovenConnections = 8;

// Every response: the page may load only its own script and style, be framed by nobody, and
// send no referrer (the login URL carries the token).
HttpHeaders security_headers() {
  return {{"Content-Security-Policy",
           "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
           "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
          {"X-Content-Type-Options", "nosniff"},
          {"X-Frame-Options", "DENY"},
          {"Referrer-Policy", "no-referrer"},
          {"Cross-Origin-Opener-Policy", "same-origin"},
          {"Cross-Origin-Resource-Policy", "same-origin"},
          {"Cache-Control", "no-store"}};
}

Json error_json(const Error& error) {
  return Json{
      {"error",
       {{"code", to_string(error.code)}, {"rule", error.rule}, {"message", error.message}}}};
}

void respond_json(HttpExchange& exchange, int status, const Json& body,
                  HttpHeaders headers = security_headers()) {
  exchange.respond(status, kJson, body.dump(), headers);
}

void refuse(HttpExchange& exchange, int status, std::string_view code, std::string message) {
  HttpHeaders headers = security_headers();
  headers.emplace_back("Connection", "close");
  respond_json(
      exchange, status,
      Json{{"error", {{"code", code}, {"rule", rules::kConsoleAccess}, {"message", message}}}},
      headers);
}

// Waits `interval`, or less when `stop` fires first.
void wait_unless_stopped(const std::stop_token& stop, std::chrono::milliseconds interval) {
  std::mutex idle;
  std::unique_lock lock(idle);
  std::condition_variable_any().wait_for(lock, stop, interval, [] { return false; });
}

// "/api/runs/RUN" -> RUN; "/api/runs/RUN/phases/PHASE/approve" -> {RUN, PHASE, approve}.
std::vector<std::string_view> path_parts(std::string_view path) {
  std::vector<std::string_view> parts;
  while (!path.empty()) {
    const std::size_t slash = path.find('/');
    parts.push_back(path.substr(0, slash));
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  }
  return parts;
}

}  // namespace

struct ConsoleServer::Routes {
  // What the worker loop last reported, for the page: whether its passes fail, how, and since when.
  // Thread-safe: the loop records, request threads read.
  class WorkerStatus {
   public:
    explicit WorkerStatus(bool work) : work_(work) {}

    void record(const WorkerEvent& event) {
      std::lock_guard lock(mutex_);
      ++changes_;
      if (event.kind == WorkerEvent::Kind::kRecovered) {
        failing_.reset();
        return;
      }
      const std::int64_t since =
          failing_ ? failing_->at("since").get<std::int64_t>() : now_millis();
      failing_ = Json{{"error", error_json(*event.error).at("error")}, {"since", since}};
    }
    // {"duty": "reissue_and_execute" | "reissue_only", "failing": null | {"error", "since"}}
    Json to_json() const {
      std::lock_guard lock(mutex_);
      return Json{{"duty", work_ ? "reissue_and_execute" : "reissue_only"},
                  {"failing", failing_ ? *failing_ : Json()}};
    }
    // How many times it changed: part of the live updates' version.
    std::uint64_t changes() const {
      std::lock_guard lock(mutex_);
      return changes_;
    }

   private:
    static std::int64_t now_millis() {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
          .count();
    }

    const bool work_;
    mutable std::mutex mutex_;
    std::optional<Json> failing_;  // guarded by mutex_
    std::uint64_t changes_ = 0;    // guarded by mutex_
  };

  explicit Routes(const ConsoleOptions& console_options)
      : options(console_options),
        access(console_options.access_token, console_options.http.address,
               console_options.public_origin),
        worker(console_options.work) {}

  void handle(const HttpRequest& request, HttpExchange& exchange) {
    if (!access.host_allowed(request)) {
      refuse(exchange, 403, "PERMISSION_DENIED", "This console does not answer to that host.");
      return;
    }
    // Every request, not only a decision: a page of another origin is never served anything.
    if (!access.origin_allowed(request)) {
      refuse(exchange, 403, "PERMISSION_DENIED",
             "This console answers only its own page (its origin).");
      return;
    }
    const std::string_view path = request.path();
    if (path == "/login") {
      login(request, exchange);
      return;
    }
    // The page itself holds nothing: it asks for everything with its session. Asked for without
    // one (as a browser loads it), its connection closes after the answer, as every connection
    // does until a request on it carries the token or a session.
    if (const Asset* asset = find_asset(path); asset != nullptr && request.method == "GET") {
      exchange.respond(200, asset->content_type, asset->body, security_headers());
      return;
    }
    const ConsoleAccess::Caller caller = access.identify(request);
    if (caller == ConsoleAccess::Caller::kNobody) {
      refuse(exchange, 401, "PERMISSION_DENIED",
             "Sign in with the console's link, or send its bearer token.");
      return;
    }
    exchange.prove_connection();
    if (request.method == "POST") {
      decide(request, exchange);
      return;
    }
    if (request.method != "GET") {
      refuse(exchange, 405, "INVALID_INPUT", "Only GET and POST are served.");
      return;
    }
    if (path == "/api/session") {
      respond_json(exchange, 200,
                   Json{{"person", options.person}, {"workflow", options.workflow_id}});
    } else if (path == "/api/runs") {
      Result<Json> runs = runs_view(*options.runtime, options.workflow_id);
      if (runs.ok()) (*runs)["worker"] = worker.to_json();
      answer(exchange, runs);
    } else if (path.starts_with(kRunsPrefix) &&
               path.find('/', kRunsPrefix.size()) == std::string_view::npos) {
      answer(exchange,
             run_view(*options.runtime, options.workflow_id, path.substr(kRunsPrefix.size())));
    } else if (path == "/api/events") {
      stream_events(request, exchange);
    } else {
      refuse(exchange, 404, "NOT_FOUND", "No such page.");
    }
  }

  void login(const HttpRequest& request, HttpExchange& exchange) {
    if (request.method != "GET" || !access.login_token_valid(request)) {
      refuse(exchange, 401, "PERMISSION_DENIED", "This console link is not valid.");
      return;
    }
    exchange.prove_connection();
    const std::string session = access.start_session();
    if (session.empty()) {
      refuse(exchange, 503, "STORAGE_UNAVAILABLE", "No randomness for a session.");
      return;
    }
    // In the fragment: it never reaches a server or a Referer; the page moves it to its
    // sessionStorage and out of the address bar.
    HttpHeaders headers = security_headers();
    headers.emplace_back("Location", "/#session=" + session);
    exchange.respond(303, "", "", headers);
  }

  void answer(HttpExchange& exchange, const Result<Json>& view) {
    if (!view.ok()) {
      respond_json(exchange, http_status(view.error().code), error_json(view.error()));
      return;
    }
    respond_json(exchange, 200, *view);
  }

  // POST /api/runs/RUN/phases/PHASE/approve|reject {"digest": D}
  void decide(const HttpRequest& request, HttpExchange& exchange) {
    const std::vector<std::string_view> parts = path_parts(request.path());
    // "", "api", "runs", RUN, "phases", PHASE, "approve"|"reject"
    if (parts.size() != 7 || parts[1] != "api" || parts[2] != "runs" || parts[4] != "phases" ||
        (parts[6] != "approve" && parts[6] != "reject")) {
      refuse(exchange, 404, "NOT_FOUND", "No such decision.");
      return;
    }
    const std::optional<std::string_view> type = request.header("content-type");
    if (!type || !type->starts_with(kJson)) {
      refuse(exchange, 415, "INVALID_INPUT", "A decision is sent as application/json.");
      return;
    }
    Result<Json> body = parse_json(request.body, kDecisionLimits);
    if (!body.ok() || !body->is_object() || !body->contains("digest") ||
        !body->at("digest").is_string() || body->size() != 1) {
      refuse(exchange, 400, "INVALID_INPUT", "A decision is {\"digest\": \"...\"}.");
      return;
    }
    const std::string_view run = parts[3];
    const std::string_view phase = parts[5];
    const std::string& digest = body->at("digest").get_ref<const std::string&>();
    WorkflowRuntime& runtime = *options.runtime;
    // Only this console's workflow: its approvers are the ones this console vouches for.
    if (Status ours = check_workflow(runtime, options.workflow_id, run); !ours.ok()) {
      respond_json(exchange, http_status(ours.error().code), error_json(ours.error()));
      return;
    }
    const Decision decision = parts[6] == "approve" ? Decision::kApprove : Decision::kReject;
    std::string signature;
    if (!options.signing_key_pem.empty()) {
      Result<std::string> signed_decision = sign_decision(
          options.signing_key_pem, decision_message(run, phase, digest, decision, options.person));
      if (signed_decision.ok()) signature = std::move(*signed_decision);
    }
    Status decided = decision == Decision::kApprove
                         ? runtime.approve(run, phase, digest, options.credential, signature)
                         : runtime.reject(run, phase, digest, options.credential, signature);
    if (decided.ok()) {
      answer(exchange, run_view(runtime, options.workflow_id, run));
      return;
    }
    Json refusal = error_json(decided.error());
    if (decided.error().code == ErrorCode::kConflict) {
      // The digest went stale while the page was open: the fresh request, never a decision on it.
      Json fresh = Json::array();
      if (Result<std::vector<ApprovalRequest>> pending = runtime.pending(run); pending.ok()) {
        for (const ApprovalRequest& open : *pending) {
          if (open.phase_id == phase) fresh.push_back(to_json(open));
        }
      }
      refusal["pending"] = std::move(fresh);
    }
    respond_json(exchange, http_status(decided.error().code), refusal);
  }

  // Live updates: an event with the state's fingerprint now, then whenever it changes (and every
  // kEventHeartbeat, so a dead client is noticed), until the client or the server goes.
  void stream_events(const HttpRequest& request, HttpExchange& exchange) {
    HttpHeaders headers = security_headers();
    if (!exchange.start_event_stream(headers)) return;
    std::string last;
    auto last_sent = std::chrono::steady_clock::now();
    // Until the session expires or is dropped, too.
    while (!exchange.stop_token().stop_requested() &&
           access.identify(request) != ConsoleAccess::Caller::kNobody) {
      Result<std::string> fingerprint = state_fingerprint(*options.runtime, options.workflow_id);
      // The worker loop's state too: a loop that starts or stops failing changes what the page
      // shows.
      const std::string now = (fingerprint.ok() ? *fingerprint : std::string("unavailable")) + "/" +
                              std::to_string(worker.changes());
      const auto at = std::chrono::steady_clock::now();
      if (now != last || at - last_sent >= kEventHeartbeat) {
        if (!exchange.send_event(Json{{"version", now}}.dump())) return;
        last = now;
        last_sent = at;
      }
      wait_unless_stopped(exchange.stop_token(), options.poll_interval);
    }
    exchange.finish();
  }

  const ConsoleOptions& options;
  ConsoleAccess access;
  WorkerStatus worker;
};

ConsoleServer::ConsoleServer(ConsoleOptions options) : options_(std::move(options)) {}

ConsoleServer::~ConsoleServer() {
  worker_ = {};     // stop the worker loop first
  server_.reset();  // then every connection; routes_ outlives them
}

Result<std::unique_ptr<ConsoleServer>> ConsoleServer::start(ConsoleOptions options) {
  if (!options.runtime) return Error::invalid_config("console", "The console needs a runtime.");
  if (http::check_listen(options.http.address, options.access_token) !=
      http::ListenCheck::kAllowed) {
    return Error::invalid_config(
        "console",
        "The access token must be 32 to 256 characters of A-Z a-z 0-9 . _ ~ - "
        "(CODEMODE_CONSOLE_TOKEN).");
  }
  // Decisions are small; a request is refused before anything larger is buffered. On loopback
  // every client has the same address, so the per-address cap (on connections with a request not
  // yet whole) is the whole server's there; what
  // keeps one local user without the token from holding every slot is the cap on unproven
  // connections, which close after their one answer and give way to new arrivals.
  options.http.max_body_bytes = kMaxRequestBodyBytes;
  options.http.head_timeout = std::chrono::seconds(5);
  options.http.max_unproven_connections =
      std::min(kMaxUnprovenConnections, options.http.max_connections);
  if (http::is_loopback_address(options.http.address))
    options.http.max_incomplete_per_peer = options.http.max_connections;
  std::unique_ptr<ConsoleServer> console(new ConsoleServer(std::move(options)));
  console->routes_ = std::make_unique<Routes>(console->options_);
  Routes* routes = console->routes_.get();
  // A port named in advance is served from the first request; port 0 once the kernel chose one.
  routes->access.set_port(console->options_.http.port);
  Result<std::unique_ptr<http::HttpServer>> server = http::HttpServer::start(
      console->options_.http, [routes](const HttpRequest& request, HttpExchange& exchange) {
        routes->handle(request, exchange);
      });
  if (!server.ok()) return std::move(server).error();
  console->server_ = std::move(*server);
  routes->access.set_port(console->server_->port());
  // The runtime's own loop, as `codemode workflow worker` runs it; what fails is reported (the
  // page, on_worker_event), never dropped.
  WorkerLoopOptions loop = console->options_.worker;
  loop.duty = console->options_.work ? WorkerDuty::kReissueAndExecute : WorkerDuty::kReissueOnly;
  loop.poll_interval = console->options_.poll_interval;
  loop.report = [routes](const WorkerEvent& event) {
    routes->worker.record(event);
    if (routes->options.on_worker_event) routes->options.on_worker_event(event);
  };
  console->worker_ = std::jthread(
      [runtime = console->options_.runtime, loop = std::move(loop)](std::stop_token stop) {
        Result<std::size_t> worked = runtime->work(stop, loop);
        if (!worked.ok() && loop.report) {
          loop.report(WorkerEvent{.kind = WorkerEvent::Kind::kFailing, .error = worked.error()});
        }
      });
  return console;
}

}  // namespace codemode::console
