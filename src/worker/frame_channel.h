// The worker's end of the wire protocol: blocking reads of whole frames from the parent (stdin)
// and writes of frames to it (stdout), with write(2) only, never stdio. Framing lives in
// protocol/frame_codec.h; what each message means lives in protocol/worker_end.h.
//
// Thread-safety: one thread (the engine thread) uses the channel.
#ifndef CODEMODE_WORKER_FRAME_CHANNEL_H_
#define CODEMODE_WORKER_FRAME_CHANNEL_H_

#include <chrono>
#include <cstddef>
#include <optional>
#include <string>

#include "codemode/error.h"
#include "codemode/json.h"

#include "core/process/read_spin.h"
#include "protocol/frame_codec.h"

namespace codemode::worker {

class FrameChannel {
 public:
  // Borrows the fds; they stay open for the life of the process.
  FrameChannel(int in_fd, int out_fd);

  // Blocks until one whole frame of at most `max_frame_bytes` arrives. End of stream, a read
  // error and a malformed frame are errors (rule worker_protocol_error).
  Result<Json> read(std::size_t max_frame_bytes);
  // As read, but gives up at `deadline` (on the monotonic clock), returning nullopt, when no
  // whole frame has arrived by then. The wait is poll(2) with a timeout (docs/security.md says
  // why the filter allows it).
  Result<std::optional<Json>> read_until(std::size_t max_frame_bytes,
                                         std::chrono::steady_clock::time_point deadline);

  // From now on, a read that would sleep spins first as `spin` decides (core/read_spin.h).
  // `spin` must outlive the channel's reads; nullptr stops it.
  void spin_before_reads(internal::ReadSpin* spin) { spin_ = spin; }

  // Caps the frames write sends (the worker learns its caps from the start frame).
  void set_write_cap(std::size_t max_frame_bytes) { write_cap_ = max_frame_bytes; }

  // Writes one frame holding `message`, all of it, or fails.
  Status write(const Json& message);

 private:
  Status fill();

  int in_fd_;
  int out_fd_;
  std::size_t write_cap_;
  internal::FrameReader reader_;
  std::string chunk_;
  internal::ReadSpin* spin_ = nullptr;
};

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_FRAME_CHANNEL_H_
