#include "worker/tool_calls.h"

#include <utility>

#include "protocol/tool_refusal.h"

namespace codemode::worker {
namespace {

// The host's own refusal for `code` and `rule`, as the guest sees it. The rules are the parent's
// for the same checks (docs/protocol.md), so a program cannot tell who answered.
ToolCallAdmission local_refusal(ErrorCode code, std::string_view rule) {
  const Json answer = internal::bridge_refusal(code, rule).to_json();
  return ToolCallAdmission{.call_id = 0, .local_answer = answer.dump()};
}

}  // namespace

ToolCalls::ToolCalls(FrameChannel& channel, const WorkerLimits& limits, ProgramProfile profile)
    : channel_(channel),
      limits_(limits),
      queue_over_limit_(profile == ProgramProfile::kModel && limits.max_tool_concurrency > 0) {}

std::size_t ToolCalls::max_input_units() const {
  // A UTF-8 byte count is never below the UTF-16 unit count, so a longer text cannot fit.
  return static_cast<std::size_t>(limits_.max_tool_input_bytes);
}

Result<ToolCallAdmission> ToolCalls::submit(const GuestToolCall& call) {
  if (closed_) return local_refusal(ErrorCode::kLimitExceeded, "bridge_closed");
  if (!call.tool_id) return local_refusal(ErrorCode::kInvalidInput, "invalid_tool_id");
  if (!call.input_json) return local_refusal(ErrorCode::kInvalidInput, "max_tool_input_bytes");
  if (calls_made_ >= limits_.max_tool_calls) {
    return local_refusal(ErrorCode::kLimitExceeded, "max_tool_calls");
  }
  Result<Json> input =
      parse_json(*call.input_json, program_json_limits(limits_.max_tool_input_bytes));
  if (!input.ok()) return local_refusal(ErrorCode::kInvalidInput, "max_tool_input_bytes");
  const std::uint64_t call_id = ++calls_made_;
  if (queue_over_limit_ && (in_flight_ >= limits_.max_tool_concurrency || !waiting_.empty())) {
    waiting_.push_back({call_id, *call.tool_id, std::move(*input)});
    return ToolCallAdmission{.call_id = call_id, .local_answer = {}};
  }
  Status sent = send(call_id, *call.tool_id, std::move(*input));
  if (!sent.ok()) return std::move(sent).error();
  return ToolCallAdmission{.call_id = call_id, .local_answer = {}};
}

Status ToolCalls::send(std::uint64_t call_id, std::string_view tool_id, Json input) {
  ++in_flight_;
  return channel_.write(tool_call_message(call_id, tool_id, std::move(input)));
}

Status ToolCalls::answered() {
  if (in_flight_ > 0) --in_flight_;
  while (!closed_ && !waiting_.empty() && in_flight_ < limits_.max_tool_concurrency) {
    WaitingCall next = std::move(waiting_.front());
    waiting_.pop_front();
    if (Status sent = send(next.call_id, next.tool_id, std::move(next.input)); !sent.ok()) {
      return sent;
    }
  }
  return {};
}

}  // namespace codemode::worker
