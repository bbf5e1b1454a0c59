// Malformed IPC from inside the real, confined worker: the program asks the test-hooks worker to
// write bytes straight to its frame pipe, as an exploited engine could, and then either to exit at
// once or to hang in native code. tests/sandbox/process_adapter_protocol_test.cc shows the same
// rules against a /bin/sh stand-in; here the bytes come from behind the system-call filter, after
// a real "confined" frame, interleaved with the worker's own frames.
//
// Every case must end as worker_protocol_error, promptly (not at the wall deadline, even when the
// worker hangs), with the worker killed and reaped, and the next execution on the same CodeMode
// must work.
#include <chrono>
#include <ostream>
#include <string>

#include <gtest/gtest.h>

#include "protocol/frame_format.h"
#include "support/testhooks_fixture.h"
#include "support/timing.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;
using testing::frame_bytes;
using testing::HookedMode;
using testing::js_bytes;
using testing::json_frame;

// What the worker does once it wrote the bytes.
enum class Then { kExit, kHang };

std::string then_source(Then then) {
  return then == Then::kExit ? "__codemodeTestHook('exit', 0);" : "__codemodeTestHook('hang');";
}

// A program that writes `bytes` to fd 1, then exits (status 0) or hangs. Should either hook
// return, the program returns "survived", and the test fails on the outcome.
CodeProgram writing_program(const std::string& bytes, Then then) {
  return testing::hook_program("() => { __codemodeTestHook('write_stdout', " + js_bytes(bytes) +
                               "); " + then_source(then) + " return 'survived'; }");
}

Json result_message(const Json& output) {
  return {{"type", "result"}, {"status", "succeeded"}, {"hasOutput", true}, {"output", output}};
}

Json tool_call_message(std::int64_t call_id, const std::string& tool_id = "number.double") {
  return {
      {"type", "toolCall"}, {"callId", call_id}, {"toolId", tool_id}, {"input", {{"value", 1}}}};
}

// The frame cap of everything the worker writes, for hook_limits().
std::size_t worker_frame_cap() {
  const CodeLimits limits = testing::hook_limits();
  return internal::worker_frame_cap(limits.max_output_bytes, limits.max_tool_input_bytes);
}

struct MalformedCase {
  const char* name;
  std::string bytes;
  int max_broker_calls = 0;  // a duplicate id's first call is a real call
};

constexpr char kGarbage[] = "\xde\xad\xbe\xef garbage \x00\x01\x7f\xff, not a frame";

std::vector<MalformedCase> malformed_cases() {
  return {
      {"GarbageBytes", std::string(kGarbage, sizeof kGarbage - 1)},
      {"OversizedLengthPrefix", frame_bytes("{}", worker_frame_cap() + 1)},
      {"LengthPrefixOfZero", std::string(4, '\0') + "{}"},
      {"InvalidJson", frame_bytes("{ definitely-not-json }")},
      {"JsonThatIsNotAnObject", frame_bytes("[\"result\"]")},
      {"BodyThatIsNotUtf8", frame_bytes("{\"type\":\"result\",\"x\":\"\xc3\x28\"}")},
      {"ConfinedAgainWithAnotherVersion",
       json_frame(Json{{"type", "confined"}, {"version", 2}, {"layers", Json::array()}})},
      {"UnknownType", json_frame(Json{{"type", "shell"}, {"command", "id"}})},
      {"ResultWithoutHasOutput",
       json_frame(Json{{"type", "result"}, {"status", "succeeded"}, {"output", 1}})},
      {"SucceededResultWithoutOutput",
       json_frame(Json{{"type", "result"}, {"status", "succeeded"}, {"hasOutput", true}})},
      {"FailedResultWithOutput", json_frame(Json{{"type", "result"},
                                                 {"status", "failed"},
                                                 {"reason", "program_error"},
                                                 {"hasOutput", true},
                                                 {"output", 1}})},
      {"FailedResultClaimingUnsupportedProgram",
       json_frame(
           Json{{"type", "result"}, {"status", "failed"}, {"reason", "unsupported_program"}})},
      {"TwoResultFrames",
       json_frame(result_message("first")) + json_frame(result_message("second"))},
      {"ResultFollowedByPartOfAFrame", json_frame(result_message("first")) + std::string(2, '\0')},
      {"CallIdZero", json_frame(tool_call_message(0))},
      {"CallIdThatSkips", json_frame(tool_call_message(2))},
      {"DuplicateCallId", json_frame(tool_call_message(1)) + json_frame(tool_call_message(1)), 1},
  };
}

struct ParamCase {
  MalformedCase malformed;
  Then then;
};

std::string case_name(const ParamCase& c) {
  return std::string(c.malformed.name) + (c.then == Then::kExit ? "ThenExit" : "ThenHang");
}

// Names the case in gtest's and ctest's listings instead of dumping its bytes.
void PrintTo(const ParamCase& c, std::ostream* out) { *out << case_name(c); }

std::vector<ParamCase> param_cases() {
  std::vector<ParamCase> cases;
  for (const MalformedCase& malformed : malformed_cases()) {
    for (Then then : {Then::kExit, Then::kHang}) cases.push_back({malformed, then});
  }
  return cases;
}

class MalformedIpcTest : public ::testing::TestWithParam<ParamCase> {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_TESTHOOKS_WORKER(); }
};

TEST_P(MalformedIpcTest, EndsAsAProtocolErrorWithTheWorkerGone) {
  const ParamCase& c = GetParam();
  HookedMode mode;
  const CodeExecutionOutcome outcome = mode.run(writing_program(c.malformed.bytes, c.then));
  ASSERT_NO_FATAL_FAILURE(testing::expect_sandbox_fault(outcome, "worker_protocol_error"));
  EXPECT_EQ(outcome.error->message,
            "The sandbox worker broke the parent-worker protocol and was stopped; its details are "
            "withheld.");
  // Found on the bytes themselves: a hanging worker is not waited for until the deadline (3 s),
  // which would end it as wall_time_limit, not the protocol error above.
  EXPECT_LT(mode.elapsed(), testing::slack(1500ms));
  EXPECT_LE(mode.broker_calls(), c.malformed.max_broker_calls);
  EXPECT_TRUE(testing::child_pids_but_fork_servers().empty()) << "the worker was left behind";
  mode.expect_next_execution_works();
}

INSTANTIATE_TEST_SUITE_P(Cases, MalformedIpcTest, ::testing::ValuesIn(param_cases()),
                         [](const ::testing::TestParamInfo<ParamCase>& info) {
                           return case_name(info.param);
                         });

class MalformedIpcEdgeTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_TESTHOOKS_WORKER(); }
  void TearDown() override {
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty()) << "the worker was left behind";
  }
};

// A frame cut short by the worker's own exit is a protocol error, not a worker that merely ended.
TEST_F(MalformedIpcEdgeTest, TruncatedFrameThenExit) {
  HookedMode mode;
  const std::string body = tool_call_message(1).dump();
  const CodeExecutionOutcome outcome =
      mode.run(writing_program(frame_bytes(body.substr(0, 10), body.size()), Then::kExit));
  testing::expect_sandbox_fault(outcome, "worker_protocol_error");
  EXPECT_EQ(mode.broker_calls(), 0);
  mode.expect_next_execution_works();
}

// A frame cut short by a worker that then hangs cannot be told from one still on its way: the
// wall deadline ends it.
TEST_F(MalformedIpcEdgeTest, TruncatedFrameThenHangEndsAtTheWallDeadline) {
  HookedMode mode;
  const std::string body = tool_call_message(1).dump();
  const std::string bytes = frame_bytes(body.substr(0, 10), body.size());
  const CodeExecutionOutcome outcome =
      mode.run(testing::hook_program("() => { __codemodeTestHook('write_stdout', " +
                                         js_bytes(bytes) + "); __codemodeTestHook('hang'); }",
                                     testing::hook_limits(200)));
  EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
  ASSERT_TRUE(outcome.error.has_value()) << to_json(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kTimeout);
  EXPECT_EQ(outcome.error->rule, "wall_time_limit");
  EXPECT_LT(mode.elapsed(), testing::slack(1500ms));
  mode.expect_next_execution_works();
}

// A toolCall the worker forges for a tool the program does not list is, to the parent, the
// program calling that tool: it is refused (PERMISSION_DENIED, answered to the worker) and never
// reaches the broker. It is not a protocol error, so the program's own ending decides the outcome.
TEST_F(MalformedIpcEdgeTest, ForgedCallToAToolNotAllowedIsRefusedBeforeTheBroker) {
  HookedMode mode;
  const std::string forged = js_bytes(json_frame(tool_call_message(1, "host.shell")));
  const CodeExecutionOutcome returned = mode.run(testing::hook_program(
      "() => { __codemodeTestHook('write_stdout', " + forged + "); return 'returned'; }"));
  ASSERT_TRUE(returned.ok()) << to_json(returned);
  EXPECT_EQ(*returned.output, "returned");
  EXPECT_EQ(returned.usage.tool_calls, 0);

  const CodeExecutionOutcome exited =
      mode.run(writing_program(json_frame(tool_call_message(1, "host.shell")), Then::kExit));
  testing::expect_sandbox_fault(exited, "worker_exited");
  EXPECT_EQ(exited.usage.tool_calls, 0);

  CodeLimits short_wall = testing::hook_limits(200);
  const CodeExecutionOutcome hung = mode.run(testing::hook_program(
      "() => { __codemodeTestHook('write_stdout', " + forged + "); __codemodeTestHook('hang'); }",
      short_wall));
  ASSERT_TRUE(hung.error.has_value());
  EXPECT_EQ(hung.error->code, ErrorCode::kTimeout);
  EXPECT_EQ(hung.error->rule, "wall_time_limit");
  EXPECT_EQ(hung.usage.tool_calls, 0);

  EXPECT_EQ(mode.broker_calls(), 0);
  mode.expect_next_execution_works();
}

// A forged toolCall takes the call id the worker's own next call then uses: the parent sees the
// id twice and ends the execution, whatever the worker made of the refusal it was sent.
TEST_F(MalformedIpcEdgeTest, ForgedCallIdCollidesWithTheProgramsOwnCall) {
  HookedMode mode;
  const std::string forged = js_bytes(json_frame(tool_call_message(1, "host.shell")));
  const CodeExecutionOutcome outcome = mode.run(testing::hook_program(
      "async (input, tools) => { __codemodeTestHook('write_stdout', " + forged +
      "); return (await tools.call('number.double', { value: 2 })).status; }"));
  testing::expect_sandbox_fault(outcome, "worker_protocol_error");
  EXPECT_EQ(mode.broker_calls(), 0);
  mode.expect_next_execution_works();
}

// A result forged while the program runs, then the worker's own when it returns: the second
// arrives, in a write of its own, while the parent waits for the worker's stdout to end.
TEST_F(MalformedIpcEdgeTest, ResultFrameForgedBeforeTheWorkersOwnResult) {
  HookedMode mode;
  const CodeExecutionOutcome outcome = mode.run(testing::hook_program(
      "() => { __codemodeTestHook('write_stdout', " +
      js_bytes(json_frame(result_message("forged"))) + "); return 'genuine'; }"));
  testing::expect_sandbox_fault(outcome, "worker_protocol_error");
  mode.expect_next_execution_works();
}

}  // namespace
}  // namespace codemode
