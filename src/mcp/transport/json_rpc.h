// JSON-RPC 2.0 messages as MCP uses them (one JSON object per message; batches were removed from
// MCP in 2025-06-18): strict parsing of what a peer sent, and builders for what we send.
//
// A message is bounded by the JSON boundary (codemode/json.h) before it is looked at: a line that
// is not bounded, plain JSON is a parse error (-32700), whatever the reason. Ids are strings or
// integers (MCP forbids null ids); `params` is an object when present. Internal to libcodemode.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_MCP_TRANSPORT_JSON_RPC_H_
#define CODEMODE_MCP_TRANSPORT_JSON_RPC_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "codemode/json.h"

namespace codemode::mcp {

// The JSON-RPC 2.0 error codes codemode sends.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

// Largest message codemode reads from a peer, in bytes of compact JSON.
inline constexpr std::size_t kMaxMessageBytes = 4u << 20;

struct RpcMessage {
  enum class Kind { kRequest, kNotification, kResponse } kind = Kind::kRequest;
  Json id;                       // string or integer; null for a notification
  std::string method;            // requests and notifications
  Json params = Json::object();  // requests and notifications; {} when absent
  // Responses: exactly one of result and error is set.
  std::optional<Json> result;
  std::optional<Json> error;  // {code, message, data?}
};

// Why a line is not a message, as the error response owed to the peer: `id` is the message's id
// when one could be read, else null.
struct RpcRefusal {
  int code = kInvalidRequest;
  std::string message;
  Json id;
};

// Parses one line. A response's `error` must be an object with an integer code and a string
// message. Refusals carry fixed texts naming the rule, never the peer's data.
std::variant<RpcMessage, RpcRefusal> parse_rpc_message(std::string_view text,
                                                       std::size_t max_bytes = kMaxMessageBytes);

// Reads of one field of JSON a peer sent that never throw (Json::value with a typed default throws
// on a field of another type, which a peer chooses): a value that is not an object, a missing
// field or one of another type reads as false.
bool field_is_true(const Json& object, std::string_view key);
bool field_equals(const Json& object, std::string_view key, std::string_view text);

Json rpc_result(const Json& id, Json result);
Json rpc_error(const Json& id, int code, std::string_view message);
Json rpc_request(const Json& id, std::string_view method, Json params);
Json rpc_notification(std::string_view method, Json params);

// Whether `id` is a JSON-RPC id MCP accepts: a string or an integer.
bool is_rpc_id(const Json& id);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_TRANSPORT_JSON_RPC_H_
