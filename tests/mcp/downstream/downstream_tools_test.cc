// How a downstream's tools/list entry becomes a Tool, and a CallToolResult becomes an output.
// (Calls against real downstream servers are in tests/mcp/node.)
#include "mcp/downstream/downstream_tools.h"

#include <gtest/gtest.h>

#include "mcp/catalog/tool_results.h"

namespace codemode::mcp {
namespace {

std::shared_ptr<DownstreamClient> client() {
  return std::make_shared<DownstreamClient>(
      DownstreamServerConfig{.name = "srv",
                             .path = "/bin/true",
                             .argv = {"true"},
                             .timeout = std::chrono::milliseconds(250)});
}

TEST(DownstreamToolsTest, AListedToolIsNamespacedWithItsSchemasAndEffects) {
  const Json listed = Json::parse(R"({"name":"read_graph","description":"Reads.",
      "inputSchema":{"type":"object","properties":{"q":{"type":"string"}}},
      "outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}})");
  Result<Tool> tool = downstream_tool(client(), listed);
  ASSERT_TRUE(tool.ok()) << tool.error().message;
  EXPECT_EQ(tool->id(), "srv.read_graph");
  EXPECT_EQ(tool->description(), "Reads.");
  EXPECT_EQ(tool->effects(), ToolEffects::kRead);
  EXPECT_EQ(tool->timeout().count(), 250);
  EXPECT_EQ(tool->input_schema().document(), listed.at("inputSchema"));
  EXPECT_EQ(tool->output_schema().document(), listed.at("outputSchema"));
}

TEST(DownstreamToolsTest, WithoutReadOnlyHintAToolWrites) {
  Result<Tool> tool = downstream_tool(client(), Json::parse(R"({"name":"w","inputSchema":{}})"));
  ASSERT_TRUE(tool.ok());
  EXPECT_EQ(tool->effects(), ToolEffects::kWrite);
  EXPECT_EQ(tool->description(), "The MCP tool srv.w.");
}

TEST(DownstreamToolsTest, AToolWhoseNameMakesNoIdIsRefused) {
  EXPECT_FALSE(downstream_tool(client(), Json::parse(R"({"name":"a b"})")).ok());
  EXPECT_FALSE(downstream_tool(client(), Json::parse(R"({"title":"no name"})")).ok());
}

TEST(DownstreamToolsTest, AToolWithASchemaThatDoesNotCompileIsRefused) {
  EXPECT_FALSE(
      downstream_tool(client(), Json::parse(R"({"name":"x","inputSchema":{"$ref":"http://e/x"}})"))
          .ok());
}

TEST(DownstreamToolsTest, StructuredContentIsTheOutput) {
  EXPECT_EQ(downstream_output(Json::parse(
                R"({"content":[{"type":"text","text":"ignored"}],"structuredContent":{"a":1}})")),
            Json({{"a", 1}}));
}

TEST(DownstreamToolsTest, JsonTextIsParsedAndOtherTextKept) {
  EXPECT_EQ(downstream_output(Json::parse(R"({"content":[{"type":"text","text":"[1,2]"}]})")),
            Json::parse("[1,2]"));
  EXPECT_EQ(downstream_output(Json::parse(R"({"content":[{"type":"text","text":"Echo: hi"}]})")),
            Json("Echo: hi"));
  EXPECT_EQ(downstream_output(Json::parse(R"({"content":[]})")), Json(nullptr));
}

TEST(DownstreamToolsTest, NonTextContentIsCarriedAsTheBlocksThemselves) {
  const Json mixed = Json::parse(
      R"([{"type":"text","text":"a chart"},{"type":"image","data":"AA==","mimeType":"image/png"}])");
  EXPECT_EQ(downstream_output(Json{{"content", mixed}}), Json({{"content", mixed}}));
}

TEST(DownstreamToolsTest, ContentBlocksAreFoundOnlyInTheNonTextShape) {
  const Json mixed = Json::parse(
      R"([{"type":"text","text":"a chart"},{"type":"image","data":"AA==","mimeType":"image/png"}])");
  EXPECT_EQ(content_blocks_of(*downstream_output(Json{{"content", mixed}})), mixed);
  // All text (it can only be structuredContent), untyped blocks, other keys: an ordinary value.
  const Json text_only = Json::parse(R"([{"type":"text","text":"t"}])");
  EXPECT_FALSE(content_blocks_of(Json{{"content", text_only}}).has_value());
  EXPECT_FALSE(content_blocks_of(Json{{"content", Json::parse(R"([{"type":3},{"type":"image"}])")}})
                   .has_value());
  EXPECT_FALSE(content_blocks_of(Json{{"content", mixed}, {"more", 1}}).has_value());
  EXPECT_FALSE(content_blocks_of(Json{{"content", "image"}}).has_value());
  EXPECT_FALSE(content_blocks_of(mixed).has_value());
}

// Only a downstream tool's result becomes blocks: a host tool returning the same JSON keeps it as
// structuredContent, since its output is a value, not MCP content.
TEST(DownstreamToolsTest, DirectModeReturnsADownstreamsBlocksAsTheResultsContent) {
  const Json blocks = Json::parse(R"([{"type":"image","data":"AA==","mimeType":"image/png"}])");
  const ToolOutcome outcome = ToolOutcome::succeeded(Json{{"content", blocks}});
  Result<Tool> tool = downstream_tool(client(), Json::parse(R"({"name":"img"})"));
  ASSERT_TRUE(tool.ok());
  const Json downstream =
      call_tool_result(outcome, CatalogEntry{.tool = *tool, .origin = ToolOrigin::kDownstream});
  EXPECT_EQ(downstream, (Json{{"content", blocks}, {"isError", false}}));
  const Json host = call_tool_result(outcome, CatalogEntry{.tool = *tool});
  EXPECT_EQ(host.at("structuredContent"), Json({{"content", blocks}}));
}

// What a downstream sends is its choice: a field of the wrong type is read safely, never thrown on.
TEST(DownstreamToolsTest, FieldsOfTheWrongTypeAreReadSafely) {
  EXPECT_FALSE(downstream_output(Json::parse(R"({"isError":"yes","content":[]})")).has_value());
  EXPECT_EQ(
      downstream_output(Json::parse(R"({"content":[{"type":5},{"type":"text","text":"1"}]})")),
      Json::parse(R"({"content":[{"type":5},{"type":"text","text":"1"}]})"));
  EXPECT_FALSE(content_blocks_of(Json::parse(R"({"content":[{"type":5}]})")).has_value());
  Result<Tool> tool = downstream_tool(
      client(), Json::parse(R"({"name":"w","annotations":{"readOnlyHint":"yes"}})"));
  ASSERT_TRUE(tool.ok());
  EXPECT_EQ(tool->effects(), ToolEffects::kWrite);
  Result<Tool> odd = downstream_tool(client(), Json::parse(R"({"name":"w","annotations":"x"})"));
  ASSERT_TRUE(odd.ok());
  EXPECT_EQ(odd->effects(), ToolEffects::kWrite);
}

TEST(DownstreamToolsTest, IsErrorOrAMalformedResultIsNoOutput) {
  EXPECT_FALSE(
      downstream_output(Json::parse(R"({"isError":true,"content":[{"type":"text","text":"x"}]})"))
          .has_value());
  EXPECT_FALSE(downstream_output(Json::parse(R"({"content":3})")).has_value());
  EXPECT_FALSE(downstream_output(Json(1)).has_value());
}

TEST(DownstreamToolsTest, AServerThatCannotStartFailsTheListing) {
  // /bin/true exits at once: the handshake cannot complete.
  Result<DownstreamTools> tools = load_downstream_tools(client());
  ASSERT_FALSE(tools.ok());
  EXPECT_EQ(tools.error().rule, "downstream_handshake");
}

}  // namespace
}  // namespace codemode::mcp
