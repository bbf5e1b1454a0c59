// How a failed execution becomes the code tool's answer: a named row for every rule an execution
// can end with (no rule reaches the default unnoticed), and each row's answer.
#include "mcp/code_tool/execution_failure.h"

#include <optional>

#include <gtest/gtest.h>

#include "codemode/rules.h"

#include "mcp/code_tool/code_result.h"

namespace codemode::mcp {
namespace {

CodeExecutionOutcome failed_with(const std::string& rule,
                                 std::string message = "codemode's words") {
  const RuleInfo* info = find_rule(rule);
  CodeExecutionOutcome outcome;
  outcome.error = Error::with_code(info != nullptr ? info->code : ErrorCode::kToolFailed, rule,
                                   std::move(message));
  outcome.status = status_of(outcome.error->code);
  return outcome;
}

// The answers of the standard profile; the model profile's differ only for a program's error
// (ModelProfileProgramErrorIsLocated below) and carry the worker's logs.
Json answer_to(const CodeExecutionOutcome& outcome) {
  const Json result = execution_failure(
      outcome, McpPolicy{.final_result_bytes = 100, .program_profile = ProgramProfile::kStandard});
  EXPECT_EQ(result.at("isError"), true);
  return result.at("structuredContent");
}

TEST(ExecutionFailureTest, EveryRuleAnExecutionEndsWithHasItsOwnRow) {
  int ending = 0;
  for (const RuleInfo& rule : all_rules()) {
    if (!rule.ends_execution) continue;
    ++ending;
    EXPECT_TRUE(execution_answer(rule.name).has_value())
        << rule.name << " can end an execution but has no row in execution_failure.cc";
  }
  EXPECT_GT(ending, 20);
}

TEST(ExecutionFailureTest, EveryRowIsARuleAnExecutionEndsWith) {
  for (const RuleInfo& rule : all_rules()) {
    if (rule.ends_execution) continue;
    EXPECT_FALSE(execution_answer(rule.name).has_value())
        << rule.name << " has a row but never ends an execution (RuleInfo::ends_execution)";
  }
}

TEST(ExecutionFailureTest, AProgramsThrowIsCodeRejectedWithItsOwnText) {
  CodeExecutionOutcome thrown = failed_with(rules::kProgramError);
  thrown.program_error = ProgramError{.name = "Error", .message = "the model's words"};
  EXPECT_EQ(answer_to(thrown), (Json{{"code", "code_rejected"}, {"message", "the model's words"}}));
  EXPECT_EQ(answer_to(failed_with(rules::kProgramError)),
            (Json{{"code", "code_rejected"},
                  {"message",
                   "the program's promise can never settle: nothing is left to run and no tool "
                   "call is pending"}}));
}

TEST(ExecutionFailureTest, ModelProfileProgramErrorIsLocated) {
  CodeExecutionOutcome thrown = failed_with(rules::kProgramError);
  thrown.program_error = ProgramError{
      .name = "ReferenceError",
      .message = "c is not defined",
      .location = ProgramErrorLocation{.line = 3, .column = 10, .source_line = "  return c;"}};
  thrown.logs = ProgramLogs{.lines = {"before"}, .dropped = 0};
  const McpPolicy policy{.console_logs = true, .program_profile = ProgramProfile::kModel};
  const Json result = execution_failure(thrown, policy);
  EXPECT_EQ(result.at("isError"), true);
  EXPECT_EQ(result.at("structuredContent"), (Json{{"code", "code_rejected"},
                                                  {"name", "ReferenceError"},
                                                  {"message", "c is not defined"},
                                                  {"line", 3},
                                                  {"column", 10},
                                                  {"source", "  return c;"},
                                                  {"logs", {"before"}}}));
  EXPECT_EQ(Json::parse(result.at("content").at(0).at("text").get<std::string>()),
            result.at("structuredContent"));
  // A budget's answer keeps its code, and the logs join it.
  const Json deadline = execution_failure(failed_with(rules::kWallTimeLimit), policy);
  EXPECT_EQ(deadline.at("structuredContent").at("code"), "deadline_exceeded");
  EXPECT_EQ(deadline.at("structuredContent").at("logs"), Json::array());
}

TEST(ExecutionFailureTest, TheBudgetsAnswerInTheCodeToolsCodes) {
  for (const char* rule : {rules::kWallTimeLimit, rules::kCpuLimit}) {
    EXPECT_EQ(answer_to(failed_with(rule)),
              (Json{{"code", "deadline_exceeded"},
                    {"message", "JavaScript ran past its wall-time budget"}}))
        << rule;
  }
  EXPECT_EQ(answer_to(failed_with(rules::kMemoryLimit)),
            (Json{{"code", "code_rejected"}, {"message", "JavaScript exceeded its heap budget"}}));
  EXPECT_EQ(answer_to(failed_with(rules::kMaxOutputBytes)),
            (Json{{"code", "final_result_bytes_limit"},
                  {"message", final_result_too_large(std::nullopt, 100)}}));
}

TEST(ExecutionFailureTest, AResultThatIsNotJsonIsCodeRejectedInCodemodesWords) {
  for (const char* rule :
       {rules::kOutputNotJson, rules::kOutputCycle, rules::kOutputBigint,
        rules::kOutputLoneSurrogate, rules::kOutputDepthLimit, rules::kOutputValuesLimit,
        rules::kOutputReservedKey, rules::kOutputSchema}) {
    EXPECT_EQ(answer_to(failed_with(rule, "fixed text")),
              (Json{{"code", "code_rejected"}, {"message", "fixed text"}}))
        << rule;
  }
}

TEST(ExecutionFailureTest, TheWorkersEndsAndACancelKeepTheirRule) {
  for (const char* rule : {rules::kCancelled, rules::kWorkerExited, rules::kWorkerProtocolError,
                           rules::kWorkerStartFailed}) {
    EXPECT_EQ(answer_to(failed_with(rule, "fixed text")),
              (Json{{"code", rule}, {"message", "fixed text"}}))
        << rule;
  }
}

// A program cannot hide a call that may have acted: the client hears outcome_unknown and which
// calls, by tool and call id; the calls whose outcome is known are not named.
TEST(ExecutionFailureTest, AnUnknownOutcomeNamesTheCallsItCannotVouchFor) {
  CodeExecutionOutcome unknown = failed_with(rules::kUnknownToolOutcome);
  const auto receipt = [](const char* call_id, const char* tool_id, ExecutionState state) {
    return ExecutionEvidence{
        .run_id = "mcp", .receipt = {.call_id = call_id, .tool_id = tool_id, .execution = state}};
  };
  unknown.evidence = {receipt("mcp-code:4:code:1", "crm.read", ExecutionState::kSucceeded),
                      receipt("mcp-code:4:code:2", "crm.write", ExecutionState::kUnknown),
                      receipt("mcp-code:4:code:3", "crm.read", ExecutionState::kNotStarted)};
  EXPECT_EQ(execution_answer(rules::kUnknownToolOutcome), ExecutionAnswer::kUnknownOutcome);
  EXPECT_EQ(answer_to(unknown),
            (Json{{"code", "outcome_unknown"},
                  {"message",
                   "a tool call may or may not have taken effect, so the program's result was "
                   "discarded; check what the call did before making it again"},
                  {"calls", {{{"tool", "crm.write"}, {"callId", "mcp-code:4:code:2"}}}}}));
}

TEST(ExecutionFailureTest, AnyOtherFailureIsTheSandboxFailingTheInvocation) {
  const Json sandbox_failed{{"code", "worker_start_failed"},
                            {"message", "code worker could not be started"}};
  for (const char* rule :
       {rules::kSandboxError, rules::kInvalidOutput, rules::kUnsupportedProgram,
        rules::kAdapterUnavailable, rules::kInternalError, rules::kExecuteOptions,
        rules::kExecutionIdReused, rules::kMaxInputBytes, rules::kInputSchema}) {
    EXPECT_EQ(execution_answer(rule), ExecutionAnswer::kSandboxFailed) << rule;
    EXPECT_EQ(answer_to(failed_with(rule)), sandbox_failed) << rule;
  }
  // The documented default for a rule without a row.
  EXPECT_FALSE(execution_answer("a_host_adapters_rule").has_value());
  EXPECT_EQ(answer_to(failed_with("a_host_adapters_rule")), sandbox_failed);
}

}  // namespace
}  // namespace codemode::mcp
