#include "mcp/downstream_client.h"

#include <condition_variable>
#include <optional>
#include <utility>

#include "mcp/mcp_server.h"

namespace codemode::mcp {
namespace {

constexpr int kMaxListPages = 64;

Error handshake_error() {
  return Error{ErrorCode::kToolFailed, "downstream_handshake",
               "The downstream MCP server did not complete initialize."};
}

bool speaks_our_version(const Json& result) {
  if (!result.is_object() || !result.contains("protocolVersion")) return false;
  for (std::string_view version : kProtocolVersions) {
    if (result.at("protocolVersion") == version) return true;
  }
  return false;
}

}  // namespace

Result<Json> DownstreamClient::request_sync(DownstreamConnection& connection,
                                            std::string_view method, Json params) {
  struct Slot {
    std::mutex mu;
    std::condition_variable done;
    std::optional<Result<Json>> result;
  };
  auto slot = std::make_shared<Slot>();
  std::stop_source timeout;
  connection.request(method, std::move(params), timeout.get_token(), [slot](Result<Json> result) {
    std::lock_guard lock(slot->mu);
    slot->result.emplace(std::move(result));
    slot->done.notify_all();
  });
  std::unique_lock lock(slot->mu);
  if (!slot->done.wait_for(lock, config_.timeout, [&] { return slot->result.has_value(); })) {
    lock.unlock();
    timeout.request_stop();  // completes the request with CANCELLED
    lock.lock();
    slot->done.wait(lock, [&] { return slot->result.has_value(); });
    return Error{ErrorCode::kTimeout, "downstream_timeout",
                 "The downstream MCP server did not answer in time."};
  }
  return std::move(*slot->result);
}

Result<std::shared_ptr<DownstreamConnection>> DownstreamClient::connect() {
  Result<std::shared_ptr<DownstreamConnection>> started = DownstreamConnection::start(
      {.path = config_.path, .argv = config_.argv, .env = config_.env, .cwd = config_.cwd});
  if (!started.ok()) return started;
  std::shared_ptr<DownstreamConnection> connection = *started;
  const Json initialize{{"protocolVersion", std::string(kLatestProtocolVersion)},
                        {"capabilities", Json::object()},
                        {"clientInfo", {{"name", "codemode"}, {"version", "0.1.0"}}}};
  Result<Json> answer = request_sync(*connection, "initialize", initialize);
  if (!answer.ok() || !speaks_our_version(*answer)) return handshake_error();
  connection->notify("notifications/initialized", Json::object());
  return connection;
}

Result<std::shared_ptr<DownstreamConnection>> DownstreamClient::connection() {
  std::lock_guard lock(mu_);
  if (connection_ && connection_->alive()) return connection_;
  connection_.reset();  // kills and reaps the dead one
  Result<std::shared_ptr<DownstreamConnection>> connected = connect();
  if (connected.ok()) connection_ = *connected;
  return connected;
}

Result<Json> DownstreamClient::list_tools() {
  Result<std::shared_ptr<DownstreamConnection>> connected = connection();
  if (!connected.ok()) return std::move(connected).error();
  Json tools = Json::array();
  Json params = Json::object();
  for (int page = 0; page < kMaxListPages; ++page) {
    Result<Json> answer = request_sync(**connected, "tools/list", params);
    if (!answer.ok()) return answer;
    if (!answer->is_object() || !answer->contains("tools") || !answer->at("tools").is_array()) {
      return Error{ErrorCode::kToolFailed, "downstream_protocol",
                   "The downstream MCP server's tools/list result is malformed."};
    }
    for (const Json& tool : answer->at("tools")) tools.push_back(tool);
    if (!answer->contains("nextCursor") || !answer->at("nextCursor").is_string()) return tools;
    params = Json{{"cursor", answer->at("nextCursor")}};
  }
  return tools;
}

void DownstreamClient::call_tool(const std::string& name, const Json& arguments,
                                 std::stop_token stop, DownstreamConnection::Completion done) {
  Result<std::shared_ptr<DownstreamConnection>> connected = connection();
  if (!connected.ok()) return done(std::move(connected).error());
  (*connected)
      ->request("tools/call", {{"name", name}, {"arguments", arguments}}, std::move(stop),
                std::move(done));
}

}  // namespace codemode::mcp
