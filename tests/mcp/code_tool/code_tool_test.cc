// The code tool end to end, in the real confined worker: the budgets codemode's broker counts per
// invocation (cumulative and per-call result bytes, quota units consumed by failed calls), the
// exact rule each failure shows the program (host_calls_limit caught and rethrown,
// host_concurrency_limit, invalid_arguments with the failing argument named, tool_failed), and
// console capture on, off and past its cap.
#include "mcp/code_tool/code_tool.h"

#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "mcp/catalog/tool_results.h"
#include "mcp/code_tool/code_result.h"
#include "mcp/text_tool.h"
#include "support/process_support.h"

namespace codemode::mcp {
namespace {

using codemode::testing::text_tool;

Tool failing_tool() {
  return define_tool({.id = "t.fail",
                      .version = "1",
                      .description = "Always fails.",
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .execute = [](const Json&, const ToolContext&,
                                    ToolResponder respond) { respond.fail(); }})
      .value();
}

Tool explaining_tool() {
  return define_tool({.id = "t.explain",
                      .version = "1",
                      .description = "Fails with its own words.",
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .execute = [](const Json&, const ToolContext&,
                                    ToolResponder respond) { respond.fail("rate limited"); }})
      .value();
}

// Fails under a rule of its own when asked for "own", else tries to pass for codemode's.
Tool naming_tool() {
  return define_tool({.id = "t.named",
                      .version = "1",
                      .description = "Fails under its own rule.",
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .execute =
                          [](const Json& input, const ToolContext&, ToolResponder respond) {
                            if (input.value("own", false)) {
                              respond.fail_as("unknown_snapshot", "open it again");
                            } else {
                              respond.fail_as("host_calls_limit", "not really");
                            }
                          }})
      .value();
}

Tool slow_tool() {
  return define_tool({.id = "t.slow",
                      .version = "1",
                      .description = "Answers after 300 ms.",
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .execute =
                          [](const Json&, const ToolContext&, ToolResponder respond) {
                            std::this_thread::sleep_for(std::chrono::milliseconds(300));
                            respond.succeed(Json::object());
                          }})
      .value();
}

// The stuck tool's responders, kept so its calls stay unanswered until a test drops them.
std::mutex stuck_mu;
std::vector<ToolResponder> stuck_responders;

// A tool with effects that never answers: past its 100 ms timeout its outcome is unknown.
Tool stuck_tool() {
  return define_tool({.id = "t.stuck",
                      .version = "1",
                      .description = "Never answers.",
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .effects = ToolEffects::kWrite,
                      .timeout = std::chrono::milliseconds(100),
                      .execute =
                          [](const Json&, const ToolContext&, ToolResponder respond) {
                            std::lock_guard lock(stuck_mu);
                            stuck_responders.push_back(std::move(respond));
                          }})
      .value();
}

Tool strict_tool() {
  return define_tool({.id = "t.strict",
                      .version = "1",
                      .description = "Takes {n: integer}.",
                      .input = Schema::compile(Json::parse(R"({"type":"object","required":["n"],
                 "properties":{"n":{"type":"integer"}},"additionalProperties":false})"))
                                   .value(),
                      .output = Schema::any(),
                      .execute = [](const Json& input, const ToolContext&,
                                    ToolResponder respond) { respond.succeed(input); }})
      .value();
}

// Takes an order: {customerId: string, items: [{qty: integer >= 1}]}.
Tool order_tool() {
  return define_tool({.id = "t.order",
                      .version = "1",
                      .description = "Places an order.",
                      .input = Schema::compile(Json::parse(R"({"type":"object",
                 "required":["customerId"],"additionalProperties":false,
                 "properties":{"customerId":{"type":"string"},
                   "items":{"type":"array","items":{"type":"object","required":["qty"],
                     "properties":{"qty":{"type":"integer","minimum":1}}}}}})"))
                                   .value(),
                      .output = Schema::any(),
                      .execute = [](const Json& input, const ToolContext&,
                                    ToolResponder respond) { respond.succeed(input); }})
      .value();
}

class CodeToolTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_WORKER(); }

  // The structuredContent of running `code` under `policy`.
  // `capacity` stands for the server's; null: one of the policy's own.
  // The specification's tests run in the standard profile, whose world and refusals it defines;
  // CodeToolModelTest below runs the model profile's.
  Json run(const std::string& code, McpPolicy policy = {},
           std::shared_ptr<ServerCapacity> capacity = nullptr) {
    policy.program_profile = profile_;
    ToolCatalog catalog;
    for (Tool tool : {text_tool(), failing_tool(), explaining_tool(), slow_tool(), stuck_tool(),
                      strict_tool(), naming_tool(), order_tool()}) {
      EXPECT_TRUE(catalog.add(tool).ok());
    }
    if (policy.wall_time_millis == McpPolicy{}.wall_time_millis) policy.wall_time_millis = 5000;
    if (!capacity) capacity = ServerCapacity::create(policy);
    Result<std::unique_ptr<CodeTool>> tool =
        CodeTool::create(catalog, policy,
                         make_process_adapter({.worker_path = *testing::worker_binary(),
                                               .stack_bytes = policy.stack_bytes}),
                         std::move(capacity));
    EXPECT_TRUE(tool.ok());
    if (!tool.ok()) return Json();
    const Json result = (*tool)->call(Json{{"code", code}}, std::stop_token());
    EXPECT_EQ(Json::parse(result.at("content").at(0).at("text").get<std::string>()),
              result.at("structuredContent"));
    return result.at("structuredContent");
  }

  ProgramProfile profile_ = ProgramProfile::kStandard;
};

// Each call's code (or "ok"), caught inside the program.
constexpr const char* kCollect = R"js(
  const codes = [];
  const attempt = async (call) => {
    try { await call(); codes.push('ok'); } catch (e) { codes.push(e.code); }
  };
)js";

TEST_F(CodeToolTest, CumulativeHostBytesStopTheThirdResultOfTheContainmentExample) {
  // Per call 1,024, cumulative 2,048, results {"text": 900 x} of 911 bytes.
  const Json shown = run(R"js(
    const seen = [];
    for (let i = 0; i < 3; i++) {
      try { seen.push((await codemode.t.text({ n: 900 })).text.length); }
      catch (e) { seen.push([e.code, e.message, e.operation, Object.keys(e)]); }
    }
    return seen;)js",
                         {.host_result_bytes = 1024, .cumulative_host_result_bytes = 2048});
  EXPECT_EQ(shown.at("result"), Json::parse(R"([900, 900, ["cumulative_host_bytes_limit",
                            "cumulative host-result byte budget exhausted", "t.text",
                            ["code", "operation"]]])"));
}

TEST_F(CodeToolTest, AResultOverThePerCallCapNeverReachesTheProgram) {
  const Json shown = run(std::string(kCollect) + R"js(
    await attempt(() => codemode.t.text({ n: 100 }));
    await attempt(() => codemode.t.text({ n: 53 }));
    return codes;)js",
                         {.host_result_bytes = 64, .cumulative_host_result_bytes = 64});
  EXPECT_EQ(shown.at("result"), Json::parse(R"(["host_result_bytes_limit", "ok"])"));
}

TEST_F(CodeToolTest, QuotaUnitsAreConsumedByFailedCallsAndRenewedPerInvocation) {
  McpPolicy policy{.quota_classes = {{.name = "pages", .cap = 2, .tools = {"t.fail", "t.strict"}}}};
  const std::string code = std::string(kCollect) + R"js(
    await attempt(() => codemode.t.fail({}));
    await attempt(() => codemode.t.strict({ n: 'not a number' }));
    await attempt(() => codemode.t.strict({ n: 1 }));
    await attempt(() => codemode.t.text({ n: 1 }));
    return codes;)js";
  const Json expected = Json::parse(R"(["tool_failed", "invalid_arguments", "pages_limit", "ok"])");
  EXPECT_EQ(run(code, policy).at("result"), expected);
  EXPECT_EQ(run(code, policy).at("result"), expected);
}

// hostCalls 3 is below the default hostConcurrency 4, which the program's limits lower to 3.
TEST_F(CodeToolTest, TheCallPastHostCallsIsHostCallsLimitCaughtOrRethrown) {
  const std::string calls = std::string(kCollect) + R"js(
    for (let i = 0; i < 4; i++) await attempt(() => codemode.t.text({ n: 1 }));
    return codes;)js";
  EXPECT_EQ(run(calls, {.host_calls = 3}).at("result"),
            Json::parse(R"(["ok", "ok", "ok", "host_calls_limit"])"));
  const Json rethrown = run(R"js(
    let last;
    for (let i = 0; i < 4; i++) {
      try { await codemode.t.text({ n: 1 }); } catch (e) { last = e; }
    }
    throw last;)js",
                            {.host_calls = 3});
  EXPECT_EQ(rethrown,
            (Json{{"code", "host_calls_limit"}, {"message", "host-call budget exhausted"}}));
}

TEST_F(CodeToolTest, OtherRethrownToolErrorsAreCodeRejectedWithTheirMessage) {
  const Json shown = run("await codemode.t.fail({});");
  EXPECT_EQ(shown, (Json{{"code", "code_rejected"}, {"message", "The tool call failed."}}));
}

TEST_F(CodeToolTest, ACallPastHostConcurrencyIsRefusedNotQueued) {
  const Json shown = run(R"js(
    const settled = await Promise.allSettled([codemode.t.slow({}), codemode.t.slow({})]);
    return settled.map((s) => s.status === 'fulfilled' ? 'ok' : s.reason.code);)js",
                         {.host_concurrency = 1});
  EXPECT_EQ(shown.at("result"), Json::parse(R"(["ok", "host_concurrency_limit"])"));
}

TEST_F(CodeToolTest, ArgumentsOutsideTheSchemaAreInvalidArguments) {
  const Json shown = run(R"js(
    try { await codemode.t.strict({ n: 'x' }); }
    catch (e) { return [e.code, e.message, e.operation]; })js");
  EXPECT_EQ(shown.at("result"),
            Json::parse(R"(["invalid_arguments", "/n: must be integer", "t.strict"])"));
}

// The message names the failing argument's JSON Pointer and the rule, so a model can fix its call,
// and never repeats what was passed.
TEST_F(CodeToolTest, InvalidArgumentsNameTheArgumentAndTheRuleButNoValue) {
  const Json shown = run(R"js(
    const messages = [];
    const attempt = async (args) => {
      try { await codemode.t.order(args); messages.push('ok'); }
      catch (e) { messages.push(e.code + ' ' + e.message); }
    };
    await attempt({ customerId: 42 });
    await attempt({ items: [] });
    await attempt({ customerId: 'c-1', items: [{ qty: 1 }, { qty: 2 }, { qty: 0 }] });
    await attempt({ customerId: 'c-1', token: 'sk-live-SECRET' });
    await attempt({ customerId: 'sk-live-SECRET', items: 'sk-live-SECRET' });
    await attempt({ customerId: 'c-1', items: [{ qty: 3 }] });
    return messages;)js");
  EXPECT_EQ(shown.at("result"), Json::parse(R"json([
    "invalid_arguments /customerId: must be string",
    "invalid_arguments (root): missing required property \"customerId\"",
    "invalid_arguments /items/2/qty: must be >= 1",
    "invalid_arguments /token: property not allowed (additionalProperties)",
    "invalid_arguments /items: must be array",
    "ok"])json"));
}

TEST_F(CodeToolTest, ToolsCallShowsTheRuleUnmapped) {
  const Json shown = run("return (await tools.call('t.strict', { n: 'x' })).error;");
  EXPECT_EQ(shown.at("result").at("code"), "INVALID_INPUT");
  EXPECT_EQ(shown.at("result").at("rule"), "input_schema");
  EXPECT_EQ(shown.at("result").at("message"), "/n: must be integer");
}

TEST_F(CodeToolTest, WithoutConsoleCaptureThereIsNoConsoleAndNoLogs) {
  const Json shown = run("return typeof console;");
  EXPECT_EQ(shown, (Json{{"result", "undefined"}}));
}

McpPolicy console_policy(std::int64_t cap = 8192) {
  return McpPolicy{.console_logs = true, .console_log_bytes = cap};
}

TEST_F(CodeToolTest, ConsoleLinesComeBackAsLogsBesideTheResult) {
  const Json shown = run(R"js(
    const cyclic = {}; cyclic.self = cyclic;
    console.log('a', 1, { b: 2 }, [1], null, undefined);
    console.info('i'); console.warn('w'); console.error(new TypeError('e'));
    console.debug(10n, Symbol('s'), () => 1, cyclic, '\ud800');
    return 'done';)js",
                         console_policy());
  EXPECT_EQ(shown.at("result"), "done");
  EXPECT_EQ(shown.at("logs"), Json::parse(R"([
    "a 1 {\"b\":2} [1] null undefined", "[info] i", "[warn] w", "[error] TypeError: e",
    "[debug] 10 Symbol(s) [function] [object Object] \ufffd"])"));
}

TEST_F(CodeToolTest, LogsStopAtTheirCapWithAMarker) {
  const Json shown = run(R"js(
    for (let i = 0; i < 100; i++) console.log(`line ${i}`);
    return 1;)js",
                         console_policy(64));
  const Json& logs = shown.at("logs");
  EXPECT_LE(json_text(logs).size(), 64u);
  EXPECT_EQ(logs.back(), "[logs truncated]");
  EXPECT_EQ(logs.at(0), "line 0");
  EXPECT_EQ(shown.at("result"), 1);
}

TEST_F(CodeToolTest, ALongLineIsCutToWhatFitsBeforeTheMarker) {
  const Json shown = run(R"js(console.log('é'.repeat(100000)); console.log('later'); return 1;)js",
                         console_policy(100));
  const Json& logs = shown.at("logs");
  ASSERT_EQ(logs.size(), 2u);
  EXPECT_LE(json_text(logs).size(), 100u);
  EXPECT_GT(json_text(logs).size(), 90u);  // the line took the room there was
  EXPECT_EQ(logs.at(1), "[logs truncated]");
}

TEST_F(CodeToolTest, ConsoleCaptureDoesNotEnlargeFinalResultBytes) {
  McpPolicy policy = console_policy(1024);
  policy.final_result_bytes = 10;
  const Json fits = run("console.log('x'.repeat(500)); return 'abcdefgh';", policy);
  EXPECT_EQ(fits.at("result"), "abcdefgh");
  const Json over = run("console.log('x'.repeat(500)); return 'abcdefghi';", policy);
  EXPECT_EQ(over.at("code"), "final_result_bytes_limit");
  EXPECT_EQ(over.at("logs").at(0).get<std::string>().size(), 500u);
}

TEST_F(CodeToolTest, AThrowKeepsItsLogs) {
  const Json shown = run("console.log('before'); throw new Error('boom');", console_policy());
  EXPECT_EQ(shown, (Json{{"code", "code_rejected"}, {"message", "boom"}, {"logs", {"before"}}}));
}

TEST_F(CodeToolTest, LinesLoggedAfterTheProgramSettledAreDropped) {
  const Json shown =
      run("return { toJSON() { console.log('late'); return 2; } };", console_policy());
  EXPECT_EQ(shown, (Json{{"result", 2}, {"logs", Json::array()}}));
}

// The wrapper checks numbers, cycles and BigInts itself; what only the worker's own check of the
// result finds (a lone surrogate, too deep a result) is the program's error too, never a size.
TEST_F(CodeToolTest, AResultThatIsNotJsonIsCodeRejectedNeverASize) {
  const Json lone = run("return ['ok', '\\ud800'];");
  EXPECT_EQ(lone.at("code"), "code_rejected") << lone;
  EXPECT_EQ(lone.at("message"),
            "The program's result holds a string with a lone UTF-16 surrogate, which has no UTF-8 "
            "form.");
  const Json deep = run("let a = 1; for (let i = 0; i < 40; i++) a = [a]; return a;");
  EXPECT_EQ(deep.at("code"), "code_rejected") << deep;
}

TEST_F(CodeToolTest, AProgramThatBreaksOutOfItsWrapperGainsNoRoom) {
  // A text that would close its function is a syntax error (code_isolation_test.cc); the parent
  // checks the envelope all the same (code_result_test.cc).
  const Json extra = run("return 1; }; return { result: 1, smuggled: 'x'.repeat(1000) }; {");
  EXPECT_EQ(extra.at("code"), "code_rejected");
  const Json logs =
      run("return 1; }; return { result: 1, logs: ['x'.repeat(100)] }; {", console_policy(64));
  EXPECT_EQ(logs.at("code"), "code_rejected");
}

TEST_F(CodeToolTest, AToolsOwnFailureWordsReachTheProgramAndOthersStayFixed) {
  const Json shown = run(R"js(
    const seen = [];
    for (const call of [codemode.t.explain, codemode.t.fail]) {
      try { await call({}); } catch (e) { seen.push([e.code, e.message]); }
    }
    return seen;)js");
  EXPECT_EQ(shown.at("result"), Json::parse(R"([["tool_failed", "rate limited"],
                                                ["tool_failed", "The tool call failed."]])"));
}

TEST_F(CodeToolTest, AToolsOwnRuleIsTheProgramsCodeButNeverOneOfCodemodes) {
  const Json shown = run(R"js(
    const seen = [];
    for (const own of [true, false]) {
      try { await codemode.t.named({ own }); } catch (e) { seen.push([e.code, e.message]); }
    }
    return seen;)js");
  EXPECT_EQ(shown.at("result"), Json::parse(R"([["unknown_snapshot", "open it again"],
                                                ["tool_failed", "not really"]])"));
}

TEST_F(CodeToolTest, EachNamespaceAnswersItsOwnHelp) {
  const Json shown = run(R"js(
    const all = codemode.t.help();
    const one = codemode.t.help('strict');
    let unknown;
    try { codemode.t.help('strickt'); } catch (e) { unknown = [e.code, e.message]; }
    return { keys: Object.keys(codemode.t)[0], space: all.namespace,
             names: all.methods.map((m) => m.name), one: one.name,
             required: one.inputSchema.required, unknown };)js");
  const Json& result = shown.at("result");
  EXPECT_EQ(result.at("keys"), "help");
  EXPECT_EQ(result.at("space"), "codemode.t");
  EXPECT_NE(std::find(result.at("names").begin(), result.at("names").end(), "strict"),
            result.at("names").end());
  EXPECT_EQ(result.at("one"), "t.strict");
  EXPECT_EQ(result.at("required"), Json::parse(R"(["n"])"));
  EXPECT_EQ(result.at("unknown").at(0), "unknown_method");
  EXPECT_NE(result.at("unknown").at(1).get<std::string>().find("'strict'"), std::string::npos);
}

// A program cannot hide a call that may have acted: whatever it returns, the invocation ends
// outcome_unknown, naming the call. Opted out (unknownOutcomes leave_to_program), the program
// hears the timeout and its result stands.
TEST_F(CodeToolTest, AToolThatTimedOutEndsTheInvocationUnlessLeftToTheProgram) {
  const std::string code = R"js(
    await codemode.t.fail({}).catch(() => {});
    try { await codemode.t.stuck({}); return 'answered'; }
    catch (e) { return [e.code, e.operation]; })js";
  const Json ended = run(code);
  EXPECT_EQ(ended.at("code"), "outcome_unknown");
  EXPECT_EQ(ended.at("calls"),
            Json::parse(R"([{"tool": "t.stuck", "callId": "mcp-code:1:code:2"}])"));
  const Json left = run(code, {.unknown_outcomes = UnknownOutcomes::kLeaveToProgram});
  EXPECT_EQ(left, (Json{{"result", {"tool_timeout", "t.stuck"}}}));
  std::lock_guard lock(stuck_mu);
  stuck_responders.clear();
}

TEST_F(CodeToolTest, AResultOfAnySizeOverTheCapGetsItsMeasuredSize) {
  // 100 KB and 2 MB pass the worker's own output cap; 30,000 two-byte characters do not pass the
  // 48 KiB cap in units but do in bytes.
  EXPECT_EQ(run("return 'x'.repeat(100000);"),
            (Json{{"code", "final_result_bytes_limit"},
                  {"message", final_result_too_large(100002, 49152)}}));
  EXPECT_EQ(run("return 'x'.repeat(2000000);").at("message"),
            final_result_too_large(2000002, 49152));
  EXPECT_EQ(run("return '\u00e9'.repeat(30000);").at("message"),
            final_result_too_large(60002, 49152));
  EXPECT_EQ(run("return '\u00e9'.repeat(24000);").at("result").get<std::string>().size(), 48000u);
}

// stackBytes reaches the worker: the same recursion through a native goes far deeper at 1 MiB
// than at 64 KiB, and stays catchable.
TEST_F(CodeToolTest, StackBytesBoundsRecursion) {
  const std::string depth = R"js(
    let depth = 0;
    const f = () => { depth++; f.apply(null); };
    try { f(); } catch (e) { return [e.name, depth]; })js";
  const Json small = run(depth, {.stack_bytes = 64 << 10}).at("result");
  const Json large = run(depth, {.stack_bytes = 1 << 20}).at("result");
  EXPECT_EQ(small[0], "InternalError");
  EXPECT_EQ(large[0], "InternalError");
  // Release: 32 frames at 64 KiB, 571 at 1 MiB; sanitizers make every frame larger.
  EXPECT_GT(small[1].get<std::int64_t>(), 0);
  EXPECT_GT(large[1].get<std::int64_t>(), 4 * small[1].get<std::int64_t>());
}

TEST_F(CodeToolTest, FailuresUseTheBoundarysStableCodes) {
  McpPolicy small_heap{.heap_bytes = 1 << 20};
  EXPECT_EQ(run("const a = []; while (true) a.push({ n: a.length });", small_heap),
            (Json{{"code", "code_rejected"}, {"message", "JavaScript exceeded its heap budget"}}));
  EXPECT_EQ(run("await new Promise(() => {});").at("code"), "code_rejected");
  McpPolicy short_wall{.wall_time_millis = 300};
  EXPECT_EQ(run("while (true) {}", short_wall).at("code"), "deadline_exceeded");
}

// The worker cap is the server's: a worker held elsewhere (another session) counts.
TEST_F(CodeToolTest, TheServersWorkerCapFailsFastAndFreesWithItsSlot) {
  const McpPolicy policy{.server_workers = 1};
  const std::shared_ptr<ServerCapacity> capacity = ServerCapacity::create(policy);
  {
    const std::shared_ptr<ServerCapacity::Slot> elsewhere = capacity->try_start_worker();
    ASSERT_NE(elsewhere, nullptr);
    EXPECT_EQ(run("return 1;", policy, capacity).at("code"), "server_workers_limit");
  }
  EXPECT_EQ(run("return 1;", policy, capacity).at("result"), 1);
}

// A program's tool call waits for one of the server's host operations, as a direct-mode call does.
TEST_F(CodeToolTest, AProgramsToolCallQueuesOnTheServersHostOperations) {
  const McpPolicy policy{.server_host_operations = 1};
  const std::shared_ptr<ServerCapacity> capacity = ServerCapacity::create(policy);
  auto held = capacity->wait_for_host_operation(std::stop_token());
  ASSERT_TRUE(held.ok());
  const auto started = std::chrono::steady_clock::now();
  std::thread releaser([&held] {
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    held->reset();
  });
  const Json shown = run("return (await codemode.t.text({ n: 2 })).text;", policy, capacity);
  const auto waited = std::chrono::steady_clock::now() - started;
  releaser.join();
  EXPECT_EQ(shown.at("result"), "xx");
  EXPECT_GE(waited, std::chrono::milliseconds(400));
}

// ... but not for longer than the policy's wait: past it the call is refused, before dispatch,
// with a code the program can catch.
TEST_F(CodeToolTest, AProgramsToolCallPastTheHostOperationWaitIsRefused) {
  const McpPolicy policy{.server_host_operations = 1, .server_host_operation_wait_millis = 100};
  const std::shared_ptr<ServerCapacity> capacity = ServerCapacity::create(policy);
  auto held = capacity->wait_for_host_operation(std::stop_token());
  ASSERT_TRUE(held.ok());
  const Json shown = run(R"js(
    try { await codemode.t.text({ n: 2 }); return 'dispatched'; }
    catch (e) { return [e.code, e.message, e.operation]; })js",
                         policy, capacity);
  EXPECT_EQ(shown.at("result"), Json::parse(R"(["server_host_operations_limit",
                            "server host-operation capacity is exhausted", "t.text"])"));
}

// ---- the model profile (the default of `codemode mcp`) ----

class CodeToolModelTest : public CodeToolTest {
 protected:
  CodeToolModelTest() { profile_ = ProgramProfile::kModel; }
};

TEST_F(CodeToolModelTest, CallsPastHostConcurrencyWaitForASlot) {
  const Json shown = run(R"js(
    const settled = await Promise.allSettled([1, 2, 3].map(() => codemode.t.slow({})));
    return settled.map((s) => s.status === 'fulfilled' ? 'ok' : s.reason.code);)js",
                         {.host_concurrency = 1});
  EXPECT_EQ(shown.at("result"), Json::parse(R"(["ok", "ok", "ok"])"));
}

TEST_F(CodeToolModelTest, ConsoleExistsWithoutCaptureAndItsLinesAreDropped) {
  const Json shown = run("console.log('unseen'); return typeof console.log;");
  EXPECT_EQ(shown, (Json{{"result", "function"}}));
}

TEST_F(CodeToolModelTest, CapturedLinesComeFromTheWorkerWithinTheCap) {
  const Json shown = run(R"js(
    console.log('a', 1, { b: 2 }); console.warn('w');
    return 'done';)js",
                         console_policy());
  EXPECT_EQ(shown, (Json{{"result", "done"}, {"logs", {"a 1 {\"b\":2}", "[warn] w"}}}));
  const Json cut =
      run("for (let i = 0; i < 100; i++) console.log(`line ${i}`); return 1;", console_policy(64));
  EXPECT_LE(json_text(cut.at("logs")).size(), 64u);
  EXPECT_EQ(cut.at("logs").at(0), "line 0");
  EXPECT_EQ(cut.at("logs").back(), "[logs truncated]");
}

TEST_F(CodeToolModelTest, AnErrorIsLocatedInTheTextAsSentAndKeepsItsLogs) {
  const Json shown =
      run("console.log('before');\nconst total = 1;\nreturn totl + 1;", console_policy());
  EXPECT_EQ(shown.at("code"), "code_rejected");
  EXPECT_EQ(shown.at("name"), "ReferenceError");
  EXPECT_EQ(shown.at("line"), 3);
  EXPECT_EQ(shown.at("source"), "return totl + 1;");
  EXPECT_EQ(shown.at("message"), "totl is not defined");
  EXPECT_GE(shown.at("column"), 1);
  EXPECT_EQ(shown.at("logs"), Json({"before"}));
}

TEST_F(CodeToolModelTest, AFencesLinesCountAsSent) {
  const Json shown = run("```js\nasync () => {\n  return (1 + ;\n}\n```");
  EXPECT_EQ(shown.at("name"), "SyntaxError");
  EXPECT_EQ(shown.at("line"), 3);
  EXPECT_EQ(shown.at("source"), "  return (1 + ;");
}

TEST_F(CodeToolModelTest, TheWorkerTellsAFunctionFromABody) {
  EXPECT_EQ(run("async () => 40 + 2;  // a comment").at("result"), 42);
  EXPECT_EQ(run("async function main() {\n  return 7;\n}").at("result"), 7);
  EXPECT_EQ(run("const f = (x) => x * 2;\nreturn f(21);").at("result"), 42);
  // A body that names `function` without being one, and a bare expression statement.
  EXPECT_EQ(run("function helper(x) { return x + 1; }\nreturn helper(1);").at("result"), 2);
  EXPECT_EQ(run("(async () => { return 5; })();").at("result"), nullptr);
}

TEST_F(CodeToolModelTest, ATextThatClosesItsFunctionEarlyIsASyntaxError) {
  const Json shown = run("return 1; }); globalThis.escaped = true; (async () => {");
  EXPECT_EQ(shown.at("code"), "code_rejected");
  EXPECT_EQ(shown.at("name"), "SyntaxError");
}

TEST_F(CodeToolModelTest, TheCompilerIsGoneBeforeTheModelsCodeRuns) {
  EXPECT_EQ(run("return typeof globalThis.__codemodeCompileCode;").at("result"), "undefined");
}

}  // namespace
}  // namespace codemode::mcp
