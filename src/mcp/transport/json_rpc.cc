#include "mcp/transport/json_rpc.h"

#include <utility>

namespace codemode::mcp {
namespace {

RpcRefusal refuse(int code, std::string message, Json id = nullptr) {
  return RpcRefusal{code, std::move(message), std::move(id)};
}

bool has_only_keys(const Json& object, std::initializer_list<std::string_view> keys) {
  for (const auto& [key, value] : object.items()) {
    bool known = false;
    for (std::string_view allowed : keys) known = known || key == allowed;
    if (!known) return false;
  }
  return true;
}

std::variant<RpcMessage, RpcRefusal> parse_call(const Json& object) {
  const Json& method = object.at("method");
  const bool has_id = object.contains("id");
  const Json id = has_id ? object.at("id") : Json(nullptr);
  if (has_id && !is_rpc_id(id))
    return refuse(kInvalidRequest, "The id is not a string or integer.");
  if (!method.is_string()) return refuse(kInvalidRequest, "The method is not a string.", id);
  if (!has_only_keys(object, {"jsonrpc", "id", "method", "params"})) {
    return refuse(kInvalidRequest, "The request has a member JSON-RPC does not define.", id);
  }
  RpcMessage message{.kind = has_id ? RpcMessage::Kind::kRequest : RpcMessage::Kind::kNotification,
                     .id = id,
                     .method = method.get<std::string>()};
  if (object.contains("params")) {
    // JSON-RPC also allows positional params; no MCP method takes them.
    if (!object.at("params").is_object()) {
      return refuse(kInvalidParams, "The params member is not an object.", id);
    }
    message.params = object.at("params");
  }
  return message;
}

bool is_error_object(const Json& error) {
  return error.is_object() && error.contains("code") && error.at("code").is_number_integer() &&
         error.contains("message") && error.at("message").is_string();
}

std::variant<RpcMessage, RpcRefusal> parse_response(const Json& object) {
  const Json& id = object.at("id");
  const bool has_result = object.contains("result");
  const bool has_error = object.contains("error");
  if (!is_rpc_id(id) && !(id.is_null() && has_error)) {
    return refuse(kInvalidRequest, "The response id is not a string or integer.");
  }
  if (has_result == has_error || !has_only_keys(object, {"jsonrpc", "id", "result", "error"})) {
    return refuse(kInvalidRequest, "The response needs exactly one of result and error.");
  }
  if (has_error && !is_error_object(object.at("error"))) {
    return refuse(kInvalidRequest, "The response's error is not a JSON-RPC error object.");
  }
  RpcMessage message{.kind = RpcMessage::Kind::kResponse, .id = id};
  if (has_result) message.result = object.at("result");
  if (has_error) message.error = object.at("error");
  return message;
}

}  // namespace

bool is_rpc_id(const Json& id) { return id.is_string() || id.is_number_integer(); }

std::variant<RpcMessage, RpcRefusal> parse_rpc_message(std::string_view text,
                                                       std::size_t max_bytes) {
  Result<Json> parsed = parse_json(text, {.max_bytes = max_bytes});
  if (!parsed.ok()) return refuse(kParseError, "The message is not bounded, plain JSON.");
  const Json& object = *parsed;
  if (!object.is_object()) return refuse(kInvalidRequest, "The message is not a JSON object.");
  const auto version = object.find("jsonrpc");
  if (version == object.end() || *version != "2.0") {
    return refuse(kInvalidRequest, "The message is not JSON-RPC 2.0.");
  }
  if (object.contains("method")) return parse_call(object);
  if (object.contains("id")) return parse_response(object);
  return refuse(kInvalidRequest, "The message is neither a request nor a response.");
}

Json rpc_result(const Json& id, Json result) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

bool field_is_true(const Json& object, std::string_view key) {
  if (!object.is_object()) return false;
  const auto found = object.find(key);
  return found != object.end() && found->is_boolean() && found->get<bool>();
}

bool field_equals(const Json& object, std::string_view key, std::string_view text) {
  if (!object.is_object()) return false;
  const auto found = object.find(key);
  return found != object.end() && found->is_string() &&
         found->get_ref<const std::string&>() == text;
}

Json rpc_error(const Json& id, int code, std::string_view message) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", code}, {"message", message}}}};
}

Json rpc_request(const Json& id, std::string_view method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

Json rpc_notification(std::string_view method, Json params) {
  return Json{{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace codemode::mcp
