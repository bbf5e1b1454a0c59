// The adapter interface's values (sandbox.h): SandboxResult's named constructors are the only way
// to build one, and each gives exactly one of the documented shapes.
#include <gtest/gtest.h>

#include <array>
#include <type_traits>
#include <utility>

#include "codemode/sandbox.h"

namespace codemode {
namespace {

static_assert(!std::is_default_constructible_v<SandboxResult>);
static_assert(!std::is_aggregate_v<SandboxResult>);

constexpr std::array<SandboxFailureReason, 6> kReasons{
    SandboxFailureReason::kProgramError,       SandboxFailureReason::kCpuLimit,
    SandboxFailureReason::kMemoryLimit,        SandboxFailureReason::kInvalidOutput,
    SandboxFailureReason::kUnsupportedProgram, SandboxFailureReason::kSandboxError,
};

// The shapes sandbox.h documents: a success has its output and nothing else; a failure has a
// reason, no output, and each detail only with its own reason.
void expect_valid_shape(const SandboxResult& result) {
  if (result.succeeded()) {
    EXPECT_TRUE(result.output().has_value());
    EXPECT_FALSE(result.reason().has_value());
    EXPECT_FALSE(result.program_error().has_value());
    EXPECT_FALSE(result.fault().has_value());
    EXPECT_FALSE(result.output_fault().has_value());
    return;
  }
  EXPECT_FALSE(result.output().has_value());
  ASSERT_TRUE(result.reason().has_value());
  if (result.program_error()) {
    EXPECT_EQ(result.reason(), SandboxFailureReason::kProgramError);
  }
  if (result.fault()) {
    EXPECT_EQ(result.reason(), SandboxFailureReason::kSandboxError);
  }
  if (result.output_fault()) {
    EXPECT_EQ(result.reason(), SandboxFailureReason::kInvalidOutput);
  }
}

TEST(SandboxResultTest, SuccessHoldsItsOutputNullIncluded) {
  for (const Json& output : {Json(nullptr), Json{{"value", 1}}}) {
    const SandboxResult result = SandboxResult::success(output);
    expect_valid_shape(result);
    EXPECT_TRUE(result.succeeded());
    EXPECT_EQ(result.output(), output);
  }
}

TEST(SandboxResultTest, SuccessHandsOverItsOutput) {
  SandboxResult result = SandboxResult::success(Json{{"text", std::string(1000, 'x')}});
  const std::optional<Json> output = std::move(result).output();
  ASSERT_TRUE(output.has_value());
  EXPECT_EQ((*output)["text"].get<std::string>().size(), 1000u);
}

TEST(SandboxResultTest, FailureHoldsItsReasonAndNothingElse) {
  for (SandboxFailureReason reason : kReasons) {
    SCOPED_TRACE(to_string(reason));
    const SandboxResult result = SandboxResult::failure(reason);
    expect_valid_shape(result);
    EXPECT_FALSE(result.succeeded());
    EXPECT_EQ(result.reason(), reason);
    EXPECT_FALSE(result.program_error().has_value());
    EXPECT_FALSE(result.fault().has_value());
    EXPECT_FALSE(result.output_fault().has_value());
  }
}

TEST(SandboxResultTest, AProgramErrorIsKeptOnlyWithItsReason) {
  const ProgramError thrown{"TypeError", "x is not a function"};
  for (SandboxFailureReason reason : kReasons) {
    SCOPED_TRACE(to_string(reason));
    const SandboxResult result = SandboxResult::failure(reason, thrown);
    expect_valid_shape(result);
    EXPECT_EQ(result.reason(), reason);
    if (reason == SandboxFailureReason::kProgramError) {
      EXPECT_EQ(result.program_error(), thrown);
    } else {
      EXPECT_FALSE(result.program_error().has_value());
    }
  }
}

TEST(SandboxResultTest, ASandboxFaultIsASandboxError) {
  for (SandboxFault fault : {SandboxFault::kWorkerStartFailed, SandboxFault::kWorkerProtocolError,
                             SandboxFault::kWorkerExited}) {
    SCOPED_TRACE(to_string(fault));
    const SandboxResult result = SandboxResult::failure(fault);
    expect_valid_shape(result);
    EXPECT_EQ(result.reason(), SandboxFailureReason::kSandboxError);
    EXPECT_EQ(result.fault(), fault);
    EXPECT_FALSE(result.output_fault().has_value());
    EXPECT_FALSE(result.program_error().has_value());
  }
}

TEST(SandboxResultTest, AnOutputFaultIsInvalidOutput) {
  for (OutputFault fault :
       {OutputFault::kMaxOutputBytes, OutputFault::kNotJson, OutputFault::kCycle,
        OutputFault::kBigInt, OutputFault::kLoneSurrogate, OutputFault::kDepthLimit,
        OutputFault::kValuesLimit, OutputFault::kReservedKey}) {
    SCOPED_TRACE(to_string(fault));
    const SandboxResult result = SandboxResult::failure(fault);
    expect_valid_shape(result);
    EXPECT_EQ(result.reason(), SandboxFailureReason::kInvalidOutput);
    EXPECT_EQ(result.output_fault(), fault);
    EXPECT_FALSE(result.fault().has_value());
    EXPECT_FALSE(result.program_error().has_value());
  }
}

}  // namespace
}  // namespace codemode
