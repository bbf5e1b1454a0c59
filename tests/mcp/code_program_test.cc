// The code tool's program text: fences, bodies versus function expressions, method names and
// their collisions, and the description's size cap.
#include "mcp/code_program.h"

#include <gtest/gtest.h>

namespace codemode::mcp {
namespace {

Tool tool(std::string id, std::string description = "Does a thing.") {
  return define_tool({.id = std::move(id),
                      .version = "1",
                      .description = std::move(description),
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .execute = [](const Json&, const ToolContext&,
                                    ToolResponder r) { r.succeed(nullptr); }})
      .value();
}

TEST(CodeProgramTest, StripsOneSurroundingFence) {
  EXPECT_EQ(strip_fence("```js\nreturn 1;\n```"), "return 1;");
  EXPECT_EQ(strip_fence("  ```\nreturn 1;\n```  \n"), "return 1;");
  EXPECT_EQ(strip_fence("return '```';"), "return '```';");
}

TEST(CodeProgramTest, TellsFunctionExpressionsFromBodies) {
  EXPECT_TRUE(is_function_expression("async () => 1"));
  EXPECT_TRUE(is_function_expression("  async function main() { return 1 }"));
  EXPECT_TRUE(is_function_expression("(x) => x"));
  EXPECT_FALSE(is_function_expression("return 1;"));
  EXPECT_FALSE(is_function_expression("const f = async () => 1; return await f();"));
}

TEST(CodeProgramTest, LongInputsAreScannedWithoutRecursion) {
  // Regression: std::regex recursed once per character; the model controls this text.
  const std::string long_body(1 << 20, 'a');
  EXPECT_FALSE(is_function_expression("(" + long_body));
  EXPECT_EQ(strip_fence("```\n" + long_body + "\n```"), long_body);
}

TEST(CodeProgramTest, AFenceWithoutItsBodyOrWithTextAfterIsKept) {
  EXPECT_EQ(strip_fence("``````"), "``````");
  EXPECT_EQ(strip_fence("```js\nreturn 1;\n``` and more"), "```js\nreturn 1;\n``` and more");
}

TEST(CodeProgramTest, MethodsAreSanitizedIdentifiersUnderTheirNamespace) {
  Result<std::vector<CodeMethod>> methods = code_methods(
      {tool("everything.get-sum"), tool("catalog.price"), tool("plain"), tool("srv.9lives")});
  ASSERT_TRUE(methods.ok());
  EXPECT_EQ((*methods)[0].space, "everything");
  EXPECT_EQ((*methods)[0].method, "get_sum");
  EXPECT_EQ((*methods)[0].tool_id, "everything.get-sum");
  EXPECT_EQ((*methods)[2].space, "local");
  EXPECT_EQ((*methods)[2].method, "plain");
  EXPECT_EQ((*methods)[3].method, "_9lives");
}

TEST(CodeProgramTest, HelpAndSearchAreReservedNamespaces) {
  EXPECT_FALSE(code_methods({tool("help.me")}).ok());
  EXPECT_FALSE(code_methods({tool("search.web")}).ok());
}

TEST(CodeProgramTest, TwoToolsOnOneMethodNameAreACollision) {
  Result<std::vector<CodeMethod>> methods = code_methods({tool("s.get-sum"), tool("s.get_sum")});
  ASSERT_FALSE(methods.ok());
  EXPECT_EQ(methods.error().rule, "method_name_collision");
}

TEST(CodeProgramTest, TheProgramIsOneAsyncFunctionExpressionEmbeddingTheCode) {
  const std::string source =
      wrap_program("return 1; // a trailing comment", code_methods({tool("a.b")}).value());
  EXPECT_TRUE(source.starts_with("async (input, tools) => {"));
  EXPECT_NE(source.find(R"([["a","b","a.b","Does a thing.",{}]])"), std::string::npos);
  EXPECT_NE(source.find("return 1; // a trailing comment\n};"), std::string::npos);
}

TEST(CodeProgramTest, ATooLongDescriptionListsNamespacesOnly) {
  std::vector<Tool> tools{tool("one.a", std::string(500, 'x')), tool("two.b")};
  const std::vector<CodeMethod> methods = code_methods(tools).value();
  const std::string full = describe_code_tool(methods, tools, 1 << 20);
  EXPECT_NE(full.find("codemode.one.a(args: {}): xxx"), std::string::npos);
  const std::string short_one = describe_code_tool(methods, tools, 800);
  EXPECT_EQ(short_one.find("xxx"), std::string::npos);
  EXPECT_NE(short_one.find("namespaces: codemode.one codemode.two"), std::string::npos);
}

}  // namespace
}  // namespace codemode::mcp
