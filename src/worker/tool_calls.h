// The worker side of tools.call: decides on each call the program makes. Calls it can answer
// itself (malformed input, past maxToolCalls) get the same refusal the host would send; the rest
// go to the parent as toolCall frames with callIds 1, 2, 3, ...
//
// The parent re-checks every call; answering locally only keeps a flood of calls inside the
// sandbox.
#ifndef CODEMODE_WORKER_TOOL_CALLS_H_
#define CODEMODE_WORKER_TOOL_CALLS_H_

#include <cstdint>

#include "protocol/worker_end.h"
#include "worker/engine/engine.h"
#include "worker/frame_channel.h"

namespace codemode::worker {

class ToolCalls final : public ToolCallHost {
 public:
  // Borrows `channel`, which must outlive this.
  ToolCalls(FrameChannel& channel, const WorkerLimits& limits);

  std::size_t max_input_units() const override;

  // In order (code, rule): closed -> LIMIT_EXCEEDED bridge_closed; a tool id the engine could not
  // read -> INVALID_INPUT invalid_tool_id; an input it could not read -> INVALID_INPUT
  // max_tool_input_bytes; maxToolCalls calls already made -> LIMIT_EXCEEDED max_tool_calls; input
  // not bounded plain JSON within maxToolInputBytes -> INVALID_INPUT max_tool_input_bytes;
  // otherwise a toolCall frame. Only a failed write is an Error.
  Result<ToolCallAdmission> submit(const GuestToolCall& call) override;
  // Later calls get LIMIT_EXCEEDED, as the host answers calls after an execution ended.
  void close() override { closed_ = true; }

  std::uint64_t calls_made() const { return calls_made_; }

 private:
  FrameChannel& channel_;
  WorkerLimits limits_;
  std::uint64_t calls_made_ = 0;
  bool closed_ = false;
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_TOOL_CALLS_H_
