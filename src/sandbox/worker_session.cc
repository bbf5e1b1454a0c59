#include "sandbox/worker_session.h"

#include <errno.h>
#include <poll.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <utility>
#include <variant>

#include "core/pipe_io.h"
#include "sandbox/frame_format.h"

namespace codemode::internal {
namespace {

// One pipe's worth: a read never takes more than the kernel's default pipe buffer.
constexpr std::size_t kReadChunkBytes = 64u << 10;

// The start frame holds the source (each byte at worst a six-byte \u00XX escape), the input
// (within maxInputBytes, checked by the executor) and the envelope (docs/protocol.md).
std::size_t start_frame_cap_for(const CodeProgram& program) {
  const std::size_t cap = 6 * program.source().size() +
                          static_cast<std::size_t>(program.limits().max_input_bytes) +
                          kFrameEnvelopeBytes;
  return std::min(cap, start_frame_cap());
}

}  // namespace

WorkerSession::WorkerSession(WorkerProcess worker, std::shared_ptr<ToolResultMailbox> mailbox,
                             const SandboxRequest& request, ToolBridge& bridge,
                             std::span<const std::string_view> expected_layers)
    : worker_(std::move(worker)),
      mailbox_(std::move(mailbox)),
      request_(request),
      bridge_(bridge),
      expected_layers_(expected_layers),
      tool_result_cap_(tool_result_frame_cap(request.program.limits().max_output_bytes)),
      outbound_cap_(kOutboundAllowanceBytes + kOutboundResultFrames * tool_result_cap_),
      reader_(worker_frame_cap(request.program.limits().max_output_bytes,
                               request.program.limits().max_tool_input_bytes)) {}

WorkerSession::~WorkerSession() { mailbox_->close(); }

SandboxResult WorkerSession::run(std::stop_token stop) {
  std::stop_callback wake_on_stop(stop, [mailbox = mailbox_] { mailbox->wake(); });
  queue_frame(start_message(request_), start_frame_cap_for(request_.program));
  while (!done()) {
    if (stop.stop_requested()) {
      host_failure();
      break;
    }
    step(-1);
  }
  if (!failure_) wait_for_end_of_stdout(stop);
  // Whatever happens next, the worker is done: stop it now rather than when the session goes.
  worker_.process.kill();
  return failure_ ? std::move(*failure_) : std::move(*result_);
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

// One poll() round: waits until a pipe or the mailbox is ready, then serves each ready one.
void WorkerSession::step(int timeout_millis) {
  enum Slot { kWake, kStdout, kStderr, kStdin };
  std::array<pollfd, 4> fds{};
  fds[kWake] = {mailbox_->wake_fd(), POLLIN, 0};
  fds[kStdout] = {worker_.stdout_fd.get(), POLLIN, 0};
  // A negative fd is skipped by poll(2): the pipe closed, or nothing to write.
  fds[kStderr] = {worker_.stderr_fd.get(), POLLIN, 0};
  fds[kStdin] = {outbound_.empty() ? -1 : worker_.stdin_fd.get(), POLLOUT, 0};
  if (poll(fds.data(), fds.size(), timeout_millis) < 0) {
    if (errno != EINTR) host_failure();
    return;
  }
  if (fds[kWake].revents != 0) queue_tool_results();
  if (fds[kStderr].revents != 0) drain_stderr();
  if (fds[kStdin].revents != 0) write_stdin();
  if (fds[kStdout].revents != 0) read_stdout();
}

void WorkerSession::read_stdout() {
  if (failure_) return;
  std::string chunk;
  const IoResult read = read_some(worker_.stdout_fd.get(), kReadChunkBytes, chunk);
  if (read.status == IoStatus::kWouldBlock) return;
  if (read.status == IoStatus::kClosed) {
    if (!result_) return worker_ended();
    worker_.stdout_fd.reset();  // the end wait_for_end_of_stdout waits for
    return;
  }
  if (read.status == IoStatus::kFailed) return host_failure();
  if (result_) return protocol_error();  // nothing may follow the result
  reader_.consume(chunk);
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
    // The worker proves it is confined before anything of the program runs (DESIGN.md).
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
  const std::uint64_t call_id = call.call_id;
  bridge_.call(call.tool_id, std::move(call.input),
               [mailbox = mailbox_, call_id](CodeToolOutcome outcome) noexcept {
                 try {
                   mailbox->post(call_id, std::move(outcome));
                 } catch (...) {
                   // Out of memory on a bridge thread: the call goes unanswered and the program
                   // waits until its wall time ends the execution.
                 }
               });
}

// Read and dropped: what a worker writes there must not reach results, errors or logs, and a full
// pipe must not stall the worker. There is no cap to fail on: the worker's cpuMillis and the wall
// deadline bound how much it can write, and the parent holds one chunk at a time.
void WorkerSession::drain_stderr() {
  std::string chunk;
  const IoResult read = read_some(worker_.stderr_fd.get(), kReadChunkBytes, chunk);
  if (read.status == IoStatus::kClosed || read.status == IoStatus::kFailed) {
    worker_.stderr_fd.reset();  // end of stream: stop polling it
  }
}

void WorkerSession::queue_tool_results() {
  for (auto& [call_id, outcome] : mailbox_->take()) {
    queue_frame(tool_result_message(call_id, outcome), tool_result_cap_);
  }
}

void WorkerSession::queue_frame(const Json& message, std::size_t cap) {
  if (done() || !worker_.stdin_fd.valid()) return;
  Result<std::string> frame = encode_frame(message, cap);
  if (!frame.ok()) return host_failure();  // the parent's own frame; the bridge bounds its values
  outbound_bytes_ += frame->size();
  if (outbound_bytes_ > outbound_cap_ && !outbound_.empty()) return protocol_error();
  outbound_.push_back(std::move(*frame));
}

void WorkerSession::write_stdin() {
  while (!outbound_.empty() && !done()) {
    const std::string_view pending = std::string_view(outbound_.front()).substr(outbound_offset_);
    const IoResult written = write_some(worker_.stdin_fd.get(), pending);
    if (written.status == IoStatus::kWouldBlock) return;
    if (written.status != IoStatus::kOk) {
      // The worker closed its stdin, perhaps because it finished while answers were on their way;
      // its stdout decides how the execution ends.
      outbound_.clear();
      outbound_bytes_ = 0;
      worker_.stdin_fd.reset();
      return;
    }
    outbound_offset_ += written.bytes;
    if (outbound_offset_ == outbound_.front().size()) {
      outbound_bytes_ -= outbound_.front().size();
      outbound_.pop_front();
      outbound_offset_ = 0;
    }
  }
}

// stdout ended before the result. How the worker ended decides the failure; it is killed first,
// since a worker that merely closed its stdout may still be running.
void WorkerSession::worker_ended() {
  fail(result_of_early_end({.status = worker_.process.kill_and_reap(),
                            .confined = confined_,
                            .mid_frame = !reader_.at_frame_boundary()}));
}

void WorkerSession::fail(SandboxResult failure) {
  if (!failure_) failure_ = std::move(failure);
}

}  // namespace codemode::internal
