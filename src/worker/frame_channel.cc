#include "worker/frame_channel.h"

#include <algorithm>

#include <errno.h>
#include <poll.h>
#include <unistd.h>

#include "protocol/frame_format.h"
#include "worker/fd_io.h"
#include "worker/worker_error.h"

namespace codemode::worker {
namespace {

// Reads at most this much per read(2); frames larger than this arrive over several reads.
constexpr std::size_t kReadChunkBytes = 64u << 10;

// Longest single poll(2) wait: the filter allows timeouts below 2^22 ms (confine's
// seccomp_policy.cc), which is above the longest wallTimeMillis.
constexpr long long kMaxWaitMillis = 3'600'000;

}  // namespace

FrameChannel::FrameChannel(int in_fd, int out_fd)
    : in_fd_(in_fd),
      out_fd_(out_fd),
      write_cap_(internal::kFrameEnvelopeBytes),
      reader_(internal::start_frame_cap()),
      chunk_(kReadChunkBytes, '\0') {}

Result<Json> FrameChannel::read(std::size_t max_frame_bytes) {
  reader_.set_max_frame_bytes(max_frame_bytes);
  for (;;) {
    Result<std::optional<Json>> frame = reader_.next();
    if (!frame.ok()) return std::move(frame).error();
    if (frame->has_value()) return std::move(**frame);
    if (Status filled = fill(); !filled.ok()) return std::move(filled).error();
  }
}

Result<std::optional<Json>> FrameChannel::read_until(
    std::size_t max_frame_bytes, std::chrono::steady_clock::time_point deadline) {
  reader_.set_max_frame_bytes(max_frame_bytes);
  for (;;) {
    Result<std::optional<Json>> frame = reader_.next();
    if (!frame.ok() || frame->has_value()) return frame;
    // No timer: the plain blocking read (with its spin), as before timers existed.
    if (deadline == std::chrono::steady_clock::time_point::max()) {
      if (Status filled = fill(); !filled.ok()) return std::move(filled).error();
      continue;
    }
    const auto now = std::chrono::steady_clock::now();
    if (deadline <= now) return std::optional<Json>();
    // Rounded up, so that a wait never ends just before the deadline and spins.
    const long long millis = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
    pollfd readable{.fd = in_fd_, .events = POLLIN, .revents = 0};
    const int ready = ::poll(&readable, 1, static_cast<int>(std::min(millis, kMaxWaitMillis)));
    if (ready < 0 && errno != EINTR) {
      return protocol_error("The worker could not wait for the parent.");
    }
    if (ready <= 0) continue;
    if (Status filled = fill(); !filled.ok()) return std::move(filled).error();
  }
}

Status FrameChannel::fill() {
  if (spin_ != nullptr) spin_->before_read(in_fd_);
  for (;;) {
    const ssize_t got = ::read(in_fd_, chunk_.data(), chunk_.size());
    if (got < 0 && errno == EINTR) continue;
    if (spin_ != nullptr) spin_->after_read();
    if (got < 0) return protocol_error("The worker could not read from the parent.");
    if (got == 0) {
      if (Status ended = reader_.finish(); !ended.ok()) return ended;
      return protocol_error("The parent closed the frame stream while the worker waited.");
    }
    reader_.consume(std::string_view(chunk_.data(), static_cast<std::size_t>(got)));
    return {};
  }
}

Status FrameChannel::write(const Json& message) {
  Result<std::string> frame = internal::encode_frame(message, write_cap_);
  if (!frame.ok()) return std::move(frame).error();
  if (!write_all(out_fd_, *frame)) {
    return worker_error("worker_output", "The worker could not write a frame.");
  }
  return {};
}

}  // namespace codemode::worker
