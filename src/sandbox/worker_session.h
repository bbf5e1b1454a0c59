// WorkerSession is one execution's conversation with one worker, on the thread that called the
// adapter: a single poll() loop over the worker's stdout (frames), its stderr (drained and only
// counted), its stdin (frames written as the pipe takes them) and the mailbox where the ToolBridge
// leaves its answers. It owns the worker: destroying the session kills and reaps it.
//
// The worker is untrusted. Anything but the documented sequence ends the session with
// sandbox_error: a first frame other than "confined" (or end of stream before it), a malformed,
// oversized or unexpected frame, a toolCall whose callId is not exactly the next of 1, 2, 3, ...
// or beyond maxToolCalls (the worker answers those itself), more than 64 KiB of stderr, or end of
// stdout before the result.
//
// Thread-safety: run is called once, on one thread. The bridge's callbacks may run anywhere.
#ifndef CODEMODE_SANDBOX_WORKER_SESSION_H_
#define CODEMODE_SANDBOX_WORKER_SESSION_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "codemode/sandbox.h"
#include "sandbox/frame_codec.h"
#include "sandbox/tool_result_mailbox.h"
#include "sandbox/worker_messages.h"
#include "sandbox/worker_process.h"

namespace codemode::internal {

// Most a worker may write to stderr over its life; past it the execution fails (sandbox_error).
inline constexpr std::size_t kMaxWorkerStderrBytes = 64u << 10;
// The most the parent keeps queued for a worker that does not read its stdin: a few tool results
// at the program's own cap on top of a fixed allowance. A worker that lets more pile up (by never
// reading, or by flooding calls while it computes) ends with sandbox_error instead of growing the
// parent's memory by up to maxToolCalls results.
inline constexpr std::size_t kOutboundAllowanceBytes = 16u << 20;
inline constexpr std::size_t kOutboundResultFrames = 4;

class WorkerSession {
 public:
  // Borrows `request` and `bridge`: both must outlive run(). REQUIRES: mailbox is not null.
  WorkerSession(WorkerProcess worker, std::shared_ptr<ToolResultMailbox> mailbox,
                const SandboxRequest& request, ToolBridge& bridge);
  // Closes the mailbox (later bridge answers are dropped), then kills and reaps the worker.
  ~WorkerSession();
  WorkerSession(const WorkerSession&) = delete;
  WorkerSession& operator=(const WorkerSession&) = delete;

  // Sends the start frame and relays until the worker's result, a failure, or `stop` (then
  // sandbox_error at once; the executor reports the timeout or cancellation). Never calls the
  // bridge after returning.
  SandboxResult run(std::stop_token stop);

 private:
  void step();
  void read_stdout();
  void handle_frame(Json frame);
  void start_tool_call(ToolCallMessage call);
  void drain_stderr();
  void queue_tool_results();
  void queue_frame(const Json& message, std::size_t cap);
  void write_stdin();
  void worker_ended();
  void fail(SandboxFailureReason reason = SandboxFailureReason::kSandboxError);
  bool done() const { return result_.has_value() || failure_.has_value(); }

  WorkerProcess worker_;
  const std::shared_ptr<ToolResultMailbox> mailbox_;
  const SandboxRequest& request_;
  ToolBridge& bridge_;
  const std::size_t tool_result_cap_;
  const std::size_t outbound_cap_;  // see kOutboundAllowanceBytes
  FrameReader reader_;
  // Frames waiting for the worker to read them, at most outbound_cap_ bytes in all (the start frame
  // is always admitted).
  std::deque<std::string> outbound_;
  std::size_t outbound_bytes_ = 0;
  std::size_t outbound_offset_ = 0;  // bytes of outbound_.front() already written
  bool confined_ = false;
  std::uint64_t next_call_id_ = 1;
  std::size_t stderr_bytes_ = 0;
  std::optional<SandboxResult> result_;
  std::optional<SandboxFailureReason> failure_;  // sticky: the first failure decides
};

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_WORKER_SESSION_H_
