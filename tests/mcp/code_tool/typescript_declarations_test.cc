// Code mode's TypeScript declarations: identifiers a program can write, types that describe (never
// narrow) what the schemas accept, JSDoc that cannot end early, and the fallbacks past the size
// cap.
#include "mcp/code_tool/typescript_declarations.h"

#include <gtest/gtest.h>

#include "mcp/code_tool/typescript_identifiers.h"
#include "mcp/code_tool/typescript_types.h"

namespace codemode::mcp {
namespace {

TEST(TypescriptIdentifiers, SanitizesNamesOthersChose) {
  EXPECT_EQ(sanitize_identifier("search-issues"), "search_issues");
  EXPECT_EQ(sanitize_identifier("3d-render"), "_3d_render");
  EXPECT_EQ(sanitize_identifier("delete"), "delete_");
  EXPECT_EQ(sanitize_identifier("get.file"), "get_file");
  EXPECT_EQ(sanitize_identifier(""), "_");
  EXPECT_EQ(sanitize_identifier("$ok_1"), "$ok_1");
  EXPECT_TRUE(is_plain_identifier("echo"));
  EXPECT_FALSE(is_plain_identifier("class"));
  EXPECT_FALSE(is_plain_identifier("a-b"));
}

TEST(TypescriptIdentifiers, RefusesTwoNamesThatBecomeOne) {
  const auto same = sanitize_identifiers({"get-file", "get_file"}, "tool");
  ASSERT_FALSE(same.ok());
  EXPECT_EQ(same.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(same.error().rule, "identifier_collision");
  EXPECT_NE(same.error().message.find("\"get-file\" and \"get_file\""), std::string::npos);
  EXPECT_TRUE(sanitize_identifiers({"a", "b", "a"}, "tool").ok());  // one name twice is no clash
}

TEST(TypescriptTypes, DescribesEachKeyword) {
  EXPECT_EQ(typescript_type(Json::parse(R"({"type":"string"})")), "string");
  EXPECT_EQ(typescript_type(Json::parse(R"({"type":"integer"})")), "number");
  EXPECT_EQ(typescript_type(Json::parse(R"({"type":["string","null"]})")), "(string | null)");
  EXPECT_EQ(typescript_type(Json::parse(R"({"enum":["a",1,null]})")), R"(("a" | 1 | null))");
  EXPECT_EQ(typescript_type(Json::parse(R"({"const":"x"})")), R"("x")");
  EXPECT_EQ(typescript_type(Json::parse(R"({"type":"array","items":{"type":"number"}})")),
            "Array<number>");
  EXPECT_EQ(typescript_type(Json::parse(R"({"items":[{"type":"string"},{"type":"boolean"}]})")),
            "[string, boolean]");
  EXPECT_EQ(typescript_type(Json::parse(R"({"anyOf":[{"type":"string"},{"type":"number"}]})")),
            "(string | number)");
  EXPECT_EQ(typescript_type(Json::parse(R"({"allOf":[{"type":"object"},{"type":"object"}]})")),
            "({ [key: string]: unknown; } & { [key: string]: unknown; })");
  EXPECT_EQ(typescript_type(Json::parse(R"({"type":"string","nullable":true})")),
            "(string | null)");
  EXPECT_EQ(typescript_type(Json::parse("true")), "unknown");
  EXPECT_EQ(typescript_type(Json::parse("false")), "never");
  EXPECT_EQ(typescript_type(Json::parse("{}")), "unknown");
}

TEST(TypescriptTypes, ObjectsMarkOptionalMembersQuoteOddKeysAndKeepDescriptions) {
  const Json schema = Json::parse(R"({"type":"object","required":["id"],
      "properties":{"id":{"type":"string","description":"The id."},"max-items":{"type":"integer"}},
      "additionalProperties":false})");
  EXPECT_EQ(typescript_type(schema),
            "{\n  /** The id. */\n  id: string;\n  \"max-items\"?: number;\n}");
  EXPECT_EQ(typescript_type(Json::parse(R"({"type":"object","additionalProperties":
                                              {"type":"number"}})")),
            "{ [key: string]: number; }");
}

TEST(TypescriptTypes, ReferencesResolveAndCyclesStopAtUnknown) {
  const Json tree = Json::parse(R"({"$ref":"#/definitions/node","definitions":{"node":{
      "type":"object","required":["children"],
      "properties":{"children":{"type":"array","items":{"$ref":"#/definitions/node"}}}}}})");
  EXPECT_EQ(typescript_type(tree), "{\n  children: Array<unknown>;\n}");
  EXPECT_EQ(typescript_type(Json::parse(R"({"$ref":"https://example.com/s.json"})")), "unknown");
  EXPECT_EQ(typescript_type(Json::parse(R"({"$ref":"#/nowhere"})")), "unknown");
  EXPECT_EQ(typescript_type(Json::parse(R"({"$ref":"#/~9"})")), "unknown");  // malformed pointer
}

TEST(TypescriptTypes, DeepSchemasEndInUnknown) {
  Json schema = Json::parse(R"({"type":"string"})");
  for (int i = 0; i < 100; ++i) schema = Json{{"type", "array"}, {"items", schema}};
  const std::string type = typescript_type(schema);
  EXPECT_NE(type.find("unknown"), std::string::npos);
  EXPECT_EQ(type.find("string"), std::string::npos);
}

TEST(TypescriptTypes, JsdocCannotBeEndedByTheDescription) {
  EXPECT_EQ(jsdoc("Ends here */ alert(1)", 0), "/** Ends here * / alert(1) */\n");
  EXPECT_EQ(jsdoc("Two\nlines", 2), "  /**\n   * Two\n   * lines\n   */\n");
  EXPECT_EQ(jsdoc("", 0), "");
}

std::vector<ToolDeclaration> two_servers() {
  return {
      {"everything", "echo", "Echoes back the input.",
       Json::parse(R"({"type":"object","required":["message"],
                       "properties":{"message":{"type":"string"}}})"),
       Json::parse(R"({"type":"object","properties":{"echo":{"type":"string"}}})")},
      {"everything", "get-sum", "", Json::parse(R"({"type":"object"})"), Json()},
      {"memory", "delete", "Deletes.", Json::parse("{}"), Json()},
  };
}

TEST(TypescriptDeclarations, DeclaresEveryServerAndMethodInOrder) {
  const Result<std::string> text = render_declarations(two_servers(), 64 * 1024);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text,
            "declare const codemode: {\n"
            "  readonly everything: {\n"
            "    /** Echoes back the input. */\n"
            "    echo(input: {\n"
            "      message: string;\n"
            "    }): Promise<{\n"
            "      echo?: string;\n"
            "    }>;\n"
            "    get_sum(input: { [key: string]: unknown; }): Promise<unknown>;\n"
            "  };\n"
            "  readonly memory: {\n"
            "    /** Deletes. */\n"
            "    delete_(input: unknown): Promise<unknown>;\n"
            "  };\n"
            "};\n");
  EXPECT_EQ(*render_declarations(two_servers(), 64 * 1024), *text);  // deterministic
}

TEST(TypescriptDeclarations, FallsBackToNamesPastTheCap) {
  std::vector<ToolDeclaration> tools = two_servers();
  tools[0].description = std::string(2000, 'd');
  const std::string full = render_declarations(tools, 64 * 1024).value();
  const std::string names = render_declarations(tools, full.size() - 1).value();
  EXPECT_LT(names.size(), full.size());
  EXPECT_NE(names.find("codemode.help(\"server.tool\")"), std::string::npos);
  EXPECT_NE(names.find("get_sum(input: object): Promise<unknown>;"), std::string::npos);
  const std::string servers = render_declarations(tools, 10).value();
  EXPECT_NE(servers.find("readonly memory: Record<string"), std::string::npos);
  EXPECT_EQ(servers.find("get_sum"), std::string::npos);
}

TEST(TypescriptDeclarations, RefusesCollidingServersAndTools) {
  std::vector<ToolDeclaration> tools = two_servers();
  tools.push_back({"every-thing", "x", "", Json::object(), Json()});
  tools.push_back({"every_thing", "y", "", Json::object(), Json()});
  EXPECT_EQ(render_declarations(tools, 1 << 20).error().rule, "identifier_collision");
  tools = two_servers();
  tools.push_back({"everything", "get_sum", "", Json::object(), Json()});
  EXPECT_EQ(render_declarations(tools, 1 << 20).error().rule, "identifier_collision");
}

TEST(TypescriptDeclarations, OneMethodForHelp) {
  EXPECT_EQ(render_method_declaration(two_servers()[1], 0),
            "get_sum(input: { [key: string]: unknown; }): Promise<unknown>;\n");
}

}  // namespace
}  // namespace codemode::mcp
