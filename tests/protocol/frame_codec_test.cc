// The frame codec (src/protocol/frame_codec.h): one test per malformed case, named after it, plus
// the round trip and the chunking the reader must tolerate.
#include "protocol/frame_codec.h"

#include <string>

#include <gtest/gtest.h>

#include "protocol/frame_format.h"

namespace codemode::internal {
namespace {

std::string length_prefix(std::uint32_t length) {
  return std::string{static_cast<char>(length >> 24), static_cast<char>(length >> 16),
                     static_cast<char>(length >> 8), static_cast<char>(length)};
}

std::string frame_of(std::string_view body) {
  return length_prefix(static_cast<std::uint32_t>(body.size())) + std::string(body);
}

// Feeds `bytes` and returns what next() says.
Result<std::optional<Json>> read_one(std::string_view bytes, std::size_t cap = 1024) {
  FrameReader reader(cap);
  reader.consume(bytes);
  return reader.next();
}

TEST(FrameCodecTest, EncodedFrameRoundTrips) {
  const Json message{{"type", "toolCall"}, {"callId", 1}, {"input", {{"a", {1, 2.5, "é"}}}}};
  Result<std::string> frame = encode_frame(message, 1024);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(frame->substr(0, 4), length_prefix(static_cast<std::uint32_t>(frame->size() - 4)));
  Result<std::optional<Json>> read = read_one(*frame);
  ASSERT_TRUE(read.ok());
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ(**read, message);
}

TEST(FrameCodecTest, EncodeWritesJsonAsJavaScriptDoes) {
  Result<std::string> frame = encode_frame(Json{{"n", 5.0}, {"s", "a\"\n"}}, 1024);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(frame->substr(4), R"({"n":5,"s":"a\"\n"})");
}

TEST(FrameCodecTest, EncodeRefusesOversizedFrame) {
  Result<std::string> frame = encode_frame(Json{{"s", std::string(100, 'x')}}, 50);
  ASSERT_FALSE(frame.ok());
  EXPECT_EQ(frame.error().rule, "worker_protocol_error");
}

TEST(FrameCodecTest, EncodeRefusesNonObject) {
  EXPECT_FALSE(encode_frame(Json::array({1}), 1024).ok());
}

TEST(FrameCodecTest, FrameSplitAcrossManyChunksIsReassembled) {
  const std::string frame = frame_of(R"({"type":"start"})");
  FrameReader reader(1024);
  for (char byte : frame) {
    Result<std::optional<Json>> none = reader.next();
    ASSERT_TRUE(none.ok());
    ASSERT_FALSE(none->has_value());
    reader.consume(std::string_view(&byte, 1));
  }
  Result<std::optional<Json>> read = reader.next();
  ASSERT_TRUE(read.ok() && read->has_value());
  EXPECT_EQ((**read)["type"], "start");
  EXPECT_TRUE(reader.at_frame_boundary());
  EXPECT_TRUE(reader.finish().ok());
}

TEST(FrameCodecTest, TwoFramesInOneChunkAreReadInOrder) {
  FrameReader reader(1024);
  reader.consume(frame_of(R"({"n":1})") + frame_of(R"({"n":2})"));
  Result<std::optional<Json>> first = reader.next();
  Result<std::optional<Json>> second = reader.next();
  Result<std::optional<Json>> third = reader.next();
  ASSERT_TRUE(first.ok() && first->has_value() && second.ok() && second->has_value());
  EXPECT_EQ((**first)["n"], 1);
  EXPECT_EQ((**second)["n"], 2);
  ASSERT_TRUE(third.ok());
  EXPECT_FALSE(third->has_value());
}

TEST(FrameCodecTest, OversizedLength) {
  FrameReader reader(16);
  reader.consume(length_prefix(17));  // refused before any body byte arrives
  Result<std::optional<Json>> read = reader.next();
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.error().rule, "worker_protocol_error");
  EXPECT_EQ(reader.fault(), FrameFault::kOversizedLength);
}

TEST(FrameCodecTest, HugeLengthPrefixIsOversized) {
  FrameReader reader(kMaxFrameBytes);
  reader.consume(length_prefix(0xFFFFFFFFu));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kOversizedLength);
}

TEST(FrameCodecTest, ZeroLength) {
  FrameReader reader(1024);
  reader.consume(length_prefix(0));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kZeroLength);
}

TEST(FrameCodecTest, TruncatedLength) {
  FrameReader reader(1024);
  reader.consume(std::string("\0\0", 2));
  Result<std::optional<Json>> read = reader.next();
  ASSERT_TRUE(read.ok());
  EXPECT_FALSE(read->has_value());
  EXPECT_FALSE(reader.finish().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kTruncatedLength);
}

TEST(FrameCodecTest, TruncatedBody) {
  FrameReader reader(1024);
  reader.consume(frame_of(R"({"type":"start"})").substr(0, 10));
  ASSERT_TRUE(reader.next().ok());
  EXPECT_FALSE(reader.finish().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kTruncatedBody);
}

TEST(FrameCodecTest, EndOfStreamBetweenFramesIsClean) {
  FrameReader reader(1024);
  EXPECT_TRUE(reader.finish().ok());
}

TEST(FrameCodecTest, InvalidJson) {
  FrameReader reader(1024);
  reader.consume(frame_of(R"({"type":)"));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kInvalidJson);
}

TEST(FrameCodecTest, InvalidUtf8IsInvalidJson) {
  FrameReader reader(1024);
  reader.consume(frame_of("{\"s\":\"\xff\"}"));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kInvalidJson);
}

TEST(FrameCodecTest, TrailingBytesInBodyAreInvalidJson) {
  FrameReader reader(1024);
  reader.consume(frame_of(R"({"a":1} {"b":2})"));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kInvalidJson);
}

TEST(FrameCodecTest, TooDeepBodyIsInvalidJson) {
  std::string deep(kFrameMaxDepth + 1, '[');
  deep += std::string(kFrameMaxDepth + 1, ']');
  FrameReader reader(1024);
  reader.consume(frame_of("{\"a\":" + deep + "}"));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kInvalidJson);
}

TEST(FrameCodecTest, ValueAtProgramDepthLimitFitsInAFrame) {
  // A program value nested 32 deep sits one level down in its frame.
  std::string deep(32, '[');
  deep += std::string(32, ']');
  Result<std::optional<Json>> read = read_one(frame_of("{\"output\":" + deep + "}"));
  ASSERT_TRUE(read.ok());
  EXPECT_TRUE(read->has_value());
}

TEST(FrameCodecTest, NotAnObject) {
  FrameReader reader(1024);
  reader.consume(frame_of("[1,2]"));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kNotAnObject);
}

TEST(FrameCodecTest, FaultIsStickyAndIgnoresLaterBytes) {
  FrameReader reader(1024);
  reader.consume(length_prefix(0));
  EXPECT_FALSE(reader.next().ok());
  reader.consume(frame_of(R"({"type":"start"})"));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kZeroLength);
  EXPECT_FALSE(reader.finish().ok());
}

TEST(FrameCodecTest, CapCanBeLoweredBetweenFrames) {
  FrameReader reader(kMaxFrameBytes);
  reader.set_max_frame_bytes(8);
  reader.consume(frame_of(R"({"type":"toolResult"})"));
  EXPECT_FALSE(reader.next().ok());
  EXPECT_EQ(reader.fault(), FrameFault::kOversizedLength);
}

TEST(FrameFormatTest, CapsFollowTheProgramLimits) {
  EXPECT_EQ(tool_result_frame_cap(1000), 1000 + kFrameEnvelopeBytes);
  EXPECT_EQ(worker_frame_cap(1000, 5000), 5000 + kFrameEnvelopeBytes);
  EXPECT_EQ(worker_frame_cap(std::uint64_t{1} << 40, 1), kMaxFrameBytes);
  EXPECT_LE(tool_result_frame_cap(CodeLimitMaxima::kMaxOutputBytes), kMaxFrameBytes);
  EXPECT_EQ(start_frame_cap(), kMaxFrameBytes);
}

}  // namespace
}  // namespace codemode::internal
