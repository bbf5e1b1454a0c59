// The frame codec of the parent <-> worker protocol (frame_format.h, docs/protocol.md): a reader
// that consumes bytes and yields whole frames, and an encoder. No I/O and no policy: what a frame
// means, and whether it may arrive now, is the caller's business. Both ends use it.
//
// Thread-safety: a FrameReader is a plain value; use one from one thread at a time.
#ifndef CODEMODE_PROTOCOL_FRAME_CODEC_H_
#define CODEMODE_PROTOCOL_FRAME_CODEC_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::internal {

// Every way a byte stream can fail to be a sequence of frames. Each has its own test.
enum class FrameFault : int {
  kNone = 0,
  kZeroLength,       // the length prefix is 0
  kOversizedLength,  // the length prefix is larger than the reader's cap
  kTruncatedLength,  // the stream ended inside a length prefix
  kTruncatedBody,    // the stream ended inside a frame body
  kInvalidJson,      // the body is not bounded, plain JSON (codemode::parse_json refused it)
  kNotAnObject,      // the body is JSON but not an object
};

// Reads frames whose body is at most `max_frame_bytes`. The first fault is sticky: every later
// call reports it again, so a broken stream never resynchronises on attacker-chosen bytes.
// Errors carry rule "worker_protocol_error" and a message naming the fault, never the bytes.
class FrameReader {
 public:
  explicit FrameReader(std::size_t max_frame_bytes);

  // Caps later frames (the worker learns the program's limits from the first frame).
  // REQUIRES: 1 <= max_frame_bytes <= kMaxFrameBytes.
  void set_max_frame_bytes(std::size_t max_frame_bytes);

  // Appends received bytes. Bytes past a fault are ignored.
  void consume(std::string_view bytes);

  // The next whole frame; nullopt when more bytes are needed; an Error on a fault.
  Result<std::optional<Json>> next();

  // Call at end of stream: ok when it ended between frames, else the truncation fault.
  Status finish();

  // Whether the buffered bytes hold no part of a frame.
  bool at_frame_boundary() const { return buffer_.size() == consumed_; }
  FrameFault fault() const { return fault_; }

 private:
  Error fail(FrameFault fault);
  std::size_t buffered() const { return buffer_.size() - consumed_; }
  // Drops the buffer (all of it consumed), giving back a large allocation.
  void release();
  void compact();

  std::size_t max_frame_bytes_;
  std::string buffer_;
  std::size_t consumed_ = 0;  // bytes of buffer_ already returned as frames
  FrameFault fault_ = FrameFault::kNone;
};

// The error for `fault` (rule "worker_protocol_error").
Error frame_error(FrameFault fault);

// A frame holding `message` (a JSON object) as JSON.stringify writes it: length prefix and body.
// Refuses a body larger than `max_frame_bytes` or a message that is not bounded, plain JSON.
Result<std::string> encode_frame(const Json& message, std::size_t max_frame_bytes);

}  // namespace codemode::internal

#endif  // CODEMODE_PROTOCOL_FRAME_CODEC_H_
