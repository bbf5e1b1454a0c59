// The parent's checks of the worker's frames (src/protocol/parent_end.cc): one test per
// malformed case, named after it, plus the shapes of the frames the parent writes.
#include "protocol/parent_end.h"

#include <gtest/gtest.h>

#include "protocol/frame_format.h"
#include "support/program_fixture.h"

namespace codemode::internal {
namespace {

Json frame(const char* text) { return Json::parse(text); }

bool refused(const char* text) {
  Result<WorkerMessage> message = parse_worker_message(frame(text));
  if (message.ok()) return false;
  EXPECT_EQ(message.error().rule, "worker_protocol_error");
  // Never quotes the frame back.
  EXPECT_EQ(message.error().message.find("secret"), std::string::npos);
  return true;
}

constexpr const char* kAllLayers =
    R"(["engine","fds","rlimits","capabilities","process","seccomp"])";

Json confined_with(const char* layers) {
  return frame((std::string(R"({"type":"confined","version":1,"layers":)") + layers + "}").c_str());
}

TEST(ConfinedMessage, AcceptsVersionOneWithEveryLayerInOrder) {
  EXPECT_TRUE(check_confined_message(confined_with(kAllLayers)).ok());
  EXPECT_EQ(confined_with(kAllLayers)["layers"].size(), kConfinementLayers.size());
}

TEST(ConfinedMessage, RefusesWrongVersionTypeLayersOrExtraFields) {
  for (const char* text :
       {R"({"type":"confined","version":2,"layers":[]})",
        R"({"type":"confined","version":"1","layers":[]})", R"({"type":"confined","layers":[]})",
        R"({"type":"confined","version":1})", R"({"type":"confined","version":1,"layers":[1]})",
        R"({"type":"confined","version":1,"layers":"seccomp"})",
        R"({"type":"confined","version":1,"layers":[],"secret":1})",
        R"({"type":"result","status":"succeeded","hasOutput":true,"output":1})"}) {
    EXPECT_FALSE(check_confined_message(frame(text)).ok()) << text;
  }
}

// A worker that lacks a layer, adds one of its own or applies them in another order does not
// run the program.
TEST(ConfinedMessage, RefusesAnyOtherListOfLayers) {
  for (const char* layers :
       {"[]", R"(["engine","fds","capabilities","process","seccomp"])",
        R"(["engine","fds","rlimits","capabilities","process"])",
        R"(["engine","fds","rlimits","process","seccomp"])",  // before capabilities were dropped
        R"(["engine","fds","rlimits","capabilities","process","seccomp","seccomp"])",
        R"(["engine","fds","rlimits","capabilities","process","seccomp","extra"])",
        R"(["fds","engine","rlimits","capabilities","process","seccomp"])",
        R"(["engine","fds","rlimits_unenforced","capabilities","process","seccomp"])"}) {
    const Status checked = check_confined_message(confined_with(layers));
    ASSERT_FALSE(checked.ok()) << layers;
    EXPECT_EQ(checked.error().rule, "worker_protocol_error");
  }
}

// Each engine profile's list is accepted only where it is expected: a parent that asked for the
// interpreter refuses a JIT worker's weaker layers, and one that asked for the JIT refuses the
// interpreter's (in both isolation profiles).
TEST(ConfinedMessage, AcceptsEachEngineProfilesLayersOnlyWhereExpected) {
  const auto list = [](std::span<const std::string_view> layers) {
    Json names = Json::array();
    for (std::string_view layer : layers) names.push_back(std::string(layer));
    return Json{{"type", "confined"}, {"version", 1u}, {"layers", names}};  // as parsed: unsigned
  };
  for (IsolationProfile isolation : {IsolationProfile::kProcess, IsolationProfile::kIsolated}) {
    const auto interpreter = confinement_layers(isolation, EngineProfile::kInterpreter);
    const auto jit = confinement_layers(isolation, EngineProfile::kJit);
    EXPECT_TRUE(check_confined_message(list(interpreter), interpreter).ok());
    EXPECT_TRUE(check_confined_message(list(jit), jit).ok());
    EXPECT_FALSE(check_confined_message(list(jit), interpreter).ok());
    EXPECT_FALSE(check_confined_message(list(interpreter), jit).ok());
  }
  EXPECT_EQ(confinement_layers(IsolationProfile::kProcess, EngineProfile::kJit).front(),
            "engine_jit");
  EXPECT_EQ(confinement_layers(IsolationProfile::kIsolated, EngineProfile::kJit).back(),
            "seccomp_jit");
}

TEST(ToolCallMessage, CarriesIdToolAndInput) {
  Result<WorkerMessage> message = parse_worker_message(
      frame(R"({"type":"toolCall","callId":3,"toolId":"catalog.price","input":{"sku":"ab"}})"));
  ASSERT_TRUE(message.ok());
  const auto& call = std::get<ToolCallMessage>(*message);
  EXPECT_EQ(call.call_id, 3u);
  EXPECT_EQ(call.tool_id, "catalog.price");
  EXPECT_EQ(call.input, Json({{"sku", "ab"}}));
}

TEST(ToolCallMessage, NullInputIsAnInput) {
  EXPECT_TRUE(
      parse_worker_message(frame(R"({"type":"toolCall","callId":1,"toolId":"t","input":null})"))
          .ok());
}

TEST(ToolCallMessage, MissingInput) {
  EXPECT_TRUE(refused(R"({"type":"toolCall","callId":1,"toolId":"t"})"));
}

TEST(ToolCallMessage, CallIdNotAPositiveSafeInteger) {
  EXPECT_TRUE(refused(R"({"type":"toolCall","callId":0,"toolId":"t","input":1})"));
  EXPECT_TRUE(refused(R"({"type":"toolCall","callId":-1,"toolId":"t","input":1})"));
  EXPECT_TRUE(refused(R"({"type":"toolCall","callId":1.5,"toolId":"t","input":1})"));
  EXPECT_TRUE(refused(R"({"type":"toolCall","callId":"1","toolId":"t","input":1})"));
}

TEST(ToolCallMessage, ToolIdNotAString) {
  EXPECT_TRUE(refused(R"({"type":"toolCall","callId":1,"toolId":7,"input":1})"));
}

TEST(ToolCallMessage, UnknownField) {
  EXPECT_TRUE(refused(R"({"type":"toolCall","callId":1,"toolId":"t","input":1,"secret":2})"));
}

TEST(ResultMessage, SucceededCarriesItsOutputNullIncluded) {
  Result<WorkerMessage> message = parse_worker_message(
      frame(R"({"type":"result","status":"succeeded","hasOutput":true,"output":null})"));
  ASSERT_TRUE(message.ok());
  const auto& result = std::get<SandboxResult>(*message);
  EXPECT_TRUE(result.succeeded());
  ASSERT_TRUE(result.output().has_value());
  EXPECT_TRUE(result.output()->is_null());
}

TEST(ResultMessage, SucceededWithoutPresenceBitOrOutput) {
  EXPECT_TRUE(refused(R"({"type":"result","status":"succeeded","output":1})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"succeeded","hasOutput":false,"output":1})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"succeeded","hasOutput":true})"));
}

TEST(ResultMessage, SucceededWithAReason) {
  EXPECT_TRUE(refused(
      R"({"type":"result","status":"succeeded","hasOutput":true,"output":1,"reason":"cpu_limit"})"));
}

TEST(ResultMessage, FailedCarriesItsReason) {
  Result<WorkerMessage> message =
      parse_worker_message(frame(R"({"type":"result","status":"failed","reason":"memory_limit"})"));
  ASSERT_TRUE(message.ok());
  const auto& result = std::get<SandboxResult>(*message);
  EXPECT_FALSE(result.succeeded());
  EXPECT_EQ(result.reason(), SandboxFailureReason::kMemoryLimit);
  EXPECT_FALSE(result.program_error().has_value());
}

TEST(ResultMessage, FailedWithProgramError) {
  Result<WorkerMessage> message = parse_worker_message(frame(
      R"({"type":"result","status":"failed","reason":"program_error",
          "programError":{"name":"TypeError","message":"x is not a function"}})"));
  ASSERT_TRUE(message.ok());
  const auto& result = std::get<SandboxResult>(*message);
  EXPECT_EQ(result.program_error(), (ProgramError{"TypeError", "x is not a function"}));
}

TEST(ResultMessage, ForgedReason) {
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"root_shell"})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed"})"));
}

TEST(ResultMessage, WorkerMayNotClaimAnUnsupportedProgram) {
  // Only the parent decides support, before launch; a worker saying so is lying.
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"unsupported_program"})"));
}

TEST(ResultMessage, ProgramErrorOutOfPlaceOrMalformed) {
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"cpu_limit",
                          "programError":{"name":"E","message":"m"}})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"program_error",
                          "programError":{"name":1,"message":"m"}})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"program_error",
                          "programError":{"name":"E"}})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"program_error",
                          "programError":{"name":"E","message":"m","secret":1}})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"program_error",
                          "programError":"E: m"})"));
}

TEST(ResultMessage, InvalidOutputCarriesItsRule) {
  for (const char* rule : {"max_output_bytes", "output_not_json", "output_cycle", "output_bigint",
                           "output_lone_surrogate", "output_depth_limit", "output_values_limit",
                           "output_reserved_key"}) {
    SCOPED_TRACE(rule);
    Result<WorkerMessage> message = parse_worker_message(Json{
        {"type", "result"}, {"status", "failed"}, {"reason", "invalid_output"}, {"rule", rule}});
    ASSERT_TRUE(message.ok()) << message.error().message;
    const auto& result = std::get<SandboxResult>(*message);
    EXPECT_EQ(result.reason(), SandboxFailureReason::kInvalidOutput);
    ASSERT_TRUE(result.output_fault().has_value());
    EXPECT_EQ(to_string(*result.output_fault()), rule);
  }
}

TEST(ResultMessage, InvalidOutputRuleMissingUnknownOrOutOfPlace) {
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"invalid_output"})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"invalid_output",
                          "rule":"root_shell"})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"invalid_output",
                          "rule":1})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"cpu_limit",
                          "rule":"output_cycle"})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"cpu_limit","rule":"x"})"));
}

TEST(ResultMessage, FailedWithOutput) {
  EXPECT_TRUE(
      refused(R"({"type":"result","status":"failed","reason":"cpu_limit","hasOutput":true})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"cpu_limit","output":1})"));
  EXPECT_TRUE(
      parse_worker_message(
          frame(R"({"type":"result","status":"failed","reason":"cpu_limit","hasOutput":false})"))
          .ok());
}

TEST(ResultMessage, UnknownStatus) {
  EXPECT_TRUE(refused(R"({"type":"result","status":"blocked","reason":"cpu_limit"})"));
}

TEST(WorkerMessage, UnknownOrMissingType) {
  EXPECT_TRUE(refused(R"({"type":"confined","version":1,"layers":[]})"));
  EXPECT_TRUE(refused(R"({"type":"toolResult","callId":1})"));
  EXPECT_TRUE(refused(R"({"callId":1})"));
  EXPECT_TRUE(refused(R"({"type":7})"));
}

TEST(StartMessage, CarriesSourceInputAndTheSixWorkerLimits) {
  CodeProgramOptions options = testing::calculate_options();
  options.language = ProgramLanguage::kJavaScript;
  const CodeProgram program = define_code_program(options).value();
  const std::string id = "e-1";
  const Json input{{"value", 3}};
  const Json start = start_message(SandboxRequest{id, program, input}, 256 << 10);
  EXPECT_EQ(start.at("type"), "start");
  EXPECT_EQ(start.at("version"), 1);
  EXPECT_EQ(start.at("source"), program.source());
  EXPECT_EQ(start.at("input"), input);
  EXPECT_EQ(start.at("limits"), Json({{"cpuMillis", 100},
                                      {"wallTimeMillis", testing::kReferenceWallMillis},
                                      {"memoryBytes", 32 * 1024 * 1024},
                                      {"maxOutputBytes", 4096},
                                      {"maxToolInputBytes", 2048},
                                      {"maxToolCalls", 4},
                                      {"stackBytes", 256 << 10}}));
  // A standard JavaScript program: no profile, no language, no concurrency (only the model
  // profile's worker queues), so a worker of an earlier release reads the frame.
  EXPECT_EQ(start.size(), 5u);
}

TEST(StartMessage, NamesTheModelProfileAndTypeScript) {
  CodeProgramOptions options = testing::calculate_options();  // language typescript
  options.profile = ProgramProfile::kModel;
  const CodeProgram program = define_code_program(options).value();
  const std::string id = "e-1";
  const Json input{{"value", 3}};
  const Json start = start_message(SandboxRequest{id, program, input}, 256 << 10);
  EXPECT_EQ(start.at("profile"), "model");
  EXPECT_EQ(start.at("language"), "typescript");
  EXPECT_EQ(start.at("limits").at("maxToolConcurrency"), 2);
}

TEST(ResultMessage, AProgramErrorsLocationAndTheLogsAreRead) {
  const Result<WorkerMessage> read = parse_worker_message(Json::parse(R"({
    "type":"result","status":"failed","reason":"program_error",
    "programError":{"name":"ReferenceError","message":"x is not defined","line":3,"column":9,
                    "sourceLine":"  return x;"},
    "logs":{"lines":["a","b"],"dropped":2}})"));
  ASSERT_TRUE(read.ok()) << read.error().message;
  const SandboxResult& result = std::get<SandboxResult>(*read);
  ASSERT_TRUE(result.program_error().has_value());
  ASSERT_TRUE(result.program_error()->location.has_value());
  EXPECT_EQ(result.program_error()->location->line, 3);
  EXPECT_EQ(result.program_error()->location->column, 9);
  EXPECT_EQ(result.program_error()->location->source_line, "  return x;");
  ASSERT_TRUE(result.logs().has_value());
  EXPECT_EQ(result.logs()->lines, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(result.logs()->dropped, 2u);
}

TEST(ResultMessage, APartialLocationOrLogsOfTheWrongShapeAreRefused) {
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"program_error",
      "programError":{"name":"E","message":"m","line":3}})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"failed","reason":"program_error",
      "programError":{"name":"E","message":"m","line":0,"column":1,"sourceLine":""}})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"succeeded","hasOutput":true,"output":1,
      "logs":{"lines":[1],"dropped":0}})"));
  EXPECT_TRUE(refused(R"({"type":"result","status":"succeeded","hasOutput":true,"output":1,
      "logs":{"lines":[],"dropped":-1}})"));
  const std::string too_many = Json(std::vector<std::string>(2000, std::string(10, 'x'))).dump();
  const std::string oversized = R"({"type":"result","status":"succeeded","hasOutput":true,)"
                                R"("output":1,"logs":{"lines":)" +
                                too_many + R"(,"dropped":0}})";
  EXPECT_TRUE(refused(oversized.c_str()));
}

TEST(ToolResultMessage, SuccessHasThePresenceBitAndOutput) {
  const Json result = tool_result_message(2, CodeToolOutcome::success(Json(nullptr)));
  EXPECT_EQ(result, Json::parse(R"({"type":"toolResult","callId":2,"status":"succeeded",
                                    "hasOutput":true,"output":null})"));
}

TEST(ToolResultMessage, FailureHasAnErrorWithItsRuleAndNoOutput) {
  const Json result = tool_result_message(
      1, CodeToolOutcome::failure(OutcomeStatus::kBlocked, ErrorCode::kPermissionDenied,
                                  "permission", "The tool call was not permitted."));
  EXPECT_EQ(result, Json::parse(R"({"type":"toolResult","callId":1,"status":"blocked",
                                    "hasOutput":false,"error":{"code":"PERMISSION_DENIED",
                                    "rule":"permission",
                                    "message":"The tool call was not permitted."}})"));
}

TEST(ToolResultMessage, ARuleThatIsNotARuleNameIsSentAsTheCodeInLowerCase) {
  for (const char* rule : {"", "Permission", "a rule with spaces", "x/y"}) {
    const Json result = tool_result_message(
        1,
        CodeToolOutcome::failure(OutcomeStatus::kBlocked, ErrorCode::kPermissionDenied, rule, "m"));
    EXPECT_EQ(result.at("error").at("rule"), "permission_denied") << rule;
  }
}

}  // namespace
}  // namespace codemode::internal
