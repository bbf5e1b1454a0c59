#include "sandbox/process/worker_session.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <utility>
#include <variant>

#include <errno.h>
#include <poll.h>

#include "core/process/pipe_io.h"
#include "protocol/frame_format.h"

namespace codemode::internal {
namespace {

// The start frame holds the source (each byte at worst a six-byte \u00XX escape), the input
// (within maxInputBytes, checked by the executor) and the envelope (docs/protocol.md).
std::size_t start_frame_cap_for(const CodeProgram& program) {
  const std::size_t cap = 6 * program.source().size() +
                          static_cast<std::size_t>(program.limits().max_input_bytes) +
                          kFrameEnvelopeBytes;
  return std::min(cap, start_frame_cap());
}

// The worker's stdin queues at most this much beyond a first frame: see kOutboundAllowanceBytes.
std::size_t stdin_cap_for(const CodeProgram& program) {
  return kOutboundAllowanceBytes +
         kOutboundResultFrames * tool_result_frame_cap(program.limits().max_output_bytes);
}

// Runs on the bridge's thread: the answer goes into the worker's stdin from here. A failure to
// encode it fails the session rather than leave the program waiting for an answer that never
// comes.
void send_tool_result(WorkerStdin& stdin_writer, std::uint64_t call_id,
                      const CodeToolOutcome& outcome, std::size_t cap) noexcept {
  try {
    Result<std::string> frame = encode_frame(tool_result_message(call_id, outcome), cap);
    // The parent's own frame; the bridge bounds its values, so this is the parent's failure.
    if (!frame.ok()) return stdin_writer.fail(WorkerStdin::Fault::kHost);
    stdin_writer.send(std::move(*frame));
  } catch (...) {
    stdin_writer.fail(WorkerStdin::Fault::kHost);  // out of memory
  }
}

}  // namespace

std::unique_ptr<WorkerSession> WorkerSession::create(
    WorkerProcess worker, const SandboxRequest& request, ToolBridge& bridge,
    std::span<const std::string_view> expected_layers, std::int64_t stack_bytes) {
  std::shared_ptr<WorkerStdin> stdin_writer =
      WorkerStdin::create(worker.stdin_fd.get(), stdin_cap_for(request.program));
  if (!stdin_writer) return nullptr;
  return std::unique_ptr<WorkerSession>(new WorkerSession(
      std::move(worker), std::move(stdin_writer), request, bridge, expected_layers, stack_bytes));
}

WorkerSession::WorkerSession(WorkerProcess worker, std::shared_ptr<WorkerStdin> stdin_writer,
                             const SandboxRequest& request, ToolBridge& bridge,
                             std::span<const std::string_view> expected_layers,
                             std::int64_t stack_bytes)
    : worker_(std::move(worker)),
      stdin_(std::move(stdin_writer)),
      request_(request),
      bridge_(bridge),
      expected_layers_(expected_layers),
      stack_bytes_(stack_bytes),
      tool_result_cap_(tool_result_frame_cap(request.program.limits().max_output_bytes)),
      reader_(worker_frame_cap(request.program.limits().max_output_bytes,
                               request.program.limits().max_tool_input_bytes)),
      read_buffer_(std::make_unique_for_overwrite<char[]>(kReadChunkBytes)) {}

WorkerSession::~WorkerSession() { stdin_->close(); }

SandboxResult WorkerSession::run(std::stop_token stop) {
  // This is the caller's thread: the answers of non_blocking tools are written here, and such
  // tools run here, so a write to a closed pipe must fail with EPIPE, not end the host.
  const ScopedSigpipeBlock no_sigpipe;
  std::stop_callback wake_on_stop(stop, [stdin_writer = stdin_] { stdin_writer->wake(); });
  send_start_frame();
  while (!done()) {
    if (stop.stop_requested()) {
      host_failure();
      break;
    }
    step(-1);
  }
  stdin_->close();  // the result or a failure decided: nothing more goes to the worker
  if (!failure_) wait_for_end_of_stdout(stop);
  // Whatever happens next, the worker is done: stop it now rather than when the session goes.
  worker_.process.kill();
  SandboxResult ended = failure_ ? std::move(*failure_) : std::move(*result_);
  return std::move(ended).with_diagnostics(diagnostics_);
}

// After the result: the worker's stdout ending, the grace period or the stop ends the wait with
// the result standing; any byte on stdout first is a protocol error (read_stdout).
void WorkerSession::wait_for_end_of_stdout(const std::stop_token& stop) {
  using std::chrono::steady_clock;
  const auto deadline = steady_clock::now() + std::chrono::milliseconds(kResultGraceMillis);
  while (!failure_ && worker_.stdout_fd.valid() && !stop.stop_requested()) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - steady_clock::now()).count();
    if (left <= 0) return;
    step(static_cast<int>(left));
  }
}

// One poll() round: waits until a pipe or the wake-up is ready, then serves each ready one.
void WorkerSession::step(int timeout_millis) {
  enum Slot { kWake, kStdout, kStderr, kStdin };
  std::array<pollfd, 4> fds{};
  fds[kWake] = {stdin_->wake_fd(), POLLIN, 0};
  fds[kStdout] = {worker_.stdout_fd.get(), POLLIN, 0};
  // A negative fd is skipped by poll(2): the pipe closed, or nothing to write.
  fds[kStderr] = {worker_.stderr_fd.get(), POLLIN, 0};
  fds[kStdin] = {stdin_->wants_write() ? worker_.stdin_fd.get() : -1, POLLOUT, 0};
  if (poller_.wait(fds, timeout_millis) < 0) {
    if (errno != EINTR) host_failure();
    return;
  }
  if (fds[kWake].revents != 0) on_wake();
  if (fds[kStderr].revents != 0) drain_stderr();
  if (fds[kStdin].revents != 0) stdin_->write_queued();
  if (fds[kStdout].revents != 0) read_stdout();
}

// Woken by a fault of the stdin side, a frame left for the pipe (polled for from the next round
// on), or the caller's stop (run() looks at it).
void WorkerSession::on_wake() {
  stdin_->drain_wake();  // first: a fault recorded after this wakes the next round
  switch (stdin_->fault()) {
    case WorkerStdin::Fault::kNone:
      return;
    case WorkerStdin::Fault::kOverflow:
      return protocol_error();
    case WorkerStdin::Fault::kHost:
      return host_failure();
  }
}

void WorkerSession::read_stdout() {
  if (failure_) return;
  const IoResult read = read_into(worker_.stdout_fd.get(), read_space());
  if (read.status == IoStatus::kWouldBlock) return;
  if (read.status == IoStatus::kClosed) {
    if (!result_) return worker_ended();
    worker_.stdout_fd.reset();  // the end wait_for_end_of_stdout waits for
    return;
  }
  if (read.status == IoStatus::kFailed) return host_failure();
  if (result_) return protocol_error();  // nothing may follow the result
  reader_.consume(std::string_view(read_buffer_.get(), read.bytes));
  read_frames();
}

void WorkerSession::read_frames() {
  while (!done()) {
    Result<std::optional<Json>> frame = reader_.next();
    if (!frame.ok()) return protocol_error();
    if (!frame->has_value()) return;
    handle_frame(std::move(**frame));
  }
  // The result must be the last thing the worker writes: not even part of another frame follows.
  if (result_ && !reader_.at_frame_boundary()) protocol_error();
}

void WorkerSession::handle_frame(Json frame) {
  if (!confined_) {
    // The worker proves it is confined before anything of the program runs (docs/protocol.md).
    if (!check_confined_message(frame, expected_layers_).ok()) return protocol_error();
    confined_ = true;
    return;
  }
  Result<WorkerMessage> message = parse_worker_message(std::move(frame));
  if (!message.ok()) return protocol_error();
  if (auto* call = std::get_if<ToolCallMessage>(&*message))
    return start_tool_call(std::move(*call));
  result_ = std::get<SandboxResult>(std::move(*message));
}

void WorkerSession::start_tool_call(ToolCallMessage call) {
  const auto max_calls = static_cast<std::uint64_t>(request_.program.limits().max_tool_calls);
  if (call.call_id != next_call_id_ || call.call_id > max_calls) return protocol_error();
  ++next_call_id_;
  // An instant tool answers here, on this thread (ToolOptions.non_blocking), before the next
  // frame is read: the worker is waiting for it anyway.
  bridge_.call_inline_if_non_blocking(call.tool_id, std::move(call.input),
                                      [stdin_writer = stdin_, call_id = call.call_id,
                                       cap = tool_result_cap_](CodeToolOutcome outcome) noexcept {
                                        send_tool_result(*stdin_writer, call_id, outcome, cap);
                                      });
}

// Counted and dropped: what a worker writes there must not reach results, errors or logs, and a
// full pipe must not stall the worker. There is no cap to fail on: the worker's cpuMillis and the
// wall deadline bound how much it can write, and the parent holds one chunk at a time.
void WorkerSession::drain_stderr() {
  const IoResult read = read_into(worker_.stderr_fd.get(), read_space());
  if (read.status == IoStatus::kClosed || read.status == IoStatus::kFailed) {
    worker_.stderr_fd.reset();  // end of stream: stop polling it
    return;
  }
  if (read.status == IoStatus::kOk) diagnostics_.count(read.bytes);
}

void WorkerSession::send_start_frame() {
  Result<std::string> frame =
      encode_frame(start_message(request_, stack_bytes_), start_frame_cap_for(request_.program));
  if (!frame.ok()) return host_failure();  // the parent's own frame
  stdin_->send(std::move(*frame));         // a first frame is queued whatever its size
}

// stdout ended before the result. How the worker ended decides the failure; it is killed first,
// since a worker that merely closed its stdout may still be running.
void WorkerSession::worker_ended() {
  const auto cpu_millis = static_cast<std::uint64_t>(request_.program.limits().cpu_millis);
  fail(result_of_early_end({.status = worker_.process.kill_and_reap(),
                            .confined = confined_,
                            .mid_frame = !reader_.at_frame_boundary(),
                            .cpu_backstop_seconds = cpu_backstop_seconds(cpu_millis)}));
}

void WorkerSession::fail(SandboxResult failure) {
  if (!failure_) failure_ = std::move(failure);
}

}  // namespace codemode::internal
