#include "mcp/downstream/downstream_client.h"

#include <condition_variable>
#include <optional>
#include <utility>

#include "mcp/transport/mcp_endpoint.h"

namespace codemode::mcp {
namespace {

constexpr int kMaxListPages = 64;

Error handshake_error() {
  return Error::tool_failed("downstream_handshake",
                            "The downstream MCP server did not complete initialize.");
}

bool speaks_our_version(const Json& result) {
  if (!result.is_object() || !result.contains("protocolVersion")) return false;
  for (std::string_view version : kProtocolVersions) {
    if (result.at("protocolVersion") == version) return true;
  }
  return false;
}

// One request, waited for until it is answered, `timeout` passes or `abort` fires (the latter two
// cancel it, so nothing of it stays pending).
Result<Json> request_sync(DownstreamConnection& connection, std::string_view method, Json params,
                          std::chrono::milliseconds timeout, std::stop_token abort) {
  struct Slot {
    std::mutex mu;
    std::condition_variable_any done;
    std::optional<Result<Json>> result;
  };
  auto slot = std::make_shared<Slot>();
  std::stop_source cancel;
  connection.request(method, std::move(params), cancel.get_token(), [slot](Result<Json> result) {
    std::lock_guard lock(slot->mu);
    slot->result.emplace(std::move(result));
    slot->done.notify_all();
  });
  const auto answered = [&] { return slot->result.has_value(); };
  std::unique_lock lock(slot->mu);
  if (slot->done.wait_for(lock, abort, timeout, answered)) return std::move(*slot->result);
  lock.unlock();
  cancel.request_stop();  // completes the request with CANCELLED
  lock.lock();
  slot->done.wait(lock, answered);
  if (abort.stop_requested()) return call_cancelled_error();
  return Error::timeout("downstream_timeout", "The downstream MCP server did not answer in time.");
}

// Runs on a ConnectAttempt's thread. On failure the connection is destroyed here, which kills and
// reaps the half-started process.
Result<std::shared_ptr<DownstreamConnection>> connect(const DownstreamServerConfig& config,
                                                      std::stop_token abort) {
  Result<std::shared_ptr<DownstreamConnection>> started = DownstreamConnection::start(
      {.path = config.path, .argv = config.argv, .env = config.env, .cwd = config.cwd});
  if (!started.ok()) return started;
  std::shared_ptr<DownstreamConnection> connection = *started;
  const Json initialize{{"protocolVersion", std::string(kLatestProtocolVersion)},
                        {"capabilities", Json::object()},
                        {"clientInfo", {{"name", "codemode"}, {"version", "0.1.0"}}}};
  Result<Json> answer =
      request_sync(*connection, "initialize", initialize, config.timeout, std::move(abort));
  if (!answer.ok() || !speaks_our_version(*answer)) return handshake_error();
  connection->notify("notifications/initialized", Json::object());
  return connection;
}

}  // namespace

std::shared_ptr<ConnectAttempt> DownstreamClient::current_attempt() {
  // Declared before the lock, so released after it: the finished attempt it holds may own the
  // dead connection, whose teardown (kill, reap, join its reader) must not hold up other callers.
  std::shared_ptr<ConnectAttempt> finished;
  std::lock_guard lock(mu_);
  if (attempt_ && attempt_->usable()) return attempt_;
  finished = std::move(attempt_);
  // The config is copied: the attempt's thread must not depend on this client's lifetime.
  attempt_ = std::make_shared<ConnectAttempt>(
      [config = config_](std::stop_token abort) { return connect(config, std::move(abort)); });
  return attempt_;
}

Result<std::shared_ptr<DownstreamConnection>> DownstreamClient::connection(std::stop_token stop) {
  return current_attempt()->wait(std::move(stop));
}

Result<Json> DownstreamClient::list_tools() {
  Result<std::shared_ptr<DownstreamConnection>> connected = connection();
  if (!connected.ok()) return std::move(connected).error();
  Json tools = Json::array();
  Json params = Json::object();
  for (int page = 0; page < kMaxListPages; ++page) {
    Result<Json> answer = request_sync(**connected, "tools/list", params, config_.timeout, {});
    if (!answer.ok()) return answer;
    if (!answer->is_object() || !answer->contains("tools") || !answer->at("tools").is_array()) {
      return Error::tool_failed("downstream_protocol",
                                "The downstream MCP server's tools/list result is malformed.");
    }
    for (const Json& tool : answer->at("tools")) tools.push_back(tool);
    if (!answer->contains("nextCursor") || !answer->at("nextCursor").is_string()) return tools;
    params = Json{{"cursor", answer->at("nextCursor")}};
  }
  return tools;
}

void DownstreamClient::call_tool(const std::string& name, const Json& arguments,
                                 std::stop_token stop, DownstreamConnection::Completion done) {
  Result<std::shared_ptr<DownstreamConnection>> connected = connection(stop);
  if (!connected.ok()) return done(std::move(connected).error());
  (*connected)
      ->request("tools/call", {{"name", name}, {"arguments", arguments}}, std::move(stop),
                std::move(done));
}

}  // namespace codemode::mcp
