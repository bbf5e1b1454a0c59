// WorkerSession is one execution's conversation with one worker, on the thread that called the
// adapter: a single poll() loop over the worker's stdout (frames), its stderr (drained, counted
// and discarded: SandboxResult::diagnostics) and its stdin (WorkerStdin: frames the pipe did not
// take at once, and the wake-up for faults and the caller's stop). The ToolBridge's call threads
// write their answers to the worker through the same WorkerStdin. The session owns the worker:
// destroying it kills and reaps it.
//
// The worker is untrusted. Anything but the documented sequence ends the session as a sandbox
// error whose fault says what went wrong (sandbox.h):
//   worker_protocol_error  a first frame other than "confined", a malformed, oversized or
//                          unexpected frame, a toolCall whose callId is not exactly the next of
//                          1, 2, 3, ... or beyond maxToolCalls (the worker answers those itself),
//                          any byte after the result, a frame cut short by the worker's own exit,
//                          or answers piling up unread (kOutboundAllowanceBytes, worker_stdin.h)
//   worker_start_failed    end of stdout before "confined"
//   worker_exited          end of stdout after "confined" but before the result
// (cpu_limit instead when the worker died of SIGXCPU; worker_process.h.)
//
// Once the result arrives the session waits up to kResultGraceMillis for the worker to close its
// stdout (the real worker exits right after its result), so a second result or trailing bytes
// are caught rather than ignored.
//
// Thread-safety: run is called once, on one thread. The bridge's callbacks may run anywhere.
#ifndef CODEMODE_SANDBOX_PROCESS_WORKER_SESSION_H_
#define CODEMODE_SANDBOX_PROCESS_WORKER_SESSION_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stop_token>
#include <string_view>

#include "codemode/sandbox.h"

#include "protocol/frame_codec.h"
#include "protocol/frame_format.h"
#include "protocol/parent_end.h"
#include "sandbox/process/adaptive_poll.h"
#include "sandbox/process/worker_process.h"
#include "sandbox/process/worker_stdin.h"

namespace codemode::internal {

// How long the parent waits, after the result, for the worker to close its stdout.
inline constexpr int kResultGraceMillis = 250;
// One pipe's worth: a read never takes more than the kernel's default pipe buffer.
inline constexpr std::size_t kReadChunkBytes = 64u << 10;

class WorkerSession {
 public:
  // Borrows `request` and `bridge`: both must outlive run(). The confined frame must name exactly
  // `expected_layers` (static storage: confinement_layers in frame_format.h). nullptr when the
  // parent's side could not be set up (no eventfd); the worker is then killed and reaped.
  // `stack_bytes` is the engine's stack quota, sent in the start frame.
  static std::unique_ptr<WorkerSession> create(
      WorkerProcess worker, const SandboxRequest& request, ToolBridge& bridge,
      std::span<const std::string_view> expected_layers = kConfinementLayers,
      std::int64_t stack_bytes = kMaxEngineStackBytes);
  // Closes the worker's stdin to later bridge answers (they are dropped), then kills and reaps
  // the worker.
  ~WorkerSession();
  WorkerSession(const WorkerSession&) = delete;
  WorkerSession& operator=(const WorkerSession&) = delete;

  // Sends the start frame and relays until the worker's result, a failure, or `stop` (then
  // sandbox_error at once, with no fault; the executor reports the timeout or cancellation).
  // Never calls the bridge after returning.
  SandboxResult run(std::stop_token stop);

 private:
  WorkerSession(WorkerProcess worker, std::shared_ptr<WorkerStdin> stdin_writer,
                const SandboxRequest& request, ToolBridge& bridge,
                std::span<const std::string_view> expected_layers, std::int64_t stack_bytes);

  // One poll() round of at most `timeout_millis` (-1: no limit).
  void step(int timeout_millis);
  void wait_for_end_of_stdout(const std::stop_token& stop);
  void read_stdout();
  void read_frames();
  void handle_frame(Json frame);
  void start_tool_call(ToolCallMessage call);
  void drain_stderr();
  void on_wake();
  void send_start_frame();
  void worker_ended();
  void fail(SandboxResult failure);
  // The worker broke the protocol.
  void protocol_error() { fail(SandboxResult::failure(SandboxFault::kWorkerProtocolError)); }
  // The parent's own side failed (or was stopped): no fault to name.
  void host_failure() { fail(SandboxResult::failure(SandboxFailureReason::kSandboxError)); }
  bool done() const { return result_.has_value() || failure_.has_value(); }
  std::span<char> read_space() const { return {read_buffer_.get(), kReadChunkBytes}; }

  WorkerProcess worker_;
  // Writes to worker_.stdin_fd, which stays open until the destructor closed it.
  const std::shared_ptr<WorkerStdin> stdin_;
  const SandboxRequest& request_;
  ToolBridge& bridge_;
  const std::span<const std::string_view> expected_layers_;
  const std::int64_t stack_bytes_;
  const std::size_t tool_result_cap_;
  FrameReader reader_;
  // kReadChunkBytes, not zero-filled; every read of stdout and stderr reuses it.
  const std::unique_ptr<char[]> read_buffer_;
  AdaptivePoll poller_;
  bool confined_ = false;
  std::uint64_t next_call_id_ = 1;
  std::optional<SandboxResult> result_;
  std::optional<SandboxResult> failure_;  // sticky: the first failure decides, even after result_
  WorkerDiagnostics diagnostics_;         // the stderr bytes seen, up to their cap
};

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_WORKER_SESSION_H_
