#include "mcp/transport/streamable_http.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "core/crypto/random_hex.h"
#include "mcp/transport/json_rpc.h"

namespace codemode::mcp {
namespace {

using namespace std::chrono_literals;

constexpr std::string_view kJson = "application/json";
constexpr JsonLimits kMessageLimits{.max_bytes = 4u << 20};

bool accepts(const HttpRequest& request, std::string_view media_type) {
  const std::optional<std::string_view> accept = request.header("accept");
  return accept && accept->find(media_type) != std::string_view::npos;
}

// The key a JSON-RPC id is filed under: its compact JSON (so 1 and "1" differ).
std::string id_key(const Json& id) { return id.dump(); }

Json rpc_error_body(const Json& id, int code, std::string_view message) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

std::string compact(const Json& message) {
  return message.dump(-1, ' ', false, Json::error_handler_t::replace);
}

bool is_request(const Json& message) {
  return message.contains("method") && message.contains("id");
}

}  // namespace

// One MCP session's requests waiting for their answers (its endpoint is beside it: SessionEntry).
class McpHttpTransport::Session : public std::enable_shared_from_this<Session> {
 public:
  struct Waiter {
    std::deque<Json> messages;  // progress notifications, then the response
    bool answered = false;
  };

  // Notes a request to this session, so it is not idle.
  void touch() {
    std::lock_guard lock(mutex_);
    last_active_ = std::chrono::steady_clock::now();
  }

  // True when no request waits for an answer and the last request came, and the last answer
  // went, before `cutoff`.
  bool idle_since(std::chrono::steady_clock::time_point cutoff) {
    std::lock_guard lock(mutex_);
    return waiters_.empty() && last_active_ < cutoff;
  }

  // A waiter for request `id`, or nullptr when one is already waiting on that id.
  std::shared_ptr<Waiter> expect(const Json& id, const Json& params) {
    std::lock_guard lock(mutex_);
    auto [at, inserted] = waiters_.try_emplace(id_key(id), std::make_shared<Waiter>());
    if (!inserted) return nullptr;
    const Json* token = progress_token(params);
    if (token) progress_.insert_or_assign(token->dump(), id_key(id));
    return at->second;
  }

  // From the endpoint, any thread: a response or progress goes to the request waiting for it;
  // anything else has no stream to go to (GET is not served) and is dropped.
  void deliver(const Json& message) {
    std::lock_guard lock(mutex_);
    const std::string* key = destination(message);
    if (key == nullptr) return;
    const auto waiter = waiters_.find(*key);
    if (waiter == waiters_.end()) return;
    waiter->second->messages.push_back(message);
    if (!message.contains("method")) waiter->second->answered = true;
    changed_.notify_all();
  }

  // The next message for `waiter`, or nullopt once it has nothing more (answered and drained, the
  // session ended, or `stop` fired).
  std::optional<Json> next(const Json& id, Waiter& waiter, const std::stop_token& stop) {
    std::unique_lock lock(mutex_);
    while (waiter.messages.empty() && !waiter.answered && !closed_ && !stop.stop_requested()) {
      changed_.wait_for(lock, 50ms);
    }
    if (waiter.messages.empty()) {
      forget(id);
      return std::nullopt;
    }
    Json message = std::move(waiter.messages.front());
    waiter.messages.pop_front();
    if (waiter.messages.empty() && waiter.answered) forget(id);
    return message;
  }

  // Answers request `id` on `exchange`: as events while the client accepts them, else one JSON
  // body with the response (progress is then dropped). A client gone mid-stream leaves nobody to
  // wait for the rest: the id is forgotten, and what the endpoint sends for it later is dropped.
  void answer(const Json& id, Waiter& waiter, const HttpRequest& request, HttpExchange& exchange,
              const HttpHeaders& headers) {
    if (accepts(request, "text/event-stream")) {
      bool sent = exchange.start_event_stream(headers);
      while (sent) {
        std::optional<Json> message = next(id, waiter, exchange.stop_token());
        if (!message) break;
        sent = exchange.send_event(compact(*message));
      }
      if (sent) {
        exchange.finish();
      } else {
        abandon(id, waiter);
      }
      return;
    }
    std::optional<Json> response;
    while (auto message = next(id, waiter, exchange.stop_token())) {
      if (!message->contains("method")) response = std::move(message);
    }
    if (response) {
      exchange.respond(200, kJson, compact(*response), headers);
    } else {
      exchange.respond(404, "text/plain", "the session ended", headers);
    }
  }

  void close() {
    std::lock_guard lock(mutex_);
    closed_ = true;
    changed_.notify_all();
  }

 private:
  // Forgets `id` unless it has already been forgotten (and maybe taken again by a new request).
  void abandon(const Json& id, const Waiter& waiter) {
    std::lock_guard lock(mutex_);
    const auto found = waiters_.find(id_key(id));
    if (found != waiters_.end() && found->second.get() == &waiter) forget(id);
  }

  static const Json* progress_token(const Json& params) {
    if (!params.is_object() || !params.contains("_meta") || !params["_meta"].is_object()) {
      return nullptr;
    }
    const auto token = params["_meta"].find("progressToken");
    return token == params["_meta"].end() ? nullptr : &*token;
  }

  const std::string* destination(const Json& message) {
    if (!message.is_object()) return nullptr;
    if (message.contains("id") && !message.contains("method")) {
      key_ = id_key(message["id"]);
      return &key_;
    }
    if (!field_equals(message, "method", "notifications/progress")) return nullptr;
    const auto token = message.contains("params") && message["params"].is_object()
                           ? progress_.find(message["params"].value("progressToken", Json()).dump())
                           : progress_.end();
    return token == progress_.end() ? nullptr : &token->second;
  }

  void forget(const Json& id) {
    last_active_ = std::chrono::steady_clock::now();
    waiters_.erase(id_key(id));
    std::erase_if(progress_, [&](const auto& entry) { return entry.second == id_key(id); });
  }

  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, std::shared_ptr<Waiter>> waiters_;  // by id key
  std::map<std::string, std::string> progress_;             // progress token -> id key
  std::string key_;  // scratch for destination(), under mutex_
  bool closed_ = false;
  std::chrono::steady_clock::time_point last_active_ = std::chrono::steady_clock::now();
};

Status check_http_access(const McpHttpOptions& options) {
  in_addr address{};
  if (::inet_pton(AF_INET, options.http.address.c_str(), &address) != 1) {
    return Error::invalid_config("http_listen", "The listen address is not an IPv4 address.");
  }
  switch (http::check_listen(options.http.address, options.bearer_token)) {
    case http::ListenCheck::kAllowed:
      return {};
    case http::ListenCheck::kTokenRequired:
      return Error::invalid_config(
          "http_token_required",
          "A listen address that is not loopback (127.0.0.0/8) requires a bearer token "
          "(codemode mcp reads it from the environment variable CODEMODE_MCP_TOKEN).");
    case http::ListenCheck::kInvalidToken:
      return Error::invalid_config(
          "http_token",
          "The bearer token (CODEMODE_MCP_TOKEN) must be 32 to 256 characters of "
          "A-Z a-z 0-9 . _ ~ -, as the approvals console's token is.");
  }
  return {};
}

Result<std::unique_ptr<McpHttpTransport>> McpHttpTransport::start(
    McpHttpOptions options, McpEndpointFactory make_endpoint) {
  if (Status allowed = check_http_access(options); !allowed.ok()) {
    return std::move(allowed).error();
  }
  std::unique_ptr<McpHttpTransport> transport(
      new McpHttpTransport(std::move(options), std::move(make_endpoint)));
  auto server = HttpServer::start(
      transport->options_.http,
      [raw = transport.get()](const HttpRequest& request, HttpExchange& exchange) {
        raw->handle(request, exchange);
      });
  if (!server.ok()) return std::move(server).error();
  transport->server_ = std::move(*server);
  transport->access_.set_port(transport->server_->port());
  return transport;
}

McpHttpTransport::McpHttpTransport(McpHttpOptions options, McpEndpointFactory make_endpoint)
    : options_(std::move(options)),
      make_endpoint_(std::move(make_endpoint)),
      access_(options_.http.address, options_.bearer_token, options_.allowed_origins) {
  // A port named in advance is served from the first request; port 0 once the kernel chose one.
  access_.set_port(options_.http.port);
}

McpHttpTransport::~McpHttpTransport() {
  server_.reset();  // no request is being handled after this
  std::lock_guard lock(mutex_);
  for (auto& [id, entry] : sessions_) entry.session->close();
  sessions_.clear();  // each endpoint stops here and joins its calls
}

void McpHttpTransport::handle(const HttpRequest& request, HttpExchange& exchange) {
  end_idle_sessions();
  if (const auto refused = refusal(request)) {
    // Closed after the refusal, so a client without the token, or at the wrong path, holds no
    // connection slot by repeating requests.
    HttpHeaders headers{{"Connection", "close"}};
    if (refused->first == 401) headers.emplace_back("WWW-Authenticate", "Bearer");
    if (refused->first == 405) headers.emplace_back("Allow", "POST, DELETE");
    exchange.respond(refused->first, "text/plain", refused->second, headers);
  } else if (request.method == "POST") {
    post(request, exchange);
  } else {
    end_session(request, exchange);
  }
}

// The first check a request fails, as (status, fixed text); nullopt when it may go on.
std::optional<std::pair<int, std::string_view>> McpHttpTransport::refusal(
    const HttpRequest& request) const {
  if (request.path() != options_.path) return std::pair{404, "not the MCP endpoint"};
  if (!access_.host_allowed(request)) return std::pair{403, "host not served"};
  if (!access_.origin_allowed(request)) return std::pair{403, "origin not allowed"};
  if (access_.has_token() && !access_.has_bearer_token(request)) {
    return std::pair{401, "a bearer token is required"};
  }
  if (request.method == "GET") return std::pair{405, "GET streams are not served"};
  if (request.method != "POST" && request.method != "DELETE") {
    return std::pair{405, "only POST and DELETE"};
  }
  const std::optional<std::string_view> version = request.header("mcp-protocol-version");
  if (version && std::find(options_.protocol_versions.begin(), options_.protocol_versions.end(),
                           *version) == options_.protocol_versions.end()) {
    return std::pair{400, "unsupported MCP-Protocol-Version"};
  }
  return std::nullopt;
}

std::optional<McpHttpTransport::SessionEntry> McpHttpTransport::find_session(
    const HttpRequest& request) {
  const std::optional<std::string_view> id = request.header("mcp-session-id");
  if (!id) return std::nullopt;
  std::lock_guard lock(mutex_);
  const auto entry = sessions_.find(std::string(*id));
  if (entry == sessions_.end()) return std::nullopt;
  entry->second.session->touch();
  return entry->second;
}

// Ends the sessions idle for session_idle_timeout. They are destroyed here, outside the lock: an
// ending session stops and joins the calls its clients left behind.
void McpHttpTransport::end_idle_sessions() {
  const auto cutoff = std::chrono::steady_clock::now() - options_.session_idle_timeout;
  std::vector<SessionEntry> ended;
  {
    std::lock_guard lock(mutex_);
    for (auto entry = sessions_.begin(); entry != sessions_.end();) {
      if (entry->second.session->idle_since(cutoff)) {
        ended.push_back(std::move(entry->second));
        entry = sessions_.erase(entry);
      } else {
        ++entry;
      }
    }
  }
  for (const SessionEntry& entry : ended) entry.session->close();
}

void McpHttpTransport::post(const HttpRequest& request, HttpExchange& exchange) {
  if (!request.header("content-type").value_or("").starts_with(kJson)) {
    exchange.respond(415, "text/plain", "Content-Type must be application/json");
    return;
  }
  Result<Json> message = parse_json(request.body, kMessageLimits);
  if (!message.ok() || !message->is_object()) {
    exchange.respond(400, kJson, rpc_error_body(nullptr, -32700, "Parse error").dump());
    return;
  }
  if (field_equals(*message, "method", "initialize") && message->contains("id")) {
    initialize(request, *message, exchange);
    return;
  }
  const std::optional<SessionEntry> entry = find_session(request);
  if (!entry) {
    const bool sent = request.header("mcp-session-id").has_value();
    exchange.respond(sent ? 404 : 400, "text/plain",
                     sent ? "unknown session" : "Mcp-Session-Id is required");
    return;
  }
  if (!is_request(*message)) {
    entry->endpoint->handle_line(request.body);
    exchange.respond(202, "", "");
    return;
  }
  Session& session = *entry->session;
  const Json id = (*message)["id"];
  auto waiter = session.expect(id, message->value("params", Json::object()));
  if (!waiter) {
    exchange.respond(400, kJson, rpc_error_body(id, -32600, "Duplicate request id").dump());
    return;
  }
  entry->endpoint->handle_line(request.body);
  session.answer(id, *waiter, request, exchange, {});
}

void McpHttpTransport::initialize(const HttpRequest& request, const Json& message,
                                  HttpExchange& exchange) {
  auto session = std::make_shared<Session>();
  const SessionEntry entry{
      session, make_endpoint_([weak = std::weak_ptr<Session>(session)](const Json& message) {
        if (auto alive = weak.lock()) alive->deliver(message);
      })};
  const std::string id = internal::random_hex(16);
  if (id.empty()) {
    exchange.respond(503, "text/plain", "no session id could be drawn");
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (sessions_.size() >= options_.max_sessions) {
      exchange.respond(503, "text/plain", "too many sessions");
      return;
    }
    sessions_.emplace(id, entry);
  }
  auto waiter = session->expect(message["id"], message.value("params", Json::object()));
  entry.endpoint->handle_line(request.body);
  session->answer(message["id"], *waiter, request, exchange, {{"Mcp-Session-Id", id}});
}

void McpHttpTransport::end_session(const HttpRequest& request, HttpExchange& exchange) {
  std::optional<SessionEntry> entry;
  {
    std::lock_guard lock(mutex_);
    const auto found = sessions_.find(std::string(request.header("mcp-session-id").value_or("")));
    if (found != sessions_.end()) {
      entry = std::move(found->second);
      sessions_.erase(found);
    }
  }
  if (!entry) {
    exchange.respond(404, "text/plain", "unknown session");
    return;
  }
  entry->session->close();
  exchange.respond(204, "", "");
}

}  // namespace codemode::mcp
