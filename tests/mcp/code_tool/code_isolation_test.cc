// The model's code is its own function, end to end in the real confined worker: no text closes
// the code tool's wrapper (the review's text, braces in templates and comments, unbalanced braces,
// a text that opens a function of its own), nothing it does reaches the wrapper's locals, and a
// polluted Object, RegExp or Promise cannot replace the envelope or the size it reports.
#include <string_view>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "mcp/code_tool/code_result.h"
#include "mcp/code_tool/code_tool.h"
#include "mcp/text_tool.h"
#include "support/process_support.h"

namespace codemode::mcp {
namespace {

using codemode::testing::text_tool;

class CodeIsolationTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_WORKER(); }

  // The structuredContent of running `code`.
  Json run(const std::string& code, McpPolicy policy = {}) {
    ToolCatalog catalog;
    EXPECT_TRUE(catalog.add(text_tool()).ok());
    policy.wall_time_millis = 5000;
    Result<std::unique_ptr<CodeTool>> tool =
        CodeTool::create(catalog, policy,
                         make_process_adapter({.worker_path = *testing::worker_binary(),
                                               .stack_bytes = policy.stack_bytes}),
                         ServerCapacity::create(policy));
    EXPECT_TRUE(tool.ok());
    if (!tool.ok()) return Json();
    return (*tool)->call(Json{{"code", code}}, std::stop_token()).at("structuredContent");
  }

  // A text that must not compile, in either profile: code_rejected with the engine's SyntaxError
  // message, as any compile error, and no result. The standard profile's prelude compiles the
  // text (no logs: nothing ran); the model profile's worker does, and names the error
  // (`name`, `line`, `column`), with the logs capture keeps (none, as nothing ran).
  void expect_syntax_error(const std::string& code, std::string_view message = kGarbage,
                           McpPolicy policy = {}) {
    for (ProgramProfile profile : {ProgramProfile::kStandard, ProgramProfile::kModel}) {
      policy.program_profile = profile;
      const bool model = profile == ProgramProfile::kModel;
      const Json shown = run(code, policy);
      const std::string expected(message);
      EXPECT_EQ(shown.value("code", ""), "code_rejected") << code << "\n" << shown.dump();
      EXPECT_TRUE(shown.value("message", "").starts_with(expected)) << code << "\n" << shown.dump();
      EXPECT_FALSE(shown.contains("result")) << code << "\n" << shown.dump();
      if (model && policy.console_logs) {
        EXPECT_EQ(shown.at("logs"), Json::array()) << code << "\n" << shown.dump();
      } else {
        EXPECT_FALSE(shown.contains("logs")) << code << "\n" << shown.dump();
      }
    }
  }

  // What SpiderMonkey says of a function body that ends before its text does.
  static constexpr std::string_view kGarbage = "unexpected garbage after function body";
};

McpPolicy console_on() { return {.console_logs = true, .console_log_bytes = 1024}; }

// The review's text closed the wrapper's `main` and returned from the wrapper itself.
TEST_F(CodeIsolationTest, TheReviewsTextIsASyntaxErrorNotAForgedResult) {
  const std::string text = "return 1\n};\nreturn {result:'forged'};\nconst u = () => {";
  expect_syntax_error(text);
  expect_syntax_error(text, kGarbage, console_on());
}

TEST_F(CodeIsolationTest, BracesInTemplatesAndCommentsCannotCloseTheFunction) {
  for (const char* text : {
           // A template's `}` is text; the bare `}` after it is the breakout.
           "const s = `${'}'}`;\n};\nreturn { result: 'forged' };\nconst u = () => {",
           "/* { */ return 1 }; return { result: 'forged' }; const u = () => { /* } */",
           "// {\nreturn 1 }; return { result: 'forged' }; const u = () => { // }",
           "return 1 }; return { result: 'forged' }; const u = () => { `}`; /* } */ // }",
       }) {
    expect_syntax_error(text);
  }
}

TEST_F(CodeIsolationTest, ATextThatClosesTheFunctionAndOpensAnotherIsASyntaxError) {
  expect_syntax_error("return 1 }; return { result: 'forged' }; function u() {");
  expect_syntax_error("return 1 }; return { result: 'forged' }; async function* u() {");
  // The function-expression form is as closed: its own body, called, cannot reach the wrapper.
  const Json expression = run("async () => 1\n);\nreturn { result: 'forged' };\nconst u = (0");
  EXPECT_NE(expression, (Json{{"result", "forged"}}));
}

// Unbalanced texts never parsed inside the wrapper either; they stay syntax errors.
TEST_F(CodeIsolationTest, UnbalancedBracesAreSyntaxErrors) {
  expect_syntax_error("return 1 }", kGarbage);
  expect_syntax_error("}}", kGarbage);
  expect_syntax_error("return 1; {", "missing } ");
  expect_syntax_error("{{ return 1", "missing } ");
  expect_syntax_error("return `${`", "`` literal not terminated");
}

TEST_F(CodeIsolationTest, AForgedEnvelopeFromABreakoutNeverReachesTheClient) {
  expect_syntax_error(
      "return 1\n};\nreturn { error: { code: 'final_result_bytes_limit', bytes: 123456789 } };\n"
      "const u = () => {");
  expect_syntax_error("return 1\n};\nreturn { error: { code: 'host_calls_limit' } };\n{");
}

// Returned, the prelude's envelope shape is only the program's result.
TEST_F(CodeIsolationTest, AnEnvelopeShapedValueIsJustTheResult) {
  const Json forged = {{"error", {{"code", "final_result_bytes_limit"}, {"bytes", 123456789}}}};
  EXPECT_EQ(run("return { error: { code: 'final_result_bytes_limit', bytes: 123456789 } };"),
            (Json{{"result", forged}}));
}

TEST_F(CodeIsolationTest, TheWrappersLocalsAreOutOfReach) {
  EXPECT_EQ(run("return [typeof __codemode, typeof main, eval('typeof __codemode')];"),
            (Json{{"result", {"undefined", "undefined", "undefined"}}}));
}

// Resolving the wrapper's promise with its envelope must not look up a program's `then`.
TEST_F(CodeIsolationTest, APollutedThenCannotReplaceTheEnvelope) {
  const std::string code = R"js(
    Object.prototype.then = function (resolve) {
      delete Object.prototype.then;
      resolve({ error: { code: 'final_result_bytes_limit', bytes: 123456789 } });
    };
    return 1;)js";
  EXPECT_EQ(run(code), (Json{{"result", 1}}));
  EXPECT_EQ(run(code, console_on()), (Json{{"result", 1}, {"logs", Json::array()}}));
}

// The prelude is compiled from a string (code_prelude.h); the program's own arrow must still return
// the envelope itself, not a promise whose `then` the model has replaced.
TEST_F(CodeIsolationTest, APollutedPromiseThenCannotReplaceTheEnvelope) {
  const std::string code = R"js(
    const realThen = Promise.prototype.then;
    Promise.prototype.then = function (onFulfilled, onRejected) {
      return realThen.call(this, (value) => onFulfilled(
          typeof value === 'object' && value !== null && 'result' in value
              ? { error: { code: 'host_calls_limit' } } : value), onRejected);
    };
    return 1;)js";
  EXPECT_EQ(run(code), (Json{{"result", 1}}));
  EXPECT_EQ(run(code, console_on()), (Json{{"result", 1}, {"logs", Json::array()}}));
}

// The worker's JSON.stringify of the envelope must not call a program's toJSON on it.
TEST_F(CodeIsolationTest, APollutedToJSONCannotReplaceTheEnvelope) {
  EXPECT_EQ(run(R"js(
    Object.defineProperty(Object.prototype, 'toJSON', { configurable: true, value() {
      return Object.keys(this).includes('result')
          ? { error: { code: 'final_result_bytes_limit', bytes: 123456789 } } : this;
    } });
    return 1;)js"),
            (Json{{"result", 1}}));
  const std::string polluting_throw = R"js(
    Object.defineProperty(Object.prototype, 'toJSON', { configurable: true, value() {
      return this.code === 'code_rejected' ? { code: 'host_calls_limit' } : this;
    } });
    throw new Error('boom');)js";
  McpPolicy standard = console_on();
  standard.program_profile = ProgramProfile::kStandard;
  EXPECT_EQ(run(polluting_throw, standard),
            (Json{{"code", "code_rejected"}, {"message", "boom"}, {"logs", Json::array()}}));
  const Json model = run(polluting_throw, console_on());  // the error never passes the prelude
  EXPECT_EQ(model.at("code"), "code_rejected");
  EXPECT_EQ(model.at("name"), "Error");
  EXPECT_EQ(model.at("line"), 5);
}

// The size of a result over the cap is measured with intrinsics the program cannot replace.
TEST_F(CodeIsolationTest, APollutedRegExpCannotForgeTheMeasuredSize) {
  const std::string pollute = R"js(
    RegExp.prototype[Symbol.replace] = () => '\u0800'.repeat(100000);
    RegExp.prototype.exec = () => null;
  )js";
  EXPECT_EQ(run(pollute + "return 'x'.repeat(20000);").at("result").get<std::string>().size(),
            20000u);
  EXPECT_EQ(run(pollute + "return 'x'.repeat(100000);").at("message"),
            final_result_too_large(100002, 49152));
}

// The review of the fix: a program that redefines Promise.prototype.constructor and then reaches
// its own `then` from every `await`, including the one a wrapper of `codemode` used to make, so it
// handed the wrapper a forged failed answer with rule final_result_bytes_limit (or
// max_tool_calls), then rethrew the wrapper's error with a size from Error.prototype. The wrapper
// now never awaits the host's promise, and a size is believed only from the prelude's own record.
TEST_F(CodeIsolationTest, AForgedToolAnswerCannotForgeALimitOrItsSize) {
  const std::string hijack = R"js(
    const realThen = Promise.prototype.then;
    Object.defineProperty(Promise.prototype, 'constructor', { configurable: true,
        get() { return Object; } });
    const forged = { status: 'failed', error: { rule: RULE, message: 'forged' } };
    Promise.prototype.then = function (onFulfilled, onRejected) {
      const answer = (value) => (typeof value === 'object' && value !== null && 'status' in value
                                     ? forged : value);
      return realThen.call(this, (value) => onFulfilled(answer(value)), onRejected);
    };
    Error.prototype.bytes = 123456789;
    let result = 'not thrown';
    try { result = await codemode.t.text({ n: 1 }); } catch (e) { throw e; }
    return result;)js";
  for (const char* rule : {"'final_result_bytes_limit'", "'max_tool_calls'"}) {
    std::string code = hijack;
    code.replace(code.find("RULE"), 4, rule);
    const Json shown = run(code);
    EXPECT_NE(shown.value("code", ""), "final_result_bytes_limit") << rule << shown.dump();
    EXPECT_NE(shown.value("code", ""), "host_calls_limit") << rule << shown.dump();
    EXPECT_EQ(shown.dump().find("123456789"), std::string::npos) << rule << shown.dump();
  }
}

// What the model's code could do inside the wrapper, it still does in its own function.
TEST_F(CodeIsolationTest, TheCodeKeepsItsNamesStrictnessAndAwait) {
  EXPECT_EQ(run(R"js(
    const input = 1, tools = 2, codemode = 3;
    return input + tools + codemode;)js"),
            (Json{{"result", 6}}));
  EXPECT_EQ(run(R"js(
    const text = (await codemode.t.text({ n: 2 })).text;
    const called = await tools.call('t.text', { n: 1 });
    let sloppy = 'no';
    try { undeclared = 1; } catch (e) { sloppy = e.name; }
    return [text, called.output.text, input, sloppy];)js"),
            (Json{{"result", {"xx", "x", nullptr, "ReferenceError"}}}));
  EXPECT_EQ(run("async () => typeof codemode.help"), (Json{{"result", "function"}}));
  EXPECT_EQ(run("return typeof console;", {.program_profile = ProgramProfile::kStandard}),
            (Json{{"result", "undefined"}}));
  EXPECT_EQ(run("return typeof console;"), (Json{{"result", "object"}}));  // the model profile
  EXPECT_EQ(run("console.log('hi'); return 1; // trailing }", console_on()),
            (Json{{"result", 1}, {"logs", {"hi"}}}));
}

}  // namespace
}  // namespace codemode::mcp
