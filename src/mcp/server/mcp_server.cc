#include "mcp/server/mcp_server.h"

#include <utility>
#include <variant>

#include "codemode/budget.h"
#include "codemode/code_mode.h"
#include "codemode/rules.h"

#include "mcp/catalog/mcp_codes.h"
#include "mcp/catalog/tool_results.h"

namespace codemode::mcp {
namespace {

Permissions grants_for(const ToolCatalog& catalog) {
  Permissions permissions;
  for (const Tool& tool : catalog.tools()) {
    for (std::string& grant : required_grants(tool)) permissions.allow.push_back(std::move(grant));
  }
  return permissions;
}

std::string negotiate_version(const Json& requested) {
  for (std::string_view version : kProtocolVersions) {
    if (requested == version) return std::string(version);
  }
  return std::string(kLatestProtocolVersion);
}

}  // namespace

McpServer::McpServer(McpServerOptions options, SendFn send)
    : options_(std::move(options)),
      send_(std::move(send)),
      grants_(grants_for(options_.catalog)),
      capacity_(options_.capacity ? options_.capacity : ServerCapacity::create(options_.policy)) {}

void McpServer::handle_line(std::string_view line) {
  std::variant<RpcMessage, RpcRefusal> parsed = parse_rpc_message(line);
  if (const RpcRefusal* refusal = std::get_if<RpcRefusal>(&parsed)) {
    send_(rpc_error(refusal->id, refusal->code, refusal->message));
    return;
  }
  const RpcMessage& message = std::get<RpcMessage>(parsed);
  try {
    handle(message);
  } catch (...) {
    // One message's failure (a bug, an allocation) must not end the server and every session's
    // calls with it: a request hears an internal error, a notification nothing.
    if (message.kind == RpcMessage::Kind::kRequest) {
      send_(rpc_error(message.id, kInternalError, "Internal error"));
    }
  }
}

void McpServer::handle(const RpcMessage& message) {
  switch (message.kind) {
    case RpcMessage::Kind::kRequest:
      return handle_request(message);
    case RpcMessage::Kind::kNotification:
      return handle_notification(message);
    case RpcMessage::Kind::kResponse:
      return;  // this server sends no requests, so a response answers nothing
  }
}

void McpServer::handle_request(const RpcMessage& request) {
  const std::string& method = request.method;
  if (method == "ping") return send_(rpc_result(request.id, Json::object()));
  if (method == "initialize") {
    if (initialized_) return send_(rpc_error(request.id, kInvalidRequest, "Already initialized."));
    if (!request.params.contains("protocolVersion") ||
        !request.params.at("protocolVersion").is_string()) {
      return send_(rpc_error(request.id, kInvalidParams, "protocolVersion must be a string."));
    }
    initialized_ = true;
    return send_(rpc_result(request.id, initialize(request.params)));
  }
  if (!initialized_) {
    return send_(rpc_error(request.id, kInvalidRequest, "The server is not initialized."));
  }
  if (method == "tools/list") {
    if (request.params.contains("cursor")) {
      return send_(
          rpc_error(request.id, kInvalidParams, "The cursor is not one this server gave."));
    }
    const Json tools =
        options_.code_tool ? Json::array({options_.code_tool->listing()}) : options_.catalog.list();
    return send_(rpc_result(request.id, Json{{"tools", tools}}));
  }
  if (method == "tools/call") return call_tool(request);
  send_(rpc_error(request.id, kMethodNotFound, "The method is not one this server serves."));
}

void McpServer::handle_notification(const RpcMessage& notification) {
  if (notification.method != "notifications/cancelled") return;
  const Json& params = notification.params;
  if (params.contains("requestId") && is_rpc_id(params.at("requestId"))) {
    calls_.cancel(params.at("requestId").dump());
  }
}

Json McpServer::initialize(const Json& params) {
  Json result{{"protocolVersion", negotiate_version(params.at("protocolVersion"))},
              {"capabilities", {{"tools", {{"listChanged", false}}}}},
              {"serverInfo", {{"name", "codemode"}, {"version", "0.1.0"}}}};
  if (!options_.instructions.empty()) result["instructions"] = options_.instructions;
  return result;
}

void McpServer::call_tool(const RpcMessage& request) {
  const Json& params = request.params;
  if (!params.contains("name") || !params.at("name").is_string()) {
    return send_(rpc_error(request.id, kInvalidParams, "name must be a string."));
  }
  if (params.contains("arguments") && !params.at("arguments").is_object()) {
    return send_(rpc_error(request.id, kInvalidParams, "arguments must be an object."));
  }
  if (options_.code_tool) return call_code_tool(request);
  const CatalogEntry* entry = options_.catalog.find(params.at("name").get<std::string>());
  if (!entry) return send_(rpc_error(request.id, kInvalidParams, "Unknown tool."));
  admit(request, [this, request, entry](std::stop_token stop) {
    return run_call(request, *entry, std::move(stop));
  });
}

void McpServer::call_code_tool(const RpcMessage& request) {
  if (request.params.at("name") != "code") {
    return send_(rpc_error(request.id, kInvalidParams, "Unknown tool."));
  }
  admit(request, [this, request](std::stop_token stop) {
    std::unique_ptr<ProgressHeartbeat> progress = progress_for(request.params);
    return options_.code_tool->call(request.params.value("arguments", Json::object()), stop);
  });
}

void McpServer::admit(const RpcMessage& request, AnswerFn answer) {
  const Json at_capacity = rpc_result(
      request.id,
      tool_error_result(codes::kServerInvocationsLimit, "server invocation capacity is exhausted"));
  std::shared_ptr<ServerCapacity::Slot> slot = capacity_->try_start_invocation();
  if (!slot) return send_(at_capacity);
  auto call = [this, id = request.id, slot = std::move(slot), answer = std::move(answer)](
                  std::stop_token stop, const std::function<bool()>& cancelled) mutable {
    Json result;
    try {
      result = answer(std::move(stop));
    } catch (...) {
      // On a call thread an exception would end the process: it becomes a fixed error instead.
      result = tool_error_result(rules::kInternalError, "The call failed inside the server.");
    }
    // Free before the client hears back, so its next call is not refused spuriously.
    slot.reset();
    if (!cancelled()) send_(rpc_result(id, std::move(result)));  // MCP: no answer once cancelled
  };
  const CallRegistry::Admission admission = calls_.start(request.id.dump(), std::move(call));
  if (admission == CallRegistry::Admission::kDuplicateId) {
    send_(rpc_error(request.id, kInvalidRequest, "A request with this id is in flight."));
  } else if (admission != CallRegistry::Admission::kStarted) {
    send_(at_capacity);
  }
}

std::unique_ptr<ProgressHeartbeat> McpServer::progress_for(const Json& request_params) {
  const Json meta = request_params.value("_meta", Json::object());
  if (!meta.is_object() || !meta.contains("progressToken")) return nullptr;
  const Json& token = meta.at("progressToken");
  if (!is_rpc_id(token)) return nullptr;
  return std::make_unique<ProgressHeartbeat>(send_, token, options_.progress_interval);
}

Json McpServer::run_call(const RpcMessage& request, const CatalogEntry& entry,
                         std::stop_token stop) {
  std::unique_ptr<ProgressHeartbeat> progress = progress_for(request.params);
  const ToolOutcome outcome =
      dispatch(entry, request.params.value("arguments", Json::object()), std::move(stop));
  progress.reset();  // no progress after this point; see progress_heartbeat.h
  return call_tool_result(outcome, entry);
}

ToolOutcome McpServer::dispatch(const CatalogEntry& entry, const Json& input,
                                std::stop_token stop) {
  Result<std::unique_ptr<ServerCapacity::HostOperation>> slot =
      capacity_->wait_for_host_operation(stop);
  if (!slot.ok()) return ToolOutcome::failed(std::move(slot).error());
  // A fresh budget per call: one call at most the tool's declared cost.
  Result<std::shared_ptr<Budget>> budget =
      Budget::create({.max_cost_micros = entry.tool.cost_micros(), .max_calls = 1});
  const std::string call_id = "mcp:" + std::to_string(next_call_++);
  const BrokerContext context{.run_id = "mcp",
                              .execution_id = call_id,
                              .call_id = call_id,
                              .scope = {.principal_id = "mcp-client", .project_id = "mcp"},
                              .stop_token = std::move(stop),
                              .max_tool_input_bytes = options_.max_tool_input_bytes,
                              .max_output_bytes = options_.max_tool_output_bytes};
  return standard_broker({.permissions = grants_, .budget = *budget})(entry.tool, input, context);
}

}  // namespace codemode::mcp
