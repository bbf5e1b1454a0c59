// The program contract of codemode-worker: one function expression, sync or async, strict mode;
// how its result, its throws and its shape errors are reported.
#include <gtest/gtest.h>

#include "support/timing.h"
#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

constexpr const char* kNotAFunction =
    "The program source must be a function expression, such as (input, tools) => output.";

// What the program threw: its name and message (where it was thrown is checked by the tests of
// locations: tests/sandbox/model_profile_test.cc).
Json program_error(const Execution& execution) {
  Json error = execution.result ? execution.result->value("programError", Json()) : Json();
  if (error.is_object()) {
    for (const char* key : {"line", "column", "sourceLine"}) error.erase(key);
  }
  return error;
}

// The rule of an invalid_output result ("" when there is none).
std::string output_rule(const Execution& execution) {
  if (!execution.result || execution.reason() != "invalid_output") return "";
  return execution.result->value("rule", "");
}

void expect_output_rule(std::string_view source, std::string_view rule,
                        const StartLimits& limits = {}) {
  SCOPED_TRACE(std::string(source));
  Execution run = execute(source, nullptr, limits);
  EXPECT_EQ(run.reason(), "invalid_output") << run.result.value_or(Json()).dump();
  EXPECT_EQ(output_rule(run), rule);
  ASSERT_TRUE(run.result.has_value());
  EXPECT_FALSE(run.result->contains("programError"));
  EXPECT_TRUE(run.exited_normally(0));
}

void expect_not_a_function(std::string_view source) {
  SCOPED_TRACE(std::string(source));
  Execution run = execute(source);
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ(program_error(run), (Json{{"name", "TypeError"}, {"message", kNotAFunction}}));
  EXPECT_TRUE(run.exited_normally(0));
}

TEST(WorkerProgramTest, SyncProgramReturnsItsResult) {
  Execution run = execute("(input, tools) => ({sum: input.a + input.b})", {{"a", 1}, {"b", 2}});
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{{"sum", 3}}));
  EXPECT_EQ((*run.result)["hasOutput"], true);
  EXPECT_TRUE(run.exited_normally(0));
}

TEST(WorkerProgramTest, AsyncProgramReturnsItsResult) {
  Execution run = execute("async (input) => { await null; return [input, 'done']; }", "x");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{"x", "done"}));
}

TEST(WorkerProgramTest, NullResultIsAValueNotAbsence) {
  Execution run = execute("() => null");
  ASSERT_TRUE(run.succeeded());
  EXPECT_TRUE(run.output().is_null());
  EXPECT_EQ((*run.result)["hasOutput"], true);
}

TEST(WorkerProgramTest, PlainFunctionExpressionIsAccepted) {
  Execution run = execute("async function main(input, tools) { return typeof tools.call; }");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), "function");
}

TEST(WorkerProgramTest, TrailingLineCommentIsHarmless) {
  Execution run = execute("() => 7 // the answer");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), 7);
}

TEST(WorkerProgramTest, ProgramRunsInStrictMode) {
  Execution run = execute("() => { undeclared = 1; }");
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ(program_error(run)["name"], "ReferenceError");
}

TEST(WorkerProgramTest, StatementsAreASyntaxError) {
  Execution run = execute("const x = 1; x");
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ(program_error(run)["name"], "SyntaxError");
}

TEST(WorkerProgramTest, SequenceExpressionIsNotAProgram) { expect_not_a_function("1, 2"); }

TEST(WorkerProgramTest, SecondExpressionAfterTheFunctionIsRefused) {
  expect_not_a_function("x => x); foo(");
}

TEST(WorkerProgramTest, NonFunctionValueIsRefused) { expect_not_a_function("Math.max"); }

TEST(WorkerProgramTest, GeneratorIsRefused) { expect_not_a_function("function* () {}"); }

TEST(WorkerProgramTest, ImportStatementIsASyntaxError) {
  Execution run = execute("import x from 'y'");
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ(program_error(run)["name"], "SyntaxError");
}

TEST(WorkerProgramTest, SyntaxErrorIsReportedWithItsMessage) {
  Execution run = execute("(a, b => {");
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ(program_error(run)["name"], "SyntaxError");
  EXPECT_FALSE(program_error(run)["message"].get<std::string>().empty());
}

TEST(WorkerProgramTest, ThrownErrorKeepsNameAndMessage) {
  Execution run = execute("() => { throw new RangeError('too far'); }");
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ(program_error(run), (Json{{"name", "RangeError"}, {"message", "too far"}}));
}

TEST(WorkerProgramTest, ErrorSubclassNameIsReported) {
  Execution run = execute(
      "() => { class QuotaError extends Error { constructor(m) { super(m); "
      "this.name = 'QuotaError'; } } throw new QuotaError('over'); }");
  EXPECT_EQ(program_error(run), (Json{{"name", "QuotaError"}, {"message", "over"}}));
}

TEST(WorkerProgramTest, ThrownStringIsAnErrorWithThatMessage) {
  Execution run = execute("() => { throw 'plain'; }");
  EXPECT_EQ(program_error(run), (Json{{"name", "Error"}, {"message", "plain"}}));
}

TEST(WorkerProgramTest, ThrownPlainObjectUsesItsNameAndMessage) {
  Execution run = execute("() => { throw {name: 'Custom', message: 'm', code: 1}; }");
  EXPECT_EQ(program_error(run), (Json{{"name", "Custom"}, {"message", "m"}}));
}

TEST(WorkerProgramTest, RejectionIsAProgramError) {
  Execution run = execute("async () => { throw new TypeError('async'); }");
  EXPECT_EQ(program_error(run), (Json{{"name", "TypeError"}, {"message", "async"}}));
}

TEST(WorkerProgramTest, DescribingAnErrorNeverRunsItsGetters) {
  // A spinning name getter would hit the CPU limit; a throwing one would change the report.
  Execution run = execute(
      "() => { const e = new Error('quiet'); "
      "Object.defineProperty(e, 'name', {get() { for (;;) {} }}); "
      "Object.defineProperty(e, 'message', {get() { throw 1; }}); throw e; }");
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ(program_error(run), (Json{{"name", "Error"}, {"message", ""}}));
}

TEST(WorkerProgramTest, ProxyThrownIsDescribedWithoutTraps) {
  Execution run = execute(
      "() => { throw new Proxy({}, {get() { for (;;) {} }, getPrototypeOf() { for (;;) {} }}); }");
  EXPECT_EQ(program_error(run), (Json{{"name", "Error"}, {"message", ""}}));
}

TEST(WorkerProgramTest, ProgramErrorIsCappedInUtf16Units) {
  Execution run = execute(
      "() => { const e = new Error('é'.repeat(2000)); e.name = 'N'.repeat(500); throw e; }");
  EXPECT_EQ(program_error(run)["name"].get<std::string>(), std::string(128, 'N'));
  std::string message;
  for (int i = 0; i < 1024; ++i) message += "é";
  EXPECT_EQ(program_error(run)["message"].get<std::string>(), message);
}

TEST(WorkerProgramTest, CapNeverSplitsASurrogatePair) {
  Execution run = execute("() => { throw 'a' + '😀'.repeat(600); }");
  const std::string message = program_error(run)["message"].get<std::string>();
  std::string expected = "a";
  for (int i = 0; i < 511; ++i) expected += "😀";  // 1 + 511 * 2 = 1023 units; a pair won't fit
  EXPECT_EQ(message, expected);
}

TEST(WorkerProgramTest, UndefinedResultIsInvalidOutput) {
  expect_output_rule("() => undefined", "output_not_json");
  expect_output_rule("async () => {}", "output_not_json");
}

TEST(WorkerProgramTest, CyclicResultIsInvalidOutput) {
  expect_output_rule("() => { const a = {}; a.self = a; return a; }", "output_cycle");
  expect_output_rule("() => { const a = [{}]; a[0].up = a; return {a}; }", "output_cycle");
}

TEST(WorkerProgramTest, BigIntResultIsInvalidOutput) {
  expect_output_rule("() => ({n: 10n})", "output_bigint");
  expect_output_rule("() => 10n", "output_bigint");
}

TEST(WorkerProgramTest, NonJsonResultIsInvalidOutput) {
  expect_output_rule("() => () => 1", "output_not_json");
  expect_output_rule("() => Symbol('s')", "output_not_json");
  expect_output_rule("() => ({toJSON() { return undefined; }})", "output_not_json");
  expect_output_rule("() => 2 ** 60", "output_not_json");  // an integer beyond 2^53 - 1
}

// The rule comes from the engine's own error number, not from what a toJSON throws.
TEST(WorkerProgramTest, AThrowingToJsonIsNotJsonWhateverItThrows) {
  expect_output_rule("() => ({toJSON() { throw new TypeError('cyclic object value'); }})",
                     "output_not_json");
  expect_output_rule(
      "() => ({toJSON() { throw new TypeError(\"BigInt value can't be serialized in JSON\"); }})",
      "output_not_json");
  expect_output_rule("() => ({toJSON() { throw 'no'; }})", "output_not_json");
}

TEST(WorkerProgramTest, LoneSurrogateResultIsInvalidOutput) {
  expect_output_rule("() => '\\ud800'", "output_lone_surrogate");
  expect_output_rule("() => ['ok', 'a\\udfff']", "output_lone_surrogate");
  expect_output_rule("() => ({['\\udc00key']: 1})", "output_lone_surrogate");
  expect_output_rule("() => '\\ud83d'.repeat(3)", "output_lone_surrogate");
}

TEST(WorkerProgramTest, PairedSurrogatesAndEscapedTextAreNotLoneSurrogates) {
  Execution run =
      execute("() => ['\\ud83d\\ude00', '\\\\ud800', '\\u0001', String.raw`\\\\ud800`]");
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), (Json{"\U0001F600", "\\ud800", std::string("\x01"), "\\\\ud800"}));
}

TEST(WorkerProgramTest, ResultWithMoreThan100000ValuesIsInvalidOutput) {
  EXPECT_TRUE(execute("() => new Array(99999).fill(0)").succeeded());  // 100,000 with the array
  expect_output_rule("() => new Array(100000).fill(0)", "output_values_limit");
}

TEST(WorkerProgramTest, ResultWithAReservedKeyIsInvalidOutput) {
  expect_output_rule("() => ({a: {constructor: 1}})", "output_reserved_key");
  expect_output_rule("() => JSON.parse('{\"__proto__\": 1}')", "output_reserved_key");
}

TEST(WorkerProgramTest, RootToJsonSeesTheEmptyKey) {
  Execution run = execute("() => ({toJSON(key) { return [key, typeof key]; }})");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{"", "string"}));
}

TEST(WorkerProgramTest, ProgramsObjectPrototypeDoesNotReachTheResultHolder) {
  Execution run = execute(
      "() => { Object.prototype.toJSON = function () { return 'hijacked'; }; "
      "return Object.create(null); }");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), Json::object());
}

TEST(WorkerProgramTest, ResultOverMaxOutputBytesIsInvalidOutput) {
  StartLimits limits;
  limits.max_output_bytes = 1000;
  expect_output_rule("() => 'x'.repeat(999)", "max_output_bytes", limits);
  EXPECT_TRUE(execute("() => 'x'.repeat(998)", nullptr, limits).succeeded());  // 1000 with quotes
}

TEST(WorkerProgramTest, ResultBytesCountUtf8) {
  StartLimits limits;
  limits.max_output_bytes = 100;
  expect_output_rule("() => 'é'.repeat(50)", "max_output_bytes", limits);
  EXPECT_TRUE(execute("() => 'é'.repeat(49)", nullptr, limits).succeeded());
}

TEST(WorkerProgramTest, ResultDeeperThan32LevelsIsInvalidOutput) {
  EXPECT_TRUE(
      execute("() => { let a = 1; for (let i = 0; i < 32; i++) a = [a]; return a; }").succeeded());
  expect_output_rule("() => { let a = 1; for (let i = 0; i < 33; i++) a = [a]; return a; }",
                     "output_depth_limit");
}

TEST(WorkerProgramTest, DeeplyNestedResultIsAnInternalErrorNotACrash) {
  Execution run = execute("() => { let a = []; for (let i = 0; i < 1e6; i++) a = [a]; return a; }");
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ(program_error(run)["name"], "InternalError");
  EXPECT_TRUE(run.exited_normally(0));
}

TEST(WorkerProgramTest, NeverSettlingPromiseFailsAtOnce) {
  Execution run = execute("() => new Promise(() => {})");
  EXPECT_EQ(run.reason(), "program_error");
  ASSERT_TRUE(run.result.has_value());
  EXPECT_FALSE(run.result->contains("programError"));
  EXPECT_LT(run.elapsed, slack(std::chrono::seconds(5)));
}

// The result is decided the moment the program's promise settles: jobs still queued then are
// dropped, so a job left spinning cannot turn a returned value into cpu_limit.
TEST(WorkerProgramTest, JobsLeftQueuedWhenThePromiseSettlesNeverRun) {
  StartLimits limits;
  limits.cpu_millis = 300;
  for (const char* source :
       {"async () => { Promise.resolve().then(() => { for (;;) {} }); return 7; }",
        "() => { Promise.resolve().then(() => { for (;;) {} }); return 7; }",
        "() => new Promise((resolve) => { Promise.resolve().then(() => resolve(7)); "
        "Promise.resolve().then(() => { for (;;) {} }); })",
        "async () => { await null; Promise.resolve().then(() => { for (;;) {} }); return 7; }"}) {
    SCOPED_TRACE(source);
    Execution run = execute(source, nullptr, limits);
    ASSERT_TRUE(run.succeeded()) << run.result.value_or(Json()).dump();
    EXPECT_EQ(run.output(), 7);
  }
  Execution thrown = execute(
      "async () => { Promise.resolve().then(() => { for (;;) {} }); throw new Error('x'); }",
      nullptr, limits);
  EXPECT_EQ(thrown.reason(), "program_error");
  EXPECT_EQ(program_error(thrown), (Json{{"name", "Error"}, {"message", "x"}}));
}

// ... nor change the value before it is written (only its toJSON, run to write it, can).
TEST(WorkerProgramTest, TheResultIsTheValueAsThePromiseSettled) {
  Execution run = execute(
      "async () => { const o = {v: 1}; Promise.resolve().then(() => { o.v = 2; }); return o; }");
  ASSERT_TRUE(run.succeeded()) << run.result.value_or(Json()).dump();
  EXPECT_EQ(run.output(), (Json{{"v", 1}}));
}

TEST(WorkerProgramTest, AwaitedThenableIsFollowed) {
  Execution run = execute("() => ({then(resolve) { resolve(42); }})");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), 42);
}

TEST(WorkerProgramTest, InputArrivesAsParsedJson) {
  const Json input{{"list", {1, 2, 3}}, {"text", "ü"}, {"nested", {{"ok", true}}}};
  Execution run = execute("(input) => input", input);
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), input);
}

}  // namespace
}  // namespace codemode::testing
