// The code tool's input: a fence is removed, and a text is a function expression or a body by its
// first tokens.
#include "mcp/code_input.h"

#include <gtest/gtest.h>

namespace codemode::mcp {
namespace {

CodeForm form_of(std::string_view code) { return normalize_code_input(code).form; }

TEST(CodeInput, FunctionExpressionsInEveryForm) {
  for (const char* code :
       {"async () => { return 1; }", "async()=>1", "() => 1", "x => x", "async x => x",
        "async function () { return 1; }", "function main() { return 1; }",
        "async (a = ')', b) => a", "  \n async ( ) =>\n 1"}) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionExpression) << code;
  }
}

TEST(CodeInput, BodiesInEveryForm) {
  for (const char* code :
       {"return 1;", "const r = await codemode.a.b({}); return r;", "(await f()).x",
        "(a, b)", "functional(); return 2;", "asyncWork(); return 3;", "x.y => 1",
        "`${a}` => 1", "(`)`) => 1", "", "// a comment\nreturn 1;"}) {
    EXPECT_EQ(form_of(code), CodeForm::kFunctionBody) << code;
  }
}

TEST(CodeInput, RemovesOneSurroundingFence) {
  EXPECT_EQ(normalize_code_input("```js\nreturn 1;\n```").source, "return 1;");
  EXPECT_EQ(normalize_code_input("\n```javascript\nasync () => 2\n```\n").source,
            "async () => 2");
  EXPECT_EQ(form_of("```ts\nasync () => 2\n```"), CodeForm::kFunctionExpression);
  EXPECT_EQ(normalize_code_input("```\nreturn 3;\n```").source, "return 3;");
  // Not a fence around the whole text: left as it is (and fails to compile in the sandbox).
  EXPECT_EQ(normalize_code_input("return 1; ```js\nx\n```").source, "return 1; ```js\nx\n```");
  EXPECT_EQ(normalize_code_input("```js return 1;```").source, "```js return 1;```");
  EXPECT_EQ(normalize_code_input("```js {\nreturn 1;\n```").source, "```js {\nreturn 1;\n```");
}

}  // namespace
}  // namespace codemode::mcp
