// How an execution ends: unknown tool outcomes, sandbox failure reasons, the program error, the
// output checks, and the executor's option and input checks.
#include <optional>
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>

#include "support/executor_fixture.h"

namespace codemode {
namespace {

using testing::execute_options;

CodeExecutionOutcome run_with_result(SandboxResult result, std::string id = "execution-1") {
  auto mode = testing::make_mode(
      [result](const SandboxRequest&, ToolBridge&, std::stop_token) { return result; },
      testing::doubling_broker());
  return mode->execute(testing::calculate_program(), {{"value", 1}}, execute_options(id));
}

CodeExecutionOutcome run_with_broker(ToolBroker broker, CodeProgram program) {
  auto mode = testing::make_mode(testing::call_double, std::move(broker));
  return mode->execute(program, {{"value", 1}}, execute_options());
}

constexpr const char* kSandboxMessage =
    "The sandbox failed before the program finished; its details are withheld.";

TEST(CodeModeOutcome, ForcesReconciliationWhenAReceiptSaysUnknown) {
  ToolOptions write = testing::double_tool_options();
  write.effects = ToolEffects::kWrite;
  write.cost_micros = 0;
  auto options = testing::calculate_options();
  options.tools = {define_tool(write).value()};
  CodeExecutionOutcome outcome = run_with_broker(
      [](const Tool& tool, const Json&, const BrokerContext& context) {
        return ToolOutcome::failed(
            Error::outcome_unknown("x", "private provider message"),
            testing::receipt_for(context, tool, ExecutionState::kUnknown, Disclosure::kWithheld));
      },
      define_code_program(options).value());
  EXPECT_EQ(outcome.status, OutcomeStatus::kOutcomeUnknown);
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kOutcomeUnknown);
  EXPECT_EQ(outcome.error->message,
            "A tool call may or may not have taken effect, so the program's result was "
            "discarded. Reconcile the effect (see evidence) before retrying.");
  EXPECT_FALSE(outcome.program_error.has_value());
  EXPECT_EQ(outcome.usage, (CodeExecutionUsage{1, 1, 0, 0, 0}));
  ASSERT_EQ(outcome.evidence.size(), 1u);
  EXPECT_EQ(outcome.evidence[0].receipt.execution, ExecutionState::kUnknown);
  EXPECT_EQ(to_json(outcome).dump().find("private"), std::string::npos);
}

// A host whose caller cannot reconcile leaves the unknown call to the program: it saw the call end
// outcome_unknown, and what it returns is the outcome; usage and evidence still count the call.
TEST(CodeModeOutcome, LeavesAnUnknownCallToTheProgramWhenTheHostAsks) {
  ToolOptions write = testing::double_tool_options();
  write.effects = ToolEffects::kWrite;
  write.cost_micros = 0;
  auto options = testing::calculate_options();
  options.tools = {define_tool(write).value()};
  std::optional<CodeToolOutcome> seen;
  auto mode = CodeMode::create(
                  {.adapter = make_test_sandbox_adapter(
                       {.run =
                            [&](const SandboxRequest& request, ToolBridge& tools, std::stop_token) {
                              seen = tools.call_and_wait("number.double", request.input);
                              // The program handles the failure and returns a value of its own.
                              return SandboxResult::success(
                                  Json{{"value", seen->rule() == "tool_timeout" ? 7 : 0}});
                            }}),
                   .invoke_tool =
                       [](const Tool& tool, const Json&, const BrokerContext& context) {
                         return ToolOutcome::failed(
                             Error::outcome_unknown("tool_timeout", "m"),
                             testing::receipt_for(context, tool, ExecutionState::kUnknown,
                                                  Disclosure::kWithheld));
                       },
                   .allow_test_adapter = true,
                   .unknown_outcomes = UnknownOutcomes::kLeaveToProgram})
                  .value();
  CodeExecutionOutcome outcome =
      mode->execute(define_code_program(options).value(), {{"value", 1}}, execute_options());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->status(), OutcomeStatus::kOutcomeUnknown);
  ASSERT_TRUE(outcome.ok()) << outcome.error->rule;
  EXPECT_EQ(outcome.output, (Json{{"value", 7}}));
  EXPECT_EQ(outcome.usage.unknown_calls, 1);
  ASSERT_EQ(outcome.evidence.size(), 1u);
  EXPECT_EQ(outcome.evidence[0].receipt.execution, ExecutionState::kUnknown);
}

TEST(CodeModeOutcome, AnUnknownOutcomesValueOutsideTheEnumIsRefused) {
  Result<std::unique_ptr<CodeMode>> mode =
      CodeMode::create({.adapter = make_test_sandbox_adapter({.run = testing::call_double}),
                        .invoke_tool = testing::doubling_broker(),
                        .allow_test_adapter = true,
                        .unknown_outcomes = static_cast<UnknownOutcomes>(7)});
  ASSERT_FALSE(mode.ok());
  EXPECT_EQ(mode.error().rule, "code_mode_options");
}

TEST(CodeModeOutcome, DiscardsAReceiptThatDoesNotNameTheCall) {
  CodeExecutionOutcome outcome = run_with_broker(
      [](const Tool& tool, const Json& input, const BrokerContext& context) {
        ExecutionReceipt receipt{context.call_id + "-private", tool.id(),
                                 ExecutionState::kSucceeded, Disclosure::kReleased};
        return ToolOutcome::succeeded(Json{{"value", input.at("value").get<int>() * 2}}, receipt);
      },
      testing::calculate_program());
  EXPECT_EQ(outcome.status, OutcomeStatus::kOutcomeUnknown);
  EXPECT_EQ(outcome.usage, (CodeExecutionUsage{1, 1, 0, 1, 4}));
  EXPECT_TRUE(outcome.evidence.empty());
  EXPECT_EQ(to_json(outcome).dump().find("private"), std::string::npos);
}

TEST(CodeModeOutcome, ABrokerThatThrowsOrAnswersMalformedLeavesTheCallUnknown) {
  const std::vector<ToolBroker> brokers = {
      [](const Tool&, const Json&, const BrokerContext&) -> ToolOutcome {
        throw std::runtime_error("SECRET");
      },
      [](const Tool& tool, const Json&, const BrokerContext& context) {
        ToolOutcome malformed;  // succeeded without an output
        malformed.status = OutcomeStatus::kSucceeded;
        malformed.receipt =
            testing::receipt_for(context, tool, ExecutionState::kSucceeded, Disclosure::kReleased);
        return malformed;
      },
      [](const Tool& tool, const Json&, const BrokerContext& context) {
        // An output larger than maxOutputBytes cannot be shown, so the program cannot know.
        return ToolOutcome::succeeded(
            Json{{"value", std::string(5000, 'x')}},
            testing::receipt_for(context, tool, ExecutionState::kSucceeded, Disclosure::kReleased));
      },
  };
  for (const ToolBroker& broker : brokers) {
    CodeExecutionOutcome outcome = run_with_broker(broker, testing::calculate_program());
    EXPECT_EQ(outcome.status, OutcomeStatus::kOutcomeUnknown);
    EXPECT_EQ(outcome.usage, (CodeExecutionUsage{1, 1, 0, 1, 4}));
    EXPECT_EQ(to_json(outcome).dump().find("SECRET"), std::string::npos);
  }
}

TEST(CodeModeOutcome, MapsEachSandboxReasonToAPreciseCode) {
  struct Case {
    SandboxFailureReason reason;
    ErrorCode code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {SandboxFailureReason::kProgramError, ErrorCode::kToolFailed,
       "The program threw an error, did not compile, or returned a promise that can never settle. "
       "programError holds what it threw, when the sandbox could report it."},
      {SandboxFailureReason::kCpuLimit, ErrorCode::kLimitExceeded,
       "The program ran longer than its cpuMillis limit."},
      {SandboxFailureReason::kMemoryLimit, ErrorCode::kLimitExceeded,
       "The program needed more memory than its memoryBytes limit."},
      {SandboxFailureReason::kInvalidOutput, ErrorCode::kInvalidOutput,
       "The program's result is not plain JSON within maxOutputBytes."},
      {SandboxFailureReason::kUnsupportedProgram, ErrorCode::kUnsupportedProfile,
       "This sandbox cannot run the program's language or approved imports."},
      {SandboxFailureReason::kSandboxError, ErrorCode::kToolFailed, kSandboxMessage},
  };
  int n = 0;
  for (const Case& c : cases) {
    CodeExecutionOutcome outcome =
        run_with_result(SandboxResult::failure(c.reason), "reason-" + std::to_string(n++));
    EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
    ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
    EXPECT_EQ(outcome.error->code, c.code);
    EXPECT_EQ(outcome.error->rule, to_string(c.reason));  // invalid_output: no fault said
    EXPECT_EQ(outcome.error->message, c.message);
    EXPECT_EQ(outcome.usage, (CodeExecutionUsage{0, 0, 0, 0, 4}));
  }
}

TEST(CodeModeOutcome, NamesTheSandboxFaultAsTheRule) {
  struct Case {
    SandboxFault fault;
    std::string rule;
    std::string message;
  };
  const std::vector<Case> cases = {
      {SandboxFault::kWorkerStartFailed, "worker_start_failed",
       "The sandbox worker could not be started or did not confirm its confinement; its details "
       "are withheld."},
      {SandboxFault::kWorkerProtocolError, "worker_protocol_error",
       "The sandbox worker broke the parent-worker protocol and was stopped; its details are "
       "withheld."},
      {SandboxFault::kWorkerExited, "worker_exited",
       "The sandbox worker ended before returning a result; its details are withheld."},
  };
  int n = 0;
  for (const Case& c : cases) {
    EXPECT_EQ(to_string(c.fault), c.rule);
    EXPECT_EQ(sandbox_fault_from_string(c.rule), c.fault);
    const SandboxResult result = SandboxResult::failure(c.fault);
    EXPECT_EQ(result.reason(), SandboxFailureReason::kSandboxError);
    CodeExecutionOutcome outcome = run_with_result(result, "fault-" + std::to_string(n++));
    EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
    ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
    EXPECT_EQ(outcome.error->code, ErrorCode::kToolFailed);
    EXPECT_EQ(outcome.error->rule, c.rule);
    EXPECT_EQ(outcome.error->message, c.message);
  }
  EXPECT_EQ(sandbox_fault_from_string("sandbox_error"), std::nullopt);
  EXPECT_EQ(sandbox_fault_from_string("Worker_exited"), std::nullopt);
}

// Each way a result is not output has its own rule; max_output_bytes is the size only.
TEST(CodeModeOutcome, NamesTheOutputFaultAsTheRule) {
  const std::vector<std::pair<OutputFault, std::string>> cases = {
      {OutputFault::kMaxOutputBytes, "max_output_bytes"},
      {OutputFault::kNotJson, "output_not_json"},
      {OutputFault::kCycle, "output_cycle"},
      {OutputFault::kBigInt, "output_bigint"},
      {OutputFault::kLoneSurrogate, "output_lone_surrogate"},
      {OutputFault::kDepthLimit, "output_depth_limit"},
      {OutputFault::kValuesLimit, "output_values_limit"},
      {OutputFault::kReservedKey, "output_reserved_key"},
  };
  std::set<std::string> messages;
  int n = 0;
  for (const auto& [fault, rule] : cases) {
    EXPECT_EQ(to_string(fault), rule);
    EXPECT_EQ(output_fault_from_string(rule), fault);
    const SandboxResult result = SandboxResult::failure(fault);
    EXPECT_EQ(result.reason(), SandboxFailureReason::kInvalidOutput);
    CodeExecutionOutcome outcome = run_with_result(result, "output-" + std::to_string(n++));
    EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
    ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
    EXPECT_EQ(outcome.error->code, ErrorCode::kInvalidOutput);
    EXPECT_EQ(outcome.error->rule, rule);
    messages.insert(outcome.error->message);
  }
  EXPECT_EQ(messages.size(), cases.size()) << "a message of its own for each";
  EXPECT_EQ(output_fault_from_string("invalid_output"), std::nullopt);
}

TEST(CodeModeOutcome, AThrowingAdapterRevealsNothing) {
  auto mode = testing::make_mode(
      [](const SandboxRequest&, ToolBridge&, std::stop_token) -> SandboxResult {
        throw std::runtime_error("SECRET");
      },
      testing::doubling_broker());
  CodeExecutionOutcome outcome =
      mode->execute(testing::calculate_program(), {{"value", 1}}, execute_options());
  EXPECT_EQ(to_json(outcome),
            Json::parse(R"({"status":"failed","error":{"code":"TOOL_FAILED","rule":"sandbox_error",
              "message":"The sandbox failed before the program finished; its details are withheld."},
              "usage":{"toolCalls":0,"unknownCalls":0,"knownCostMicros":0,"unknownCostMicros":0,
              "maximumCostMicros":4}})"));
}

TEST(CodeModeOutcome, CapsTheProgramErrorAndAttachesItOnlyToProgramErrors) {
  CodeExecutionOutcome outcome = run_with_result(
      SandboxResult::failure(SandboxFailureReason::kProgramError,
                             ProgramError{std::string(500, 'n'), std::string(5000, 'm')}));
  ASSERT_TRUE(outcome.program_error.has_value());
  EXPECT_EQ(outcome.program_error->name.size(), 128u);
  EXPECT_EQ(outcome.program_error->message.size(), 1024u);
  EXPECT_EQ(outcome.error->message.find("mmm"), std::string::npos);

  CodeExecutionOutcome emoji =
      run_with_result(SandboxResult::failure(SandboxFailureReason::kProgramError,
                                             ProgramError{"E", std::string(600 * 1, 'a') +
                                                                   [] {
                                                                     std::string s;
                                                                     for (int i = 0; i < 300; ++i)
                                                                       s += "\xF0\x9F\x98\x80";
                                                                     return s;
                                                                   }()}),
                      "emoji");
  ASSERT_TRUE(emoji.program_error.has_value());
  EXPECT_EQ(emoji.program_error->message.size(), 600u + 212u * 4u);  // 600 + 2*212 = 1024 units

  CodeExecutionOutcome cpu = run_with_result(
      SandboxResult::failure(SandboxFailureReason::kCpuLimit, ProgramError{"Error", "x"}), "cpu");
  EXPECT_FALSE(cpu.program_error.has_value());
  CodeExecutionOutcome invalid = run_with_result(
      SandboxResult::failure(SandboxFailureReason::kProgramError, ProgramError{"\xFF", "x"}),
      "invalid");
  ASSERT_TRUE(invalid.error.has_value());
  EXPECT_EQ(invalid.error->code, ErrorCode::kToolFailed);
  EXPECT_FALSE(invalid.program_error.has_value());
}

TEST(CodeModeOutcome, RefusesAResultThatIsNotPlainJsonWithinMaxOutputBytes) {
  CodeExecutionOutcome big =
      run_with_result(SandboxResult::success(Json{{"value", std::string(10'000, 'x')}}));
  ASSERT_TRUE(big.error.has_value());
  EXPECT_EQ(big.error->code, ErrorCode::kInvalidOutput);
  EXPECT_EQ(big.error->rule, "max_output_bytes");
  EXPECT_EQ(big.error->message, "The program's result is longer than maxOutputBytes as JSON.");
  CodeExecutionOutcome nan = run_with_result(
      SandboxResult::success(Json{{"value", std::numeric_limits<double>::quiet_NaN()}}), "nan");
  ASSERT_TRUE(nan.error.has_value());
  EXPECT_EQ(nan.error->code, ErrorCode::kInvalidOutput);
  EXPECT_EQ(nan.error->rule, "output_not_json");
  Json deep = 1;
  for (int i = 0; i < 40; ++i) deep = Json::array({deep});
  CodeExecutionOutcome too_deep = run_with_result(SandboxResult::success(deep), "deep");
  ASSERT_TRUE(too_deep.error.has_value());
  EXPECT_EQ(too_deep.error->code, ErrorCode::kInvalidOutput);
  EXPECT_EQ(too_deep.error->rule, "output_depth_limit");
  CodeExecutionOutcome wrong =
      run_with_result(SandboxResult::success(Json{{"value", "twelve"}}), "wrong-type");
  ASSERT_TRUE(wrong.error.has_value());
  EXPECT_EQ(wrong.error->code, ErrorCode::kInvalidOutput);
  EXPECT_EQ(wrong.error->rule, "output_schema");
  EXPECT_EQ(wrong.error->message,
            "The program's result does not match its output schema. /value: must be number");
}

TEST(CodeModeOutcome, ExplainsOptionAndInputErrors) {
  auto mode = testing::make_mode(testing::call_double, testing::doubling_broker());
  CodeProgram program = testing::calculate_program();
  ExecuteOptions options = execute_options();
  options.run_id = " ";
  CodeExecutionOutcome bad_run = mode->execute(program, {{"value", 1}}, options);
  ASSERT_TRUE(bad_run.error.has_value());
  EXPECT_EQ(bad_run.error->code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(bad_run.error->message,
            "execute options need runId to be a nonempty string of at most 256 characters.");
  options = execute_options("scope");
  options.scope.project_id = std::string(257, 'p');
  CodeExecutionOutcome long_project = mode->execute(program, {{"value", 1}}, options);
  ASSERT_TRUE(long_project.error.has_value());
  EXPECT_EQ(long_project.error->code, ErrorCode::kInvalidConfig);

  CodeExecutionOutcome big =
      mode->execute(program, {{"value", std::string(10'000, 'x')}}, execute_options("big"));
  ASSERT_TRUE(big.error.has_value());
  EXPECT_EQ(big.error->code, ErrorCode::kInvalidInput);
  EXPECT_EQ(big.error->message,
            "The input is not plain JSON within the program's maxInputBytes limit.");
  EXPECT_EQ(big.usage, (CodeExecutionUsage{.maximum_cost_micros = 4}));
  CodeExecutionOutcome wrong = mode->execute(program, {{"value", "six"}}, execute_options("wrong"));
  ASSERT_TRUE(wrong.error.has_value());
  EXPECT_EQ(wrong.error->code, ErrorCode::kInvalidInput);
  EXPECT_EQ(wrong.error->rule, "input_schema");
  EXPECT_EQ(wrong.error->message,
            "The input does not match the program's input schema. /value: must be number");
}

TEST(CodeModeOutcome, SnapshotsTheInputBeforeConsultingTheAdapter) {
  Json input{{"value", 1}};
  Json seen;
  auto adapter = std::make_shared<testing::FakeAdapter>(
      "sandbox.snapshot", AdapterQualification::kProduction,
      [&](const SandboxRequest& request, ToolBridge&, std::stop_token) {
        seen = request.input;
        return SandboxResult::success(request.input);
      });
  adapter->available_ = [&] {
    input["value"] = 99;  // the caller changes its object while availability is checked
    return true;
  };
  auto mode =
      CodeMode::create({.adapter = adapter, .invoke_tool = testing::doubling_broker()}).value();
  CodeExecutionOutcome outcome =
      mode->execute(testing::calculate_program(), input, execute_options());
  EXPECT_EQ(outcome.status, OutcomeStatus::kSucceeded);
  EXPECT_EQ(seen, (Json{{"value", 1}}));
}

}  // namespace
}  // namespace codemode
