// Fuzzes the frame reader (src/protocol/frame_codec.h): the parser of every byte a worker writes,
// and so the first code an escaped worker can aim at.
//
// Input: byte 0 picks the cap of the first frame and byte 1 the cap of every later frame (the
// worker lowers its cap after the start frame the same way); byte 2 seeds the chunk sizes; the
// rest is the byte stream. Invariants:
//   - chunking never matters: the reader fed the stream in chunks yields exactly the frames and the
//     fault that a reference reader, written here from docs/protocol.md, finds in the whole stream;
//   - every frame is a JSON object within its frame's limits, encode_frame writes it within the
//     cap, and reading that encoding back gives the same value;
//   - a fault is sticky: later next(), consume() and finish() report the same error, which is
//     INTEGRITY_VIOLATION / worker_protocol_error with the one fixed message of that fault;
//   - the message layer above (src/protocol/parent_end.h) accepts a frame only in exactly one
//     documented shape, rebuilt here field by field from what it returned, and refuses anything
//     else with worker_protocol_error and a fixed message.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "fuzz_check.h"
#include "protocol/frame_codec.h"
#include "protocol/frame_format.h"
#include "protocol/parent_end.h"

namespace codemode::fuzz {
namespace {

using internal::FrameFault;
using internal::FrameReader;

constexpr std::size_t kHeaderBytes = 3;

std::size_t pick_cap(std::uint8_t selector) {
  static constexpr std::array<std::size_t, 12> kCaps{
      1, 2, 7, 16, 31, 64, 100, 255, 1024, 4096, 1u << 16, internal::kMaxFrameBytes};
  return kCaps[selector % kCaps.size()];
}

// What a stream holds: its frames in order, then either a clean end or one fault.
struct Reading {
  std::vector<Json> frames;
  FrameFault fault = FrameFault::kNone;
};

std::size_t big_endian_length(std::string_view prefix) {
  std::size_t length = 0;
  for (std::size_t i = 0; i < internal::kFrameLengthBytes; ++i) {
    length = (length << 8) | static_cast<unsigned char>(prefix[i]);
  }
  return length;
}

// The grammar of docs/protocol.md applied to the whole stream at once.
Reading reference_read(std::string_view stream, std::size_t first_cap, std::size_t later_cap) {
  Reading reading;
  const auto end_with = [&reading](FrameFault fault) {
    reading.fault = fault;
    return std::move(reading);
  };
  while (!stream.empty()) {
    const std::size_t cap = reading.frames.empty() ? first_cap : later_cap;
    if (stream.size() < internal::kFrameLengthBytes) return end_with(FrameFault::kTruncatedLength);
    const std::size_t length = big_endian_length(stream);
    if (length == 0) return end_with(FrameFault::kZeroLength);
    if (length > cap) return end_with(FrameFault::kOversizedLength);
    stream.remove_prefix(internal::kFrameLengthBytes);
    if (stream.size() < length) return end_with(FrameFault::kTruncatedBody);
    Result<Json> body = parse_json(stream.substr(0, length), internal::frame_json_limits(cap));
    if (!body.ok()) return end_with(FrameFault::kInvalidJson);
    if (!body->is_object()) return end_with(FrameFault::kNotAnObject);
    reading.frames.push_back(std::move(body).value());
    stream.remove_prefix(length);
  }
  return reading;
}

// Chunk sizes from a small xorshift generator seeded by the input, so one input always splits the
// same way. The top bits pick how large chunks get: single bytes up to the whole stream.
class Chunker {
 public:
  explicit Chunker(std::uint8_t seed) : state_(0x9E3779B9u ^ seed), max_(kMaxChunk[seed >> 6]) {}

  std::size_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 17;
    state_ ^= state_ << 5;
    return 1 + state_ % max_;
  }

 private:
  static constexpr std::array<std::size_t, 4> kMaxChunk{1, 5, 64, 1u << 20};
  std::uint32_t state_;
  std::size_t max_;
};

// frame_error(fault) is one fixed message per fault, so equality also shows nothing is quoted.
void check_protocol_error(const Error& error, FrameFault fault) {
  FUZZ_CHECK(error == internal::frame_error(fault));
  FUZZ_CHECK(error.code == ErrorCode::kIntegrityViolation);
  FUZZ_CHECK(error.rule == "worker_protocol_error");
  check_closed_message(std::to_string(static_cast<int>(fault)), error.message, 1);
}

// Takes every frame now complete; false once the reader reports a fault.
bool drain(FrameReader& reader, std::size_t later_cap, Reading& reading) {
  while (true) {
    Result<std::optional<Json>> next = reader.next();
    if (!next.ok()) {
      reading.fault = reader.fault();
      FUZZ_CHECK(reading.fault != FrameFault::kNone);
      return false;
    }
    if (!next->has_value()) return true;
    reading.frames.push_back(std::move(**next));
    if (reading.frames.size() == 1) reader.set_max_frame_bytes(later_cap);
  }
}

void check_sticky(FrameReader& reader, FrameFault fault) {
  reader.consume(std::string_view("\0\0\0\2{}", 6));
  Result<std::optional<Json>> again = reader.next();
  FUZZ_CHECK(!again.ok());
  check_protocol_error(again.error(), fault);
  Status finished = reader.finish();
  FUZZ_CHECK(!finished.ok());
  check_protocol_error(finished.error(), fault);
  FUZZ_CHECK(reader.fault() == fault);
}

Reading chunked_read(std::string_view stream, std::size_t first_cap, std::size_t later_cap,
                     std::uint8_t seed) {
  FrameReader reader(first_cap);
  Reading reading;
  Chunker chunker(seed);
  for (std::size_t at = 0; at < stream.size();) {
    const std::string_view chunk = stream.substr(at, chunker.next());
    at += chunk.size();
    reader.consume(chunk);
    if (!drain(reader, later_cap, reading)) {
      check_sticky(reader, reading.fault);
      return reading;
    }
  }
  Status finished = reader.finish();
  if (finished.ok()) {
    FUZZ_CHECK(reader.at_frame_boundary());
    FUZZ_CHECK(reader.fault() == FrameFault::kNone);
    return reading;
  }
  reading.fault = reader.fault();
  FUZZ_CHECK(reading.fault == FrameFault::kTruncatedLength ||
             reading.fault == FrameFault::kTruncatedBody);
  check_sticky(reader, reading.fault);
  return reading;
}

// A frame that was read must be one the writer can send under the same cap, unchanged.
void check_reencodes(const Json& frame, std::size_t cap) {
  FUZZ_CHECK(frame.is_object());
  Result<std::size_t> size = check_json(frame, internal::frame_json_limits(cap));
  FUZZ_CHECK(size.ok() && *size <= cap);
  Result<std::string> encoded = internal::encode_frame(frame, cap);
  FUZZ_CHECK(encoded.ok());
  FUZZ_CHECK(encoded->size() == internal::kFrameLengthBytes + *size);
  FrameReader reader(cap);
  reader.consume(*encoded);
  Result<std::optional<Json>> read = reader.next();
  FUZZ_CHECK(read.ok() && read->has_value() && **read == frame);
  FUZZ_CHECK(reader.at_frame_boundary() && reader.finish().ok());
}

void check_message_refusal(const Error& error) {
  FUZZ_CHECK(error.code == ErrorCode::kIntegrityViolation);
  FUZZ_CHECK(error.rule == "worker_protocol_error");
  check_closed_message("message", error.message, 16);
}

// The frame a worker writes for `message`, as docs/protocol.md gives it.
Json documented_frame(const internal::WorkerMessage& message, const Json& original) {
  if (const auto* call = std::get_if<internal::ToolCallMessage>(&message)) {
    FUZZ_CHECK(call->call_id >= 1 && call->call_id <= static_cast<std::uint64_t>(kMaxSafeInteger));
    return Json{{"type", "toolCall"},
                {"callId", call->call_id},
                {"toolId", call->tool_id},
                {"input", call->input}};
  }
  const auto& result = std::get<SandboxResult>(message);
  if (result.succeeded()) {
    FUZZ_CHECK(result.output().has_value() && !result.reason() && !result.program_error());
    return Json{{"type", "result"},
                {"status", "succeeded"},
                {"hasOutput", true},
                {"output", *result.output()}};
  }
  FUZZ_CHECK(!result.output().has_value() && result.reason().has_value());
  FUZZ_CHECK(*result.reason() != SandboxFailureReason::kUnsupportedProgram);
  Json frame{{"type", "result"}, {"status", "failed"}, {"reason", to_string(*result.reason())}};
  if (result.program_error()) {
    FUZZ_CHECK(*result.reason() == SandboxFailureReason::kProgramError);
    frame["programError"] = {{"name", result.program_error()->name},
                             {"message", result.program_error()->message}};
  }
  if (original.contains("hasOutput")) frame["hasOutput"] = false;
  return frame;
}

void check_messages(const Json& frame) {
  if (Status confined = internal::check_confined_message(frame); confined.ok()) {
    FUZZ_CHECK(frame.size() == 3 && frame.at("type") == "confined" && frame.at("version") == 1);
    for (const Json& layer : frame.at("layers")) FUZZ_CHECK(layer.is_string());
  } else {
    check_message_refusal(confined.error());
  }
  Result<internal::WorkerMessage> message = internal::parse_worker_message(frame);
  if (message.ok()) {
    FUZZ_CHECK(documented_frame(*message, frame) == frame);
  } else {
    check_message_refusal(message.error());
  }
}

}  // namespace
}  // namespace codemode::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codemode::fuzz;
  if (size < kHeaderBytes) return 0;
  const std::size_t first_cap = pick_cap(data[0]);
  const std::size_t later_cap = pick_cap(data[1]);
  const std::string_view stream = as_text(data + kHeaderBytes, size - kHeaderBytes);

  const Reading expected = reference_read(stream, first_cap, later_cap);
  const Reading actual = chunked_read(stream, first_cap, later_cap, data[2]);
  FUZZ_CHECK(actual.fault == expected.fault);
  FUZZ_CHECK(actual.frames == expected.frames);
  for (std::size_t i = 0; i < actual.frames.size(); ++i) {
    check_reencodes(actual.frames[i], i == 0 ? first_cap : later_cap);
    check_messages(actual.frames[i]);
  }
  return 0;
}
