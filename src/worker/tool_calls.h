// The worker side of tools.call: decides on each call the program makes. Calls it can answer
// itself (malformed input, past maxToolCalls) get the same refusal the host would send; the rest
// go to the parent as toolCall frames with callIds 1, 2, 3, ...
//
// The parent re-checks every call; answering locally only keeps a flood of calls inside the
// sandbox.
#ifndef CODEMODE_WORKER_TOOL_CALLS_H_
#define CODEMODE_WORKER_TOOL_CALLS_H_

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>

#include "codemode/program.h"

#include "protocol/worker_end.h"
#include "worker/engine/engine.h"
#include "worker/frame_channel.h"

namespace codemode::worker {

// In the model profile, a call admitted while maxToolConcurrency calls are in flight (or while
// others wait) waits here, in order, with its call id already given; its toolCall frame goes out
// when an answer frees a slot (answered). So at most maxToolConcurrency calls are ever in flight
// and call ids reach the parent in order. The standard profile sends every call at once and the
// parent refuses the one over the limit.
class ToolCalls final : public ToolCallHost {
 public:
  // Borrows `channel`, which must outlive this.
  ToolCalls(FrameChannel& channel, const WorkerLimits& limits,
            ProgramProfile profile = ProgramProfile::kStandard);

  std::size_t max_input_units() const override;

  // In order (code, rule): closed -> LIMIT_EXCEEDED bridge_closed; a tool id the engine could not
  // read -> INVALID_INPUT invalid_tool_id; an input it could not read -> INVALID_INPUT
  // max_tool_input_bytes; maxToolCalls calls already made -> LIMIT_EXCEEDED max_tool_calls; input
  // not bounded plain JSON within maxToolInputBytes -> INVALID_INPUT max_tool_input_bytes;
  // otherwise a toolCall frame. Only a failed write is an Error.
  Result<ToolCallAdmission> submit(const GuestToolCall& call) override;
  // Later calls get LIMIT_EXCEEDED, as the host answers calls after an execution ended; waiting
  // calls are never sent.
  void close() override {
    closed_ = true;
    waiting_.clear();
  }

  // A toolResult frame arrived: one call fewer in flight, and the next waiting call goes out.
  Status answered();

  std::uint64_t calls_made() const { return calls_made_; }

 private:
  struct WaitingCall {
    std::uint64_t call_id;
    std::string tool_id;
    Json input;
  };

  Status send(std::uint64_t call_id, std::string_view tool_id, Json input);

  FrameChannel& channel_;
  WorkerLimits limits_;
  bool queue_over_limit_;
  std::uint64_t calls_made_ = 0;
  std::uint64_t in_flight_ = 0;
  std::deque<WaitingCall> waiting_;
  bool closed_ = false;
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_TOOL_CALLS_H_
