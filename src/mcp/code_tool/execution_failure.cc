#include "mcp/code_tool/execution_failure.h"

#include <array>
#include <string>
#include <utility>

#include "codemode/rules.h"

#include "mcp/catalog/mcp_codes.h"
#include "mcp/catalog/tool_results.h"
#include "mcp/code_tool/code_result.h"

namespace codemode::mcp {
namespace {

struct RuleAnswer {
  std::string_view rule;
  ExecutionAnswer answer;
};

constexpr std::array<RuleAnswer, 27> kRuleAnswers{{
    {rules::kProgramError, ExecutionAnswer::kProgramThrew},
    {rules::kWallTimeLimit, ExecutionAnswer::kDeadline},
    {rules::kCpuLimit, ExecutionAnswer::kDeadline},
    {rules::kMemoryLimit, ExecutionAnswer::kHeap},
    // The prelude refuses a result over the cap first: only one that grew after its measure (a
    // toJSON that answers differently the second time) or one the worker refused as output (it
    // reports every INVALID_OUTPUT with this rule) gets here.
    {rules::kMaxOutputBytes, ExecutionAnswer::kFinalResultBytes},
    // A result the wrapper's own checks let through (a lone surrogate, too deep) is not JSON: the
    // program's error, in codemode's fixed words for the rule.
    {rules::kOutputNotJson, ExecutionAnswer::kNotJson},
    {rules::kOutputCycle, ExecutionAnswer::kNotJson},
    {rules::kOutputBigint, ExecutionAnswer::kNotJson},
    {rules::kOutputLoneSurrogate, ExecutionAnswer::kNotJson},
    {rules::kOutputDepthLimit, ExecutionAnswer::kNotJson},
    {rules::kOutputValuesLimit, ExecutionAnswer::kNotJson},
    {rules::kOutputReservedKey, ExecutionAnswer::kNotJson},
    {rules::kOutputSchema, ExecutionAnswer::kNotJson},
    {rules::kCancelled, ExecutionAnswer::kAsIs},
    {rules::kWorkerExited, ExecutionAnswer::kAsIs},
    {rules::kWorkerProtocolError, ExecutionAnswer::kAsIs},
    {rules::kWorkerStartFailed, ExecutionAnswer::kAsIs},
    // Only with policy.unknownOutcomes end_execution (the default): a call whose outcome is
    // unknown ends the invocation whatever the program returned.
    {rules::kUnknownToolOutcome, ExecutionAnswer::kUnknownOutcome},
    // The sandbox, or codemode around it, failing the invocation: the code tool's code for an
    // internal error. (The code tool's own options, input and ids never fail: a failure here is
    // codemode's.)
    {rules::kSandboxError, ExecutionAnswer::kSandboxFailed},
    {rules::kInvalidOutput, ExecutionAnswer::kSandboxFailed},
    {rules::kUnsupportedProgram, ExecutionAnswer::kSandboxFailed},
    {rules::kAdapterUnavailable, ExecutionAnswer::kSandboxFailed},
    {rules::kInternalError, ExecutionAnswer::kSandboxFailed},
    {rules::kExecuteOptions, ExecutionAnswer::kSandboxFailed},
    {rules::kExecutionIdReused, ExecutionAnswer::kSandboxFailed},
    {rules::kMaxInputBytes, ExecutionAnswer::kSandboxFailed},
    {rules::kInputSchema, ExecutionAnswer::kSandboxFailed},
}};

}  // namespace

std::optional<ExecutionAnswer> execution_answer(std::string_view rule) {
  for (const RuleAnswer& row : kRuleAnswers) {
    if (row.rule == rule) return row.answer;
  }
  return std::nullopt;
}

namespace {

// The model profile's answer for a program error: what it threw, and where it was raised in the
// model's code, so that one turn can fix it:
//   {code: code_rejected, name, message, line?, column?, source?: that line of the model's code}
Json located_program_error(const ProgramError& error) {
  Json structured{{"code", codes::kCodeRejected}, {"name", error.name}, {"message", error.message}};
  if (error.location) {
    structured["line"] = error.location->line;
    structured["column"] = error.location->column;
    structured["source"] = error.location->source_line;
  }
  return structured;
}

// The calls whose outcome is unknown, as the client can name them: the tool and the call's id in
// the execution's evidence.
Json unknown_calls(const CodeExecutionOutcome& outcome) {
  Json calls = Json::array();
  for (const ExecutionEvidence& evidence : outcome.evidence) {
    if (evidence.receipt.execution != ExecutionState::kUnknown) continue;
    calls.push_back({{"tool", evidence.receipt.tool_id}, {"callId", evidence.receipt.call_id}});
  }
  return calls;
}

Json error_answer(Json structured) {
  return Json{{"content", Json::array({{{"type", "text"}, {"text", json_text(structured)}}})},
              {"structuredContent", std::move(structured)},
              {"isError", true}};
}

// In the model profile with console capture on, every answer carries the worker's logs.
Json with_model_logs(Json answer, const CodeExecutionOutcome& outcome, const McpPolicy& policy) {
  if (policy.program_profile != ProgramProfile::kModel || !policy.console_logs) return answer;
  Json structured = answer.value("structuredContent", Json::object());
  // A worker that was stopped (a deadline, the heap) sent no lines: an empty list.
  Json logs = fitted_logs(outcome.logs, policy.console_log_bytes);
  structured["logs"] = logs.is_null() ? Json::array() : std::move(logs);
  return error_answer(std::move(structured));
}

Json failure_answer(const CodeExecutionOutcome& outcome, const McpPolicy& policy);

}  // namespace

Json execution_failure(const CodeExecutionOutcome& outcome, const McpPolicy& policy) {
  return with_model_logs(failure_answer(outcome, policy), outcome, policy);
}

namespace {

Json failure_answer(const CodeExecutionOutcome& outcome, const McpPolicy& policy) {
  using enum ExecutionAnswer;
  const Error& error = *outcome.error;
  switch (execution_answer(error.rule).value_or(kSandboxFailed)) {
    case kProgramThrew:
      // What the program threw is the model's own text (never host data): returned as is.
      if (outcome.program_error && policy.program_profile == ProgramProfile::kModel) {
        return error_answer(located_program_error(*outcome.program_error));
      }
      if (outcome.program_error) {
        return tool_error_result(codes::kCodeRejected, outcome.program_error->message);
      }
      return tool_error_result(codes::kCodeRejected,
                               "the program's promise can never settle: nothing is left to run "
                               "and no tool call is pending");
    case kDeadline:
      return tool_error_result(codes::kDeadlineExceeded,
                               "JavaScript ran past its wall-time budget");
    case kHeap:
      return tool_error_result(codes::kCodeRejected, "JavaScript exceeded its heap budget");
    case kFinalResultBytes:
      return tool_error_result(codes::kFinalResultBytesLimit,
                               final_result_too_large(std::nullopt, policy.final_result_bytes));
    case kNotJson:
      return tool_error_result(codes::kCodeRejected, error.message);
    case kAsIs:
      return tool_error_result(error.rule, error.message);
    case kUnknownOutcome:
      return error_answer(Json{{"code", codes::kOutcomeUnknown},
                               {"message",
                                "a tool call may or may not have taken effect, so the program's "
                                "result was discarded; check what the call did before making it "
                                "again"},
                               {"calls", unknown_calls(outcome)}});
    case kSandboxFailed:
      break;
  }
  return tool_error_result(rules::kWorkerStartFailed, "code worker could not be started");
}

}  // namespace
}  // namespace codemode::mcp
