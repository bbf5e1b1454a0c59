// The code tool's program text: fences, bodies versus function expressions, method names and
// their collisions, and the description's size cap.
#include "mcp/code_tool/code_program.h"

#include <gtest/gtest.h>

#include "mcp/catalog/tool_results.h"

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

TEST(CodeProgramTest, LongInputsAreScannedWithoutRecursion) {
  // The model controls this text: scanning must not recurse per character.
  const std::string long_body(1 << 20, 'a');
  EXPECT_EQ(normalize_code_input("(" + long_body).form, CodeForm::kFunctionBody);
  EXPECT_EQ(normalize_code_input("```\n" + long_body + "\n```").source, long_body);
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
  EXPECT_EQ((*methods)[0].server, "everything");
  EXPECT_EQ((*methods)[0].tool, "get-sum");
}

TEST(CodeProgramTest, HelpAndSearchAreReservedNamespaces) {
  EXPECT_FALSE(code_methods({tool("help.me")}).ok());
  EXPECT_FALSE(code_methods({tool("search.web")}).ok());
  EXPECT_FALSE(code_methods({tool("docs.help")}).ok());  // each namespace's own help
}

TEST(CodeProgramTest, TwoToolsOnOneMethodNameAreACollision) {
  Result<std::vector<CodeMethod>> methods = code_methods({tool("s.get-sum"), tool("s.get_sum")});
  ASSERT_FALSE(methods.ok());
  EXPECT_EQ(methods.error().rule, "method_name_collision");
}

// The text as a JSON string would write it, without the quotes.
std::string escaped(const std::string& text) {
  const std::string quoted = json_text(Json(text));
  return quoted.substr(1, quoted.size() - 2);
}

// The prelude, its method table and the model's code are one string the program compiles
// (code_prelude.h): each appears escaped once more than in the prelude's own text.
TEST(CodeProgramTest, TheProgramIsOneAsyncFunctionExpressionEmbeddingTheCode) {
  const std::string source = wrap_program(normalize_code_input("return 1; // a trailing comment"),
                                          code_methods({tool("a.b")}).value());
  EXPECT_TRUE(source.starts_with("async (input, tools) => {"));
  // The epilogue is the arrow's own: it returns the envelope, never the prelude's promise.
  EXPECT_TRUE(source.ends_with("return caught(error);\n}\n}"));
  EXPECT_NE(source.find(escaped(R"([["a","b","a.b","Does a thing.",{}]])")), std::string::npos);
  EXPECT_NE(source.find(escaped(R"(\nreturn 1; // a trailing comment")")), std::string::npos);
  EXPECT_NE(source.find(R"(new Function('input', 'tools', "'use strict';\n)"), std::string::npos);
}

// The model's text is data in the program, one JSON string the prelude compiles as a function of
// its own: no text of it is program source, so none can close the wrapper.
TEST(CodeProgramTest, TheModelsTextIsOneStringLiteralNeverSource) {
  const std::vector<CodeMethod> methods = code_methods({tool("a.b")}).value();
  for (const std::string text : {"return 1\n};\nreturn {result:'forged'};\nconst u = () => {",
                                 "async () => 1\n);\nreturn 2;\n(0", "`${'}'}` /* } */\n}; // }"}) {
    const CodeInput input = normalize_code_input(text);
    const std::string source = wrap_program(input, methods);
    EXPECT_EQ(source.find(input.source), std::string::npos) << text;
    EXPECT_NE(source.find(escaped(escaped(input.source))), std::string::npos) << text;
  }
}

// The code tool builds its template once; each call's source is one JSON string the program
// compiles, whose text holds the tables and that call's code as JSON, as if escaped whole.
TEST(CodeProgramTest, OneTemplateGivesEachCallItsCodeInsideOneJsonString) {
  const std::vector<CodeMethod> methods = code_methods({tool("a.b"), tool("c")}).value();
  const ProgramTemplate program(methods, {.console_log_bytes = 512, .quota_classes = {"pages"}});
  constexpr std::string_view kOpen = "new Function('input', 'tools', ";
  constexpr std::string_view kClose = "))(input, tools);\n";
  for (const std::string code : {"return 6*7;", "return 'é\u2028\"\\\t';", "return `${1}`;"}) {
    const std::string source = program.source(normalize_code_input(code));
    const std::size_t open = source.find(kOpen);
    ASSERT_NE(open, std::string::npos) << code;
    const std::size_t close = source.find(kClose, open);
    ASSERT_NE(close, std::string::npos) << code;
    EXPECT_TRUE(source.ends_with("return caught(error);\n}\n}")) << code;
    const std::string literal = source.substr(open + kOpen.size(), close - open - kOpen.size());
    const Json text = Json::parse(literal, nullptr, /*allow_exceptions=*/false);
    ASSERT_TRUE(text.is_string()) << code;
    const std::string& body = text.get_ref<const std::string&>();
    EXPECT_TRUE(body.starts_with("'use strict';\n")) << code;
    EXPECT_NE(body.find("new AsyncFunction(" + json_text(Json("'use strict';\n" + code)) + ");"),
              std::string::npos)
        << code;
    EXPECT_NE(body.find(R"([["a","b","a.b","Does a thing.",{}],["local","c","c")"),
              std::string::npos);
    EXPECT_NE(body.find("const LOG_BYTES = 512;"), std::string::npos);
    EXPECT_TRUE(body.ends_with("return { main, checked, envelope, caught };\n")) << code;
  }
}

TEST(CodeProgramTest, TheDescriptionIsGuidanceAndTypeScriptDeclarations) {
  std::vector<Tool> tools{tool("one.get-a", "Gets a."), tool("two.b")};
  const std::vector<CodeMethod> methods = code_methods(tools).value();
  Result<std::string> full = describe_code_tool(methods, tools, 1 << 20);
  ASSERT_TRUE(full.ok()) << full.error().message;
  EXPECT_NE(full->find("declare const codemode"), std::string::npos);
  EXPECT_NE(full->find("get_a("), std::string::npos);
  EXPECT_NE(full->find("Gets a."), std::string::npos);
}

}  // namespace
}  // namespace codemode::mcp
