// tools.call inside codemode-worker: the bridge to the parent, the answers the worker gives itself
// (past maxToolCalls, malformed input), and a `tools` object the program cannot break.
#include <gtest/gtest.h>

#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

constexpr const char* kLimitMessage =
    "The tool call exceeded a limit, such as the program's maxToolCalls or maxToolConcurrency.";
constexpr const char* kInvalidInputMessage =
    "The tool input was rejected: it is not plain JSON within maxToolInputBytes, or it does not "
    "match the tool schema.";

Json refusal(const char* code, const char* rule, const char* message) {
  return Json{{"status", "failed"},
              {"error", {{"code", code}, {"rule", rule}, {"message", message}}}};
}

// A program that looks an item up with a tool and computes a total from it, with the tool answered
// by a script.
TEST(WorkerToolsTest, SpecExampleWithScriptedToolAnswer) {
  const char* source = R"js(async (input, tools) => {
    const result = await tools.call("catalog.lookup", { sku: input.sku });
    if (result.status !== "succeeded") return { ok: false, code: result.error.code };
    return { ok: true, total: result.output.price * input.quantity };
  })js";
  Execution run = execute(source, {{"sku", "A-1"}, {"quantity", 3}}, {}, [](const Json& call) {
    EXPECT_EQ(call["toolId"], "catalog.lookup");
    EXPECT_EQ(call["input"], (Json{{"sku", "A-1"}}));
    return Json{{"status", "succeeded"}, {"hasOutput", true}, {"output", {{"price", 12.5}}}};
  });
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), (Json{{"ok", true}, {"total", 37.5}}));
  ASSERT_EQ(run.tool_calls.size(), 1u);
  EXPECT_EQ(run.tool_calls[0]["callId"], 1);
}

TEST(WorkerToolsTest, FailedToolIsAValueNotAnException) {
  Execution run = execute("async (i, tools) => tools.call('t', {})", nullptr, {}, [](const Json&) {
    return Json{{"status", "blocked"},
                {"hasOutput", false},
                {"error",
                 {{"code", "PERMISSION_DENIED"},
                  {"rule", "permission"},
                  {"message", "The tool call was not permitted."}}}};
  });
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{{"status", "blocked"},
                                {"error",
                                 {{"code", "PERMISSION_DENIED"},
                                  {"rule", "permission"},
                                  {"message", "The tool call was not permitted."}}}}));
}

TEST(WorkerToolsTest, CallIdsCountUpFromOne) {
  Execution run = execute(
      "async (i, tools) => (await Promise.all([1, 2, 3].map(n => tools.call('t', {n})))).length");
  ASSERT_TRUE(run.succeeded());
  ASSERT_EQ(run.tool_calls.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_EQ(run.tool_calls[i]["callId"], i + 1);
  EXPECT_EQ(run.tool_calls[2]["input"], (Json{{"n", 3}}));
}

TEST(WorkerToolsTest, FloodPastMaxToolCallsIsAnsweredLocally) {
  StartLimits limits;
  limits.max_tool_calls = 3;
  Execution run = execute(
      "async (i, tools) => { const s = []; for (let k = 0; k < 1000; k++) "
      "s.push(await tools.call('t', {k})); return [s.filter(r => r.status === 'succeeded').length, "
      "s[999]]; }",
      nullptr, limits);
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.tool_calls.size(), 3u);  // the parent saw only the admitted calls
  EXPECT_EQ(run.output(), (Json{3, refusal("LIMIT_EXCEEDED", "max_tool_calls", kLimitMessage)}));
}

TEST(WorkerToolsTest, UnserializableInputRejects) {
  Execution run = execute(
      "async (i, tools) => { const out = []; const cyclic = {}; cyclic.self = cyclic; "
      "for (const input of [10n, cyclic]) { try { await tools.call('t', input); out.push('sent'); "
      "} "
      "catch (e) { out.push(e.name); } } return out; }");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{"TypeError", "TypeError"}));
  EXPECT_TRUE(run.tool_calls.empty());
}

TEST(WorkerToolsTest, OversizedInputIsInvalidInput) {
  StartLimits limits;
  limits.max_tool_input_bytes = 100;
  Execution run = execute(
      "async (i, tools) => [await tools.call('t', 'x'.repeat(98)), "
      "await tools.call('t', 'x'.repeat(99))]",
      nullptr, limits);
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output()[0]["status"], "succeeded");
  EXPECT_EQ(run.output()[1],
            refusal("INVALID_INPUT", "max_tool_input_bytes", kInvalidInputMessage));
  EXPECT_EQ(run.tool_calls.size(), 1u);
}

TEST(WorkerToolsTest, TooDeepInputIsInvalidInput) {
  Execution run = execute(
      "async (i, tools) => { let a = 1; for (let k = 0; k < 40; k++) a = [a]; "
      "return tools.call('t', a); }");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), refusal("INVALID_INPUT", "max_tool_input_bytes", kInvalidInputMessage));
}

TEST(WorkerToolsTest, NonStringToolIdIsInvalidInput) {
  Execution run = execute("async (i, tools) => tools.call(42, {})");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), refusal("INVALID_INPUT", "invalid_tool_id", kInvalidInputMessage));
  EXPECT_TRUE(run.tool_calls.empty());
}

TEST(WorkerToolsTest, UndefinedInputIsSentAsNull) {
  Execution run = execute("async (i, tools) => (await tools.call('t')).output.input");
  ASSERT_TRUE(run.succeeded());
  EXPECT_TRUE(run.output().is_null());
}

TEST(WorkerToolsTest, ReplacingBuiltinsDoesNotBreakTools) {
  Execution run = execute(
      "async (i, tools) => { JSON.stringify = () => 'broken'; JSON.parse = () => 'broken'; "
      "Promise.prototype.then = () => { throw new Error('then'); }; "
      "Array.prototype.push = () => { throw new Error('push'); }; "
      "Object.freeze = () => { throw new Error('freeze'); }; "
      "const r = await tools.call('t', {a: 1}); return r.output.input.a; }");
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), 1);
}

// `await` inside tools.call looks up the bridge promise's `constructor` and, when a getter on
// Promise.prototype.constructor says it is not Promise, calls the program's own `then`: the
// program can change what its own tools.call resolves to, and nothing more. The call went out
// once, as made, before the program's code saw anything.
TEST(WorkerToolsTest, AProgramsOwnThenSeesOnlyItsOwnAnswers) {
  Execution run = execute(R"js(async (i, tools) => {
    const seen = [];
    const then = Promise.prototype.then;
    Object.defineProperty(Promise.prototype, 'constructor', {
      configurable: true, get() { seen.push('constructor'); return Object; } });
    let forged = false;
    Promise.prototype.then = function (ok, fail) {
      seen.push('then');
      if (forged) return then.call(this, ok, fail);
      forged = true;
      return then.call(this, () => ok('{"status":"succeeded","output":"forged"}'), fail);
    };
    const r = await tools.call('t', {a: 1});
    return [r.output, seen.includes('constructor'), seen.includes('then')];
  })js");
  ASSERT_TRUE(run.succeeded()) << run.result.value_or(Json()).dump();
  EXPECT_EQ(run.output(), (Json{"forged", true, true}));
  ASSERT_EQ(run.tool_calls.size(), 1u);
  EXPECT_EQ(run.tool_calls[0]["toolId"], "t");
  EXPECT_EQ(run.tool_calls[0]["input"], (Json{{"a", 1}}));
}

TEST(WorkerToolsTest, ToolsObjectIsFrozen) {
  Execution run = execute(
      "(i, tools) => { 'use strict'; const out = [Object.isFrozen(tools), "
      "Object.isFrozen(tools.call)]; try { tools.call = null; out.push('assigned'); } "
      "catch (e) { out.push(e.name); } return out; }");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{true, true, "TypeError"}));
}

TEST(WorkerToolsTest, BridgeIsNotReachable) {
  Execution run = execute(
      "(i, tools) => [typeof __codemodeToolCall, typeof globalThis.__codemodeToolCall, "
      "Object.getOwnPropertyNames(globalThis).filter(n => n.startsWith('__')).length]");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{"undefined", "undefined", 0}));
}

TEST(WorkerToolsTest, CallsAfterTheResultAreRefusedLocally) {
  // toJSON of the result runs after the program settled; the parent must not see its call.
  Execution run = execute("(i, tools) => ({toJSON() { tools.call('late', {}); return 'done'; }})");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), "done");
  EXPECT_TRUE(run.tool_calls.empty());
}

}  // namespace
}  // namespace codemode::testing
