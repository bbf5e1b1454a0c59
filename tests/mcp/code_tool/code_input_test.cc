// The code tool's input: a fence is removed, and a text is a function expression only when the
// whole text is one; anything else is a body.
#include "mcp/code_tool/code_input.h"

#include <gtest/gtest.h>

namespace codemode::mcp {
namespace {

CodeForm form_of(std::string_view code) { return normalize_code_input(code).form; }

TEST(CodeInput, FunctionExpressionsInEveryForm) {
  for (const char* code :
       {"async () => { return 1; }", "async()=>1", "() => 1", "x => x", "async x => x",
        "async function () { return 1; }", "function main() { return 1; }",
        "async (a = ')', b) => a", "  \n async ( ) =>\n 1", "async => async",
        "async function* g() { yield 1; }", "({ a }, [b], ...c) => a", "(a,) => a"}) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionExpression) << code;
  }
}

TEST(CodeInput, BodiesInEveryForm) {
  for (const char* code :
       {"return 1;", "const r = await codemode.a.b({}); return r;", "(await f()).x", "(a, b)",
        "functional(); return 2;", "asyncWork(); return 3;", "x.y => 1", "`${a}` => 1",
        "(`)`) => 1", "", "// a comment\nreturn 1;"}) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionBody) << code;
  }
}

TEST(CodeInput, ADeclarationFollowedByStatementsIsABody) {
  for (const char* code : {
           "function helper(x) { return x * 2; }\nreturn helper(21);",
           "async function main() { const a = await codemode.x.y({}); return a; }\n"
           "return await main();",
           "function f() {}\nf();",
           "function* g() { yield 1; } return [...g()];",
           "async function main() { return 1; };\nreturn main();",
       }) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionBody) << code;
    EXPECT_EQ(normalize_code_input(code).source, code);
  }
}

TEST(CodeInput, AnArrowFollowedByStatementsIsABody) {
  for (const char* code : {
           "const f = async () => 1; return f();",
           "async () => { return 1; }\nreturn 2;",
           "x => { return x; }; return 3;",
           "async () => 40 + 2; return 1;",
           "x => x\nreturn 1;",
           "async () => await codemode.a.b({})\nconst c = 1;",
           "() => f(1)\nfoo()",
           "() => 'a'\n'b'",
           "() => `a${1}b`\nreturn 5",
           "async x => x /* a\n comment */ 7",
       }) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionBody) << code;
  }
}

TEST(CodeInput, AFunctionExpressionCalledIsABodyStatement) {
  for (const char* code :
       {"(function () { return 1; })()", "(async () => { return 1; })();",
        "async () => { return 1; }()", "function f() { return 1; }()", "(() => 1)()"}) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionBody) << code;
  }
}

TEST(CodeInput, BracesInsideLiteralsAndCommentsDoNotEndTheFunction) {
  for (const char* code : {
           "async () => { return '}'; }",
           "async () => { return \"}\\\"}\"; }",
           "() => { return `}${ {a: '}'}.a + `${'}'}` }}`; }",
           "function f() { // }\n return 1; }",
           "function f() { /* } */ return 1; }",
           "() => { return /}/.test('}'); }",
           "() => { const r = [/[/}]/g, 1 / 2 / 3]; return r; }",
           "() => { if (x) { return typeof /}/; } return a.b / c / d; }",
           "function f({ a = '}', b } = {}) { return a; }",
           "async (a = `)${'{'}`) => { return a; }",
       }) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionExpression) << code;
    EXPECT_EQ(normalize_code_input(code).source, code);
  }
}

TEST(CodeInput, TrailingSemicolonsCommentsAndBlanksAreDroppedFromAnExpression) {
  EXPECT_EQ(normalize_code_input("async () => { return 1; };").source, "async () => { return 1; }");
  EXPECT_EQ(normalize_code_input("function f() { return 1; } ;; \n").source,
            "function f() { return 1; }");
  EXPECT_EQ(normalize_code_input("function f() { return 1; } // done\n;").source,
            "function f() { return 1; }");
  EXPECT_EQ(normalize_code_input("async () => 40 + 2;").source, "async () => 40 + 2");
  EXPECT_EQ(normalize_code_input("x => x // the same\n").source, "x => x");
  EXPECT_EQ(form_of("async () => 40 + 2;;"), CodeForm::kFunctionExpression);
}

TEST(CodeInput, AConciseBodyGoesOnAcrossLinesUntilAStatementEnds) {
  for (const char* code : {"async () =>\n  40\n  + 2", "x => x\n  .map(f)\n  .filter(g)",
                           "async () => (await f())\n[0]", "x => x ?\n  a :\n  b", "x => x\n  in y",
                           "() => typeof\nx"}) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionExpression) << code;
  }
}

TEST(CodeInput, AScanThatCannotFinishLeavesTheHeadToDecide) {
  // Misread or broken text: a function expression stays one (and fails to compile loudly if it
  // is not one), while an arrow head that cannot be read is a body, as before.
  for (const char* code : {"async () => { return '}", "function f() { return `${ }",
                           "() => { if (x) /}/.test(y); return 1; }", "x => 'open"}) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionExpression) << code;
    EXPECT_EQ(normalize_code_input(code).source, code);
  }
  EXPECT_EQ(form_of("(a = ') => 1"), CodeForm::kFunctionBody);
  EXPECT_EQ(form_of("(a, b => 1"), CodeForm::kFunctionBody);
  // What follows the function makes a body only when it too can be read to the end: here the
  // regular expression read as division closes the block early, and the rest does not balance.
  EXPECT_EQ(form_of("() => { if (a) /}x/.test(y); }"), CodeForm::kFunctionExpression);
  EXPECT_EQ(form_of("function f() {}\nreturn 'open"), CodeForm::kFunctionExpression);
  EXPECT_EQ(form_of("x => x; return 'open"), CodeForm::kFunctionExpression);
}

TEST(CodeInput, DeepNestingIsScannedWithoutRecursion) {
  const std::string deep = "() => {" + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_EQ(form_of(deep), CodeForm::kFunctionExpression);
  std::string templates = "() => { return ";
  for (int i = 0; i < 20000; ++i) templates += "`${";
  for (int i = 0; i < 20000; ++i) templates += "}`";
  EXPECT_EQ(form_of(templates + "; }\nreturn 1;"), CodeForm::kFunctionBody);
}

TEST(CodeInput, RemovesOneSurroundingFence) {
  EXPECT_EQ(normalize_code_input("```js\nreturn 1;\n```").source, "return 1;");
  EXPECT_EQ(normalize_code_input("\n```javascript\nasync () => 2\n```\n").source, "async () => 2");
  EXPECT_EQ(form_of("```ts\nasync () => 2\n```"), CodeForm::kFunctionExpression);
  EXPECT_EQ(normalize_code_input("```\nreturn 3;\n```").source, "return 3;");
  // Not a fence around the whole text: left as it is (and fails to compile in the sandbox).
  EXPECT_EQ(normalize_code_input("return 1; ```js\nx\n```").source, "return 1; ```js\nx\n```");
  EXPECT_EQ(normalize_code_input("```js return 1;```").source, "```js return 1;```");
  EXPECT_EQ(normalize_code_input("```js {\nreturn 1;\n```").source, "```js {\nreturn 1;\n```");
}

}  // namespace
}  // namespace codemode::mcp
