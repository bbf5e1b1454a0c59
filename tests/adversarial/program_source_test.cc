// Program sources that are hostile to the wire format rather than to the engine: the largest
// source allowed, made of characters JSON must escape six bytes wide, still reaches the worker
// whole; one byte more is refused before any worker starts.
#include <string>

#include <gtest/gtest.h>

#include "adversarial_fixture.h"

namespace codemode::testing {
namespace {

// "(input) => '<n control characters>'.length", exactly `total` bytes long.
std::string control_character_source(std::size_t total) {
  const std::string head = "(input) => '";
  const std::string tail = "'.length";
  return head + std::string(total - head.size() - tail.size(), '\x01') + tail;
}

TEST(ProgramSourceTest, LargestSourceOfEscapedCharactersRunsWhole) {
  const std::string source = control_character_source(kMaxSourceBytes);
  auto limits = adversarial_limits({{"memoryBytes", 256 << 20}}).value();
  const auto program = adversarial_program(source, limits);
  ASSERT_TRUE(program.ok()) << program.error().message;
  const CodeExecutionOutcome outcome =
      adversarial_mode().execute(*program, Json::object(), adversarial_execute_options());
  ASSERT_TRUE(outcome.ok()) << to_json(outcome).dump();
  EXPECT_EQ(outcome.output, Json(kMaxSourceBytes - 20));
}

TEST(ProgramSourceTest, OneByteOverTheLargestSourceIsRefusedBeforeAnyWorker) {
  const auto program = adversarial_program(control_character_source(kMaxSourceBytes + 1),
                                           adversarial_limits({}).value());
  ASSERT_FALSE(program.ok());
  EXPECT_EQ(program.error().code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(program.error().rule, "source_bytes_limit");
  EXPECT_TRUE(child_processes().empty());
}

}  // namespace
}  // namespace codemode::testing
