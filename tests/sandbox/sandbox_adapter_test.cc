// The adapter interface's values (sandbox.h): the named constructors of SandboxResult and
// CodeToolOutcome are the only way to build one, and each gives exactly one of the documented
// shapes.
#include <array>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include "codemode/sandbox.h"

namespace codemode {
namespace {

static_assert(!std::is_default_constructible_v<SandboxResult>);
static_assert(!std::is_aggregate_v<SandboxResult>);
static_assert(!std::is_default_constructible_v<CodeToolOutcome>);
static_assert(!std::is_aggregate_v<CodeToolOutcome>);

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

TEST(CodeToolOutcomeTest, SuccessHoldsItsOutputAndShowsOnlyIt) {
  const CodeToolOutcome outcome = CodeToolOutcome::success(Json{{"value", 2}});
  EXPECT_TRUE(outcome.ok());
  EXPECT_EQ(outcome.status(), OutcomeStatus::kSucceeded);
  EXPECT_EQ(outcome.output(), (Json{{"value", 2}}));
  EXPECT_EQ(outcome.to_json(), Json::parse(R"({"status":"succeeded","output":{"value":2}})"));
  EXPECT_EQ(CodeToolOutcome::success(Json(nullptr)).to_json(),
            Json::parse(R"({"status":"succeeded","output":null})"));
}

TEST(CodeToolOutcomeTest, FailureHoldsItsCodeRuleAndMessageAndNoOutput) {
  const CodeToolOutcome outcome =
      CodeToolOutcome::failure(OutcomeStatus::kBlocked, ErrorCode::kPermissionDenied,
                               "tool_not_listed", "The tool call was not permitted.");
  EXPECT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status(), OutcomeStatus::kBlocked);
  EXPECT_FALSE(outcome.output().has_value());
  EXPECT_EQ(outcome.code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(outcome.rule(), "tool_not_listed");
  EXPECT_EQ(outcome.message(), "The tool call was not permitted.");
  EXPECT_EQ(outcome.to_json(), Json::parse(R"({"status":"blocked","error":{
      "code":"PERMISSION_DENIED","rule":"tool_not_listed",
      "message":"The tool call was not permitted."}})"));
}

TEST(CodeToolOutcomeTest, AFailureIsNeverSucceeded) {
  const CodeToolOutcome denied = CodeToolOutcome::failure(
      OutcomeStatus::kSucceeded, ErrorCode::kPermissionDenied, "permission", "m");
  EXPECT_FALSE(denied.ok());
  EXPECT_EQ(denied.status(), OutcomeStatus::kBlocked);
  EXPECT_FALSE(denied.output().has_value());
  const CodeToolOutcome failed = CodeToolOutcome::failure(
      OutcomeStatus::kSucceeded, ErrorCode::kToolFailed, "tool_failed", "m");
  EXPECT_EQ(failed.status(), OutcomeStatus::kFailed);
  EXPECT_EQ(failed.to_json().at("status"), "failed");
}

TEST(CodeToolOutcomeTest, ARuleThatIsNotARuleNameBecomesTheCodeInLowerCase) {
  for (const char* rule : {"", "Permission", "a rule with spaces", "x/y"}) {
    const CodeToolOutcome outcome =
        CodeToolOutcome::failure(OutcomeStatus::kBlocked, ErrorCode::kPermissionDenied, rule, "m");
    EXPECT_EQ(outcome.rule(), "permission_denied") << rule;
    EXPECT_EQ(outcome.to_json().at("error").at("rule"), "permission_denied") << rule;
  }
}

}  // namespace
}  // namespace codemode
