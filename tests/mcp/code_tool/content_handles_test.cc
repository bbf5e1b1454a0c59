// The content blocks of one code-tool invocation: each image, audio and resource block a
// downstream tool answers is held and the program sees a handle without its data; a handle the
// result returns, anywhere in it, brings the block back byte for byte; one not returned brings
// nothing; a forged, altered or other invocation's handle is never resolved; the count and byte
// bounds refuse an output whole.
#include "mcp/code_tool/content_handles.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/rules.h"

#include "mcp/catalog/tool_results.h"

namespace codemode::mcp {
namespace {

const Json kImage =
    Json::parse(R"({"type":"image","data":"iVBORw0KGgoAAAANSUhEUg==","mimeType":"image/png"})");
const Json kAudio =
    Json::parse(R"({"type":"audio","data":"UklGRgAAAABXQVZF","mimeType":"audio/wav"})");
const Json kBlob = Json::parse(
    R"({"type":"resource","resource":{"uri":"file:///r.bin","mimeType":"application/pdf","blob":"AAECAw=="}})");
const Json kTextResource = Json::parse(
    R"({"type":"resource","resource":{"uri":"file:///notes.md","mimeType":"text/markdown","text":"# héllo"}})");
const Json kLink = Json::parse(
    R"({"type":"resource_link","uri":"file:///big.csv","name":"big.csv","mimeType":"text/csv"})");
const Json kText = Json::parse(R"({"type":"text","text":"a chart"})");

Json content(const std::vector<Json>& blocks) {
  Json array = Json::array();
  for (const Json& block : blocks) array.push_back(block);
  return Json{{"content", array}};
}

ContentStore store(std::int64_t blocks = 16, std::int64_t bytes = 8 << 20) {
  return ContentStore(blocks, bytes, "abc123");
}

// The handles `store` shows for `output`.
Json held(ContentStore& store, Json output) {
  Result<Json> shown = store.hold(std::move(output));
  EXPECT_TRUE(shown.ok());
  return shown.ok() ? *shown : Json();
}

std::string rule_of(const Result<Json>& result) { return result.ok() ? "ok" : result.error().rule; }

// The code tool's successful answer for `result`, as code_result makes it.
Json answer(const Json& result) {
  const Json structured{{"result", result}};
  return Json{{"content", Json::array({{{"type", "text"}, {"text", json_text(structured)}}})},
              {"structuredContent", structured},
              {"isError", false}};
}

TEST(ContentStoreTest, AnImageBecomesAHandleWithItsTypeMimeTypeAndSizeAndNoData) {
  ContentStore contents = store();
  const Json shown = held(contents, content({kText, kImage}));
  EXPECT_EQ(shown, Json::parse(R"({"content":[{"type":"text","text":"a chart"},
      {"$codemode":"content","handle":"c1-abc123","type":"image","mimeType":"image/png",
       "bytes":16}]})"));
  EXPECT_EQ(contents.held_blocks(), 1);
  EXPECT_EQ(contents.held_bytes(), static_cast<std::int64_t>(json_text(kImage).size()));
}

TEST(ContentStoreTest, EachKindOfBlockHasItsHandle) {
  ContentStore contents = store();
  const Json shown = held(contents, content({kAudio, kBlob, kTextResource, kLink}));
  EXPECT_EQ(shown.at("content"), Json::parse(R"([
      {"$codemode":"content","handle":"c1-abc123","type":"audio","mimeType":"audio/wav",
       "bytes":12},
      {"$codemode":"content","handle":"c2-abc123","type":"resource","uri":"file:///r.bin",
       "mimeType":"application/pdf","bytes":4},
      {"$codemode":"content","handle":"c3-abc123","type":"resource","uri":"file:///notes.md",
       "mimeType":"text/markdown","bytes":8,"text":"# héllo"},
      {"$codemode":"content","handle":"c4-abc123","type":"resource_link","uri":"file:///big.csv",
       "name":"big.csv","mimeType":"text/csv","bytes":0}])"));
  EXPECT_EQ(contents.held_blocks(), 4);
}

// The server's blocks are held as they came, however malformed: the handle says what it can.
TEST(ContentStoreTest, AMalformedBlockIsHeldAndItsHandleSaysWhatItCan) {
  ContentStore contents = store();
  const Json shown =
      held(contents, content({Json::parse(R"({"type":"image","data":7})"),
                              Json::parse(R"({"type":"resource","resource":"x"})")}));
  EXPECT_EQ(shown.at("content"), Json::parse(R"([
      {"$codemode":"content","handle":"c1-abc123","type":"image","bytes":0},
      {"$codemode":"content","handle":"c2-abc123","type":"resource","bytes":0}])"));
}

TEST(ContentStoreTest, TextAndOtherOutputsStayAsTheyAre) {
  ContentStore contents = store();
  for (const Json& output :
       {content({kText}), Json{{"content", Json::array({kImage})}, {"more", 1}},
        Json::parse(R"({"image":"AA=="})"), content({Json::parse(R"({"type":"widget"})"), kText}),
        Json("text"), Json(nullptr)}) {
    EXPECT_EQ(held(contents, output), output);
  }
  EXPECT_EQ(contents.held_blocks(), 0);
}

TEST(ContentStoreTest, AReturnedHandleBringsItsBlockBackByteForByte) {
  ContentStore contents = store();
  const Json shown = held(contents, content({kText, kImage, kLink}));
  const Json image = shown.at("content").at(1);
  const Json link = shown.at("content").at(2);
  // Anywhere in the result, in order of first appearance, each block once.
  const Json result{{"summary", "two"}, {"items", Json::array({link, {{"chart", image}}, link})}};
  const ReturnedContent returned = contents.returned_in(result);
  ASSERT_EQ(returned.blocks.size(), 2u);
  EXPECT_EQ(json_text(returned.blocks[0]), json_text(kLink));
  EXPECT_EQ(json_text(returned.blocks[1]), json_text(kImage));
  EXPECT_EQ(returned.unresolved, 0u);
}

TEST(ContentStoreTest, AHandleNotReturnedBringsNothing) {
  ContentStore contents = store();
  (void)held(contents, content({kImage}));
  const Json result = answer(Json{{"bytes", 16}, {"type", "image"}});
  EXPECT_EQ(with_returned_content(result, contents), result);
}

TEST(ContentStoreTest, AForgedOrForeignHandleIsNeverResolved) {
  ContentStore contents = store();
  ContentStore other(16, 8 << 20, "def456");
  (void)held(contents, content({kImage}));
  const Json foreign = held(other, content({kAudio})).at("content").at(0);
  EXPECT_EQ(foreign.at("handle"), "c1-def456");
  for (const char* handle : {"c1-def456", "c2-abc123", "c0-abc123", "c01-abc123", "c1-abc1234",
                             "c1", "x1-abc123", "c-abc123", ""}) {
    const Json forged{{kHandleMarker, kHandleKind}, {"handle", handle}, {"type", "image"}};
    const ReturnedContent returned = contents.returned_in(Json::array({forged}));
    EXPECT_TRUE(returned.blocks.empty()) << handle;
    EXPECT_EQ(returned.unresolved, 1u) << handle;
  }
  EXPECT_EQ(contents.returned_in(Json{{kHandleMarker, kHandleKind}, {"handle", 1}}).unresolved, 1u);
  // The other store's block stays its own.
  EXPECT_EQ(other.returned_in(foreign).blocks, std::vector<Json>{kAudio});
}

TEST(ContentStoreTest, PastTheBlockCountAnOutputIsRefusedWhole) {
  ContentStore contents = store(3);
  (void)held(contents, content({kImage, kAudio}));
  const Result<Json> refused = contents.hold(content({kLink, kLink}));
  EXPECT_EQ(rule_of(refused), rules::kContentBlocksLimit);
  EXPECT_EQ(refused.error().code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(refused.error().message, "content-block budget exhausted");
  EXPECT_EQ(contents.held_blocks(), 2);
  EXPECT_EQ(rule_of(contents.hold(content({kLink}))), "ok");
  EXPECT_EQ(rule_of(store(0).hold(content({kLink}))), rules::kContentBlocksLimit);
}

TEST(ContentStoreTest, PastTheByteBoundAnOutputIsRefusedWhole) {
  const auto image_bytes = static_cast<std::int64_t>(json_text(kImage).size());
  ContentStore contents = store(16, 2 * image_bytes + 1);
  (void)held(contents, content({kImage}));
  const Result<Json> refused = contents.hold(content({kImage, kImage}));
  EXPECT_EQ(rule_of(refused), rules::kContentBytesLimit);
  EXPECT_EQ(refused.error().message, "content-byte budget exhausted");
  EXPECT_EQ(contents.held_bytes(), image_bytes);
  EXPECT_EQ(rule_of(contents.hold(content({kImage}))), "ok");
  EXPECT_EQ(rule_of(contents.hold(content({kImage}))), rules::kContentBytesLimit);
}

TEST(ContentStoreTest, ReleasedBlocksGiveTheirRoomBackAndResolveNoMore) {
  ContentStore contents = store(1);
  const Json shown = held(contents, content({kImage}));
  contents.release(shown);
  contents.release(shown);
  EXPECT_EQ(contents.held_blocks(), 0);
  EXPECT_EQ(contents.held_bytes(), 0);
  EXPECT_EQ(contents.returned_in(shown).unresolved, 1u);
  EXPECT_EQ(held(contents, content({kAudio})).at("content").at(0).at("handle"), "c2-abc123");
}

TEST(ContentStoreTest, ReturnedBlocksFollowTheResultsTextAndUnresolvedOnesAreNoted) {
  ContentStore contents = store();
  const Json image = held(contents, content({kImage})).at("content").at(0);
  const Json forged{{kHandleMarker, kHandleKind}, {"handle", "c9-abc123"}};
  const Json result = answer(Json::array({image, forged, forged}));
  const Json shown = with_returned_content(result, contents);
  ASSERT_EQ(shown.at("content").size(), 3u);
  EXPECT_EQ(shown.at("content").at(0), result.at("content").at(0));
  EXPECT_EQ(shown.at("content").at(1), kImage);
  EXPECT_EQ(shown.at("content").at(2).at("text"),
            "codemode: 2 content handle(s) in the result name no image, audio or resource of this "
            "invocation (a handle lives only in the invocation that made it); nothing was "
            "attached for them.");
  EXPECT_EQ(shown.at("structuredContent"), result.at("structuredContent"));
  // An error result is never touched.
  Json failed = tool_error_result("code_rejected", "boom");
  EXPECT_EQ(with_returned_content(failed, contents), failed);
}

}  // namespace
}  // namespace codemode::mcp
