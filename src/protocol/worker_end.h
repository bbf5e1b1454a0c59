// The worker's messages of the wire protocol (docs/protocol.md): the two it reads (start,
// toolResult), checked field by field, and the three it writes (confined, toolCall, result).
// Anything malformed or unexpected is an Error with rule worker_protocol_error; the message names
// the field and never quotes the frame.
#ifndef CODEMODE_PROTOCOL_WORKER_END_H_
#define CODEMODE_PROTOCOL_WORKER_END_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/program.h"

#include "protocol/completion.h"

namespace codemode::worker {

// The program's limits as the start frame carries them (each 1..its CodeLimitMaxima maximum).
struct WorkerLimits {
  std::uint64_t cpu_millis = 0;
  std::uint64_t wall_time_millis = 0;
  std::uint64_t memory_bytes = 0;
  std::uint64_t max_output_bytes = 0;
  std::uint64_t max_tool_input_bytes = 0;
  std::uint64_t max_tool_calls = 0;
  std::uint64_t stack_bytes = 0;  // the engine's stack quota for this program
  // Tool calls in flight at once (optional in the frame: 0 when absent). The model profile queues
  // calls past it in the worker; the parent enforces it either way.
  std::uint64_t max_tool_concurrency = 0;
};

// {"type":"start","version":1,"source":"...","input":<json>,"limits":{...},
//  "profile"?:"standard"|"model","language"?:"javascript"|"typescript"}
struct StartRequest {
  std::string source;      // UTF-8, 1 byte .. 1 MiB
  std::string input_json;  // the input, written compactly
  WorkerLimits limits;
  ProgramProfile profile = ProgramProfile::kStandard;
  ProgramLanguage language = ProgramLanguage::kJavaScript;
};
Result<StartRequest> parse_start(const Json& frame);

// {"type":"toolResult","callId":n,"status":...,"hasOutput":bool,"output"|"error":...}, reduced
// to what the guest sees: {status, output} or {status, error:{code, rule, message}} as JSON text.
struct ToolAnswer {
  std::uint64_t call_id = 0;
  std::string guest_json;
};
Result<ToolAnswer> parse_tool_result(const Json& frame, const WorkerLimits& limits);

Json confined_message(const std::vector<std::string>& layers);
Json tool_call_message(std::uint64_t call_id, std::string_view tool_id, Json input);
Json result_message(const Completion& completion);

// The JSON limits of the program's values: byte cap `max_bytes`, depth 32, 100,000 values.
JsonLimits program_json_limits(std::uint64_t max_bytes);

}  // namespace codemode::worker

#endif  // CODEMODE_PROTOCOL_WORKER_END_H_
