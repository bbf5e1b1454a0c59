// The parent's side of the worker's messages (docs/protocol.md): the frames it writes (start,
// toolResult) and strict checks of the frames it reads (confined, toolCall, result). A frame that
// is not exactly one of the documented shapes is refused; the refusal never quotes the frame.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_PROTOCOL_PARENT_END_H_
#define CODEMODE_PROTOCOL_PARENT_END_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/sandbox.h"

#include "protocol/frame_format.h"

namespace codemode::internal {

// {"type":"start","version":1,"source","input","limits":{cpuMillis, wallTimeMillis, memoryBytes,
//  maxOutputBytes, maxToolInputBytes, maxToolCalls, stackBytes}}; stackBytes is the adapter's
// (ProcessAdapterOptions::stack_bytes), the rest the program's.
Json start_message(const SandboxRequest& request, std::int64_t stack_bytes);

// {"type":"toolResult","callId","status","hasOutput":true,"output"} or
// {"type":"toolResult","callId","status","hasOutput":false,"error":{"code","rule","message"}}
Json tool_result_message(std::uint64_t call_id, const CodeToolOutcome& outcome);

// OK for {"type":"confined","version":1,"layers":[strings]} whose layers are exactly `expected`,
// in order (confinement_layers in frame_format.h).
Status check_confined_message(const Json& frame,
                              std::span<const std::string_view> expected = kConfinementLayers);

// {"type":"toolCall","callId":n,"toolId":"...","input":<json>}. The call id's order is the
// caller's to check.
struct ToolCallMessage {
  std::uint64_t call_id = 0;
  std::string tool_id;
  Json input;
};

// A toolCall, or the worker's final result as a SandboxResult of one valid shape (sandbox.h):
//   {"type":"result","status":"succeeded","hasOutput":true,"output"}
//   {"type":"result","status":"failed","reason":<known>,"programError"?:{"name","message"}}
// (a failed result may also carry "hasOutput":false). programError only with program_error.
using WorkerMessage = std::variant<ToolCallMessage, SandboxResult>;
Result<WorkerMessage> parse_worker_message(Json frame);

}  // namespace codemode::internal

#endif  // CODEMODE_PROTOCOL_PARENT_END_H_
