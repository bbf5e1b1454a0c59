#include "protocol/frame_codec.h"

#include <array>
#include <utility>

#include "codemode/rules.h"

#include "protocol/frame_format.h"

namespace codemode::internal {
namespace {

// A reader keeps at most this much buffer between frames; a large frame's buffer is given back
// (a worker's memory limit counts it).
constexpr std::size_t kRetainedBufferBytes = 64u << 10;

std::size_t decode_length(std::string_view prefix) {
  std::size_t length = 0;
  for (std::size_t i = 0; i < kFrameLengthBytes; ++i) {
    length = (length << 8) | static_cast<unsigned char>(prefix[i]);
  }
  return length;
}

std::string encode_length(std::size_t length) {
  std::string prefix(kFrameLengthBytes, '\0');
  for (std::size_t i = 0; i < kFrameLengthBytes; ++i) {
    prefix[kFrameLengthBytes - 1 - i] = static_cast<char>((length >> (8 * i)) & 0xFF);
  }
  return prefix;
}

}  // namespace

Error frame_error(FrameFault fault) {
  static constexpr std::array<std::string_view, 7> kMessages{
      "The frame stream has no fault.",
      "A frame has length 0; frames hold one JSON object.",
      "A frame is longer than the frame cap.",
      "The frame stream ended inside a length prefix.",
      "The frame stream ended inside a frame body.",
      "A frame body is not bounded, plain JSON.",
      "A frame body is not a JSON object.",
  };
  return Error::integrity_violation(rules::kWorkerProtocolError,
                                    std::string(kMessages[static_cast<std::size_t>(fault)]));
}

FrameReader::FrameReader(std::size_t max_frame_bytes) : max_frame_bytes_(max_frame_bytes) {}

void FrameReader::set_max_frame_bytes(std::size_t max_frame_bytes) {
  max_frame_bytes_ = max_frame_bytes;
}

void FrameReader::consume(std::string_view bytes) {
  if (fault_ != FrameFault::kNone) return;
  compact();
  buffer_.append(bytes);
}

Result<std::optional<Json>> FrameReader::next() {
  if (fault_ != FrameFault::kNone) return frame_error(fault_);
  if (buffered() < kFrameLengthBytes) return std::optional<Json>();
  const std::size_t length = decode_length(std::string_view(buffer_).substr(consumed_));
  if (length == 0) return fail(FrameFault::kZeroLength);
  if (length > max_frame_bytes_) return fail(FrameFault::kOversizedLength);
  if (buffered() < kFrameLengthBytes + length) return std::optional<Json>();
  const auto body = std::string_view(buffer_).substr(consumed_ + kFrameLengthBytes, length);
  Result<Json> parsed = parse_json(body, frame_json_limits(max_frame_bytes_));
  if (!parsed.ok()) return fail(FrameFault::kInvalidJson);
  if (!parsed->is_object()) return fail(FrameFault::kNotAnObject);
  consumed_ += kFrameLengthBytes + length;
  if (buffered() == 0) release();
  return std::optional<Json>(std::move(parsed).value());
}

Status FrameReader::finish() {
  if (fault_ != FrameFault::kNone) return frame_error(fault_);
  if (buffered() == 0) return {};
  return fail(buffered() < kFrameLengthBytes ? FrameFault::kTruncatedLength
                                             : FrameFault::kTruncatedBody);
}

Error FrameReader::fail(FrameFault fault) {
  fault_ = fault;
  buffer_.clear();
  buffer_.shrink_to_fit();
  consumed_ = 0;
  return frame_error(fault);
}

void FrameReader::release() {
  buffer_.clear();
  consumed_ = 0;
  if (buffer_.capacity() > kRetainedBufferBytes) buffer_.shrink_to_fit();
}

void FrameReader::compact() {
  if (consumed_ == 0) return;
  buffer_.erase(0, consumed_);
  consumed_ = 0;
}

Result<std::string> encode_frame(const Json& message, std::size_t max_frame_bytes) {
  if (!message.is_object()) return frame_error(FrameFault::kNotAnObject);
  Result<std::string> body = serialize_json(message, frame_json_limits(max_frame_bytes));
  if (!body.ok()) {
    return frame_error(body.error().rule == rules::kJsonBytesLimit ? FrameFault::kOversizedLength
                                                                   : FrameFault::kInvalidJson);
  }
  if (body->size() > max_frame_bytes) return frame_error(FrameFault::kOversizedLength);
  return encode_length(body->size()) + *body;
}

}  // namespace codemode::internal
