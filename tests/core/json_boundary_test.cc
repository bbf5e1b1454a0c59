// Contract tests for parse_json, check_json and serialize_json (codemode/json.h).
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "support/timing.h"

namespace codemode {
namespace {

// n nested arrays around `inner`: the innermost value sits at depth n.
std::string nested_arrays(int n, const std::string& inner) {
  return std::string(static_cast<std::size_t>(n), '[') + inner +
         std::string(static_cast<std::size_t>(n), ']');
}

Json nested_value(int n) {
  Json value = 1;
  for (int i = 0; i < n; ++i) value = Json::array({std::move(value)});
  return value;
}

void expect_refused(const Error& error, std::string_view rule) {
  EXPECT_EQ(error.code, ErrorCode::kInvalidJson);
  EXPECT_EQ(error.rule, rule);
}

void expect_parse_refused(std::string_view text, std::string_view rule,
                          const JsonLimits& limits = {}) {
  Result<Json> parsed = parse_json(text, limits);
  ASSERT_FALSE(parsed.ok()) << "accepted: " << text.substr(0, 80);
  expect_refused(parsed.error(), rule);
}

TEST(ParseJson, AcceptsPlainDocument) {
  Result<Json> parsed = parse_json(R"( {"a": [1, 2.5, "x", true, null, {}], "b": -0} )");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, Json::parse(R"({"a":[1,2.5,"x",true,null,{}],"b":0})"));
}

TEST(ParseJson, RefusesSyntaxErrorsWithoutEchoingText) {
  Result<Json> parsed = parse_json(R"({"secret-token": 1,})");
  ASSERT_FALSE(parsed.ok());
  expect_refused(parsed.error(), "json_syntax");
  EXPECT_EQ(parsed.error().message, "The text is not one valid JSON document.");
  expect_parse_refused("", "json_syntax");
  expect_parse_refused("1 2", "json_syntax");
  expect_parse_refused("[1,]", "json_syntax");
  expect_parse_refused("{\"a\":1 // c\n}", "json_syntax");
  expect_parse_refused("NaN", "json_syntax");
}

TEST(ParseJson, DepthThirtyTwoIsAcceptedAndThirtyThreeRefused) {
  EXPECT_TRUE(parse_json(nested_arrays(32, "1")).ok());
  EXPECT_TRUE(parse_json(nested_arrays(33, "")).ok());  // innermost empty array at depth 32
  Result<Json> parsed = parse_json(nested_arrays(33, "1"));
  ASSERT_FALSE(parsed.ok());
  expect_refused(parsed.error(), "json_depth_limit");
  EXPECT_EQ(parsed.error().message, "The JSON value is deeper than 32 levels.");
}

TEST(ParseJson, ObjectsCountTowardDepthLikeArrays) {
  std::string text = "1";
  for (int i = 0; i < 33; ++i) text = "{\"k\":" + text + "}";
  expect_parse_refused(text, "json_depth_limit");
  JsonLimits shallow{.max_depth = 0};
  EXPECT_TRUE(parse_json("7", shallow).ok());
  expect_parse_refused("[]", "json_depth_limit", JsonLimits{.max_depth = -1});
  expect_parse_refused("[1]", "json_depth_limit", shallow);
}

TEST(ParseJson, MillionDeepArrayIsRefusedQuickly) {
  const std::string text = nested_arrays(1'000'000, "");
  const auto start = std::chrono::steady_clock::now();
  expect_parse_refused(text, "json_depth_limit");
  EXPECT_LT(std::chrono::steady_clock::now() - start, testing::slack(std::chrono::seconds(1)));
  expect_parse_refused(std::string(1'000'000, '['), "json_depth_limit");
}

TEST(ParseJson, HundredThousandValuesAreAcceptedAndOneMoreRefused) {
  // The root array plus 99,999 elements is 100,000 values.
  std::string text = "[0";
  for (int i = 1; i < 99'999; ++i) text += ",0";
  EXPECT_TRUE(parse_json(text + "]").ok());
  Result<Json> parsed = parse_json(text + ",0]");
  ASSERT_FALSE(parsed.ok());
  expect_refused(parsed.error(), "json_values_limit");
  EXPECT_EQ(parsed.error().message, "The JSON value has more than 100000 values.");
}

TEST(ParseJson, KeysDoNotCountAsValues) {
  JsonLimits limits{.max_values = 3};
  EXPECT_TRUE(parse_json(R"({"a":1,"b":2})", limits).ok());
  expect_parse_refused(R"({"a":1,"b":2,"c":3})", "json_values_limit", limits);
}

TEST(ParseJson, CompactSizeAtLimitIsAcceptedAndOneMoreRefused) {
  // ["xxxx"] with n x's is n + 4 bytes compact.
  JsonLimits limits{.max_bytes = 100};
  EXPECT_TRUE(parse_json("[ \"" + std::string(96, 'x') + "\" ]", limits).ok());
  Result<Json> parsed = parse_json("[\"" + std::string(97, 'x') + "\"]", limits);
  ASSERT_FALSE(parsed.ok());
  expect_refused(parsed.error(), "json_bytes_limit");
  EXPECT_EQ(parsed.error().message, "The JSON value is larger than 100 bytes.");
}

TEST(ParseJson, CompactSizeCountsEscapesAsJsonStringifyWritesThem) {
  // "\u0041" is written back as "A" (3 bytes); "\u0001" as "\u0001" (8 bytes).
  EXPECT_TRUE(parse_json(R"("\u0041")", JsonLimits{.max_bytes = 3}).ok());
  expect_parse_refused(R"("\u0001")", "json_bytes_limit", JsonLimits{.max_bytes = 7});
  EXPECT_TRUE(parse_json(R"("\u0001")", JsonLimits{.max_bytes = 8}).ok());
  // 1.50e1 is written back as 15.
  EXPECT_TRUE(parse_json("1.50e1", JsonLimits{.max_bytes = 2}).ok());
  EXPECT_TRUE(parse_json(R"({"ab" : [ true , null ]})", JsonLimits{.max_bytes = 18}).ok());
  expect_parse_refused(R"({"ab":[true,null]})", "json_bytes_limit", JsonLimits{.max_bytes = 17});
}

TEST(ParseJson, RawTextBeyondFourTimesLimitPlusSlackIsRefusedUnread) {
  JsonLimits limits{.max_bytes = 10};
  const std::size_t max_text = 4 * 10 + 64 * 1024;
  EXPECT_TRUE(parse_json("1" + std::string(max_text - 1, ' '), limits).ok());
  Result<Json> parsed = parse_json("1" + std::string(max_text, ' '), limits);
  ASSERT_FALSE(parsed.ok());
  expect_refused(parsed.error(), "json_bytes_limit");
  EXPECT_EQ(parsed.error().message,
            "The JSON text is longer than 65576 bytes before whitespace is removed.");
}

TEST(ParseJson, DuplicateKeysAreRefused) {
  Result<Json> parsed = parse_json(R"({"a":1,"b":{"c":1,"c":2}})");
  ASSERT_FALSE(parsed.ok());
  expect_refused(parsed.error(), "json_key");
  EXPECT_EQ(parsed.error().message, "A JSON object has a duplicate key.");
}

TEST(ParseJson, PrototypeKeysAreRefused) {
  for (const char* key : {"__proto__", "constructor", "prototype"}) {
    expect_parse_refused(std::string(R"({"x":{")") + key + R"(":1}})", "json_key");
  }
  EXPECT_TRUE(parse_json(R"({"proto":1,"Constructor":2,"__proto":3})").ok());
  EXPECT_TRUE(parse_json(R"(["__proto__"])").ok());  // only keys reach a prototype
}

TEST(ParseJson, InvalidUtf8IsRefused) {
  expect_parse_refused("\"\xff\"", "json_string");
  expect_parse_refused("\"\xc0\x80\"", "json_string");          // overlong NUL
  expect_parse_refused("\"\xed\xa0\x80\"", "json_string");      // encoded surrogate U+D800
  expect_parse_refused("\"\xf4\x90\x80\x80\"", "json_string");  // above U+10FFFF
  expect_parse_refused("{\"\xe2\x82\":1}", "json_string");      // truncated key
  EXPECT_EQ(parse_json("\"\xff\"").error().message, "A JSON string is not valid UTF-8.");
  EXPECT_TRUE(parse_json("\"\xf0\x9f\x98\x80 \xe2\x82\xac\"").ok());
}

TEST(ParseJson, LoneSurrogateEscapesAreRefused) {
  expect_parse_refused(R"("\ud800")", "json_syntax");
  expect_parse_refused(R"("\udc00x")", "json_syntax");
  Result<Json> pair = parse_json(R"("\ud83d\ude00")");
  ASSERT_TRUE(pair.ok());
  EXPECT_EQ(pair->get<std::string>(), "\xf0\x9f\x98\x80");
}

TEST(ParseJson, SafeIntegersAreAcceptedAndLargerIntegersRefused) {
  EXPECT_TRUE(parse_json("9007199254740991").ok());
  EXPECT_TRUE(parse_json("-9007199254740991").ok());
  EXPECT_TRUE(parse_json("9007199254740991.0").ok());
  for (const char* text :
       {"9007199254740992", "-9007199254740992", "18446744073709551615", "-9223372036854775809",
        "1e300", "-1e16", "9007199254740992.0", "100000000000000000000000"}) {
    expect_parse_refused(text, "json_number");
  }
  EXPECT_EQ(parse_json("1e300").error().message,
            "A JSON number is an integer beyond 2^53 - 1 in magnitude.");
}

// JavaScript has one number type: 2.0 is the integer 2, and JSON.stringify writes it as "2".
TEST(ParseJson, StoresIntegralNumbersAsIntegers) {
  Result<Json> parsed = parse_json("[2.0, -0.0, 1e2, 2.5, -3e0]");
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE((*parsed)[0].is_number_integer());
  EXPECT_TRUE((*parsed)[1].is_number_integer());
  EXPECT_EQ((*parsed)[2], Json(100));
  EXPECT_TRUE((*parsed)[2].is_number_integer());
  EXPECT_TRUE((*parsed)[3].is_number_float());
  EXPECT_EQ(*serialize_json(*parsed), "[2,0,100,2.5,-3]");
}

TEST(ParseJson, NonFiniteNumbersAreRefused) {
  expect_parse_refused("1e400", "json_number");
  expect_parse_refused("-1e400", "json_number");
  EXPECT_EQ(parse_json("1e400").error().message, "A JSON number is not finite.");
  EXPECT_TRUE(parse_json("1e-400").ok());  // underflows to 0
  EXPECT_TRUE(parse_json("1.5e-300").ok());
}

TEST(CheckJson, ReturnsTheSerializedSize) {
  const Json value = Json::parse(R"({"a":[1,2.5,"\n\u0001",true,null],"b":{"c":-0.0}})");
  Result<std::size_t> size = check_json(value);
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, serialize_json(value)->size());
  EXPECT_EQ(*size, std::string(R"({"a":[1,2.5,"\n\u0001",true,null],"b":{"c":0}})").size());
}

TEST(CheckJson, DepthAndValueLimitsMatchParseJson) {
  EXPECT_TRUE(check_json(nested_value(32)).ok());
  expect_refused(check_json(nested_value(33)).error(), "json_depth_limit");
  Json values = Json::array();
  for (int i = 0; i < 99'999; ++i) values.push_back(0);
  EXPECT_TRUE(check_json(values).ok());
  values.push_back(0);
  expect_refused(check_json(values).error(), "json_values_limit");
}

TEST(CheckJson, MillionDeepValueIsRefusedWithoutRecursion) {
  const Json deep = nested_value(1'000'000);
  expect_refused(check_json(deep).error(), "json_depth_limit");
}

TEST(CheckJson, OversizedContainerIsRefusedBeforeItIsWalked) {
  Json wide(Json::value_t::array);
  wide.get_ref<Json::array_t&>().resize(1'000'000);
  const auto start = std::chrono::steady_clock::now();
  expect_refused(check_json(wide).error(), "json_values_limit");
  EXPECT_LT(std::chrono::steady_clock::now() - start,
            testing::slack(std::chrono::milliseconds(500)));
}

TEST(CheckJson, StopsAtTheByteLimit) {
  const Json big(std::string(1u << 20, 'x'));
  Result<std::size_t> size = check_json(big);
  ASSERT_FALSE(size.ok());
  expect_refused(size.error(), "json_bytes_limit");
  EXPECT_EQ(size.error().message, "The JSON value is larger than 1048576 bytes.");
  EXPECT_EQ(*check_json(Json(std::string((1u << 20) - 2, 'x'))), 1u << 20);
  JsonLimits limits{.max_bytes = 5};
  EXPECT_EQ(*check_json(Json::parse("[1,2]"), limits), 5u);
  expect_refused(check_json(Json::parse("[1,22]"), limits).error(), "json_bytes_limit");
}

TEST(CheckJson, RefusesWhatCxxCodeCanBuildButJsonCannotHold) {
  expect_refused(check_json(Json(std::nan(""))).error(), "json_number");
  expect_refused(check_json(Json(std::numeric_limits<double>::infinity())).error(), "json_number");
  expect_refused(check_json(Json(1e300)).error(), "json_number");
  expect_refused(check_json(Json(std::numeric_limits<std::uint64_t>::max())).error(),
                 "json_number");
  expect_refused(check_json(Json(std::numeric_limits<std::int64_t>::min())).error(), "json_number");
  expect_refused(check_json(Json::binary({1, 2, 3})).error(), "json_syntax");
  expect_refused(check_json(Json(Json::value_t::discarded)).error(), "json_syntax");
  expect_refused(check_json(Json("\xc3")).error(), "json_string");
  expect_refused(check_json(Json{{"\xc3", 1}}).error(), "json_string");
  expect_refused(check_json(Json{{"constructor", 1}}).error(), "json_key");
  expect_refused(check_json(Json::array({Json{{"ok", {{"prototype", 1}}}}})).error(), "json_key");
}

TEST(SerializeJson, WritesStringsAsJsonStringify) {
  const Json value = std::string("\"\\/\b\f\n\r\t\x01\x1f\x7f \xe2\x80\xa8 \xf0\x9f\x98\x80");
  Result<std::string> text = serialize_json(value);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0001\\u001f\x7f \xe2\x80\xa8 \xf0\x9f\x98\x80\"");
  EXPECT_EQ(*serialize_json(Json(std::string("a\0b", 3))), R"("a\u0000b")");
}

TEST(SerializeJson, WritesNumbersAsJsonStringify) {
  const std::pair<Json, std::string> cases[] = {
      {Json(-0.0), "0"},
      {Json(0.0), "0"},
      {Json(5.0), "5"},
      {Json(-1.5), "-1.5"},
      {Json(0.1 + 0.2), "0.30000000000000004"},
      {Json(1.5e-7), "1.5e-7"},
      {Json(1e-7), "1e-7"},
      {Json(0.000001), "0.000001"},
      {Json(1.25e-6), "0.00000125"},
      {Json(123456.789), "123456.789"},
      {Json(9007199254740991.0), "9007199254740991"},
      {Json(-9007199254740991), "-9007199254740991"},
      {Json(std::uint64_t{42}), "42"},
      {Json(5e-324), "5e-324"},
  };
  for (const auto& [value, expected] : cases) {
    Result<std::string> text = serialize_json(value);
    ASSERT_TRUE(text.ok()) << expected;
    EXPECT_EQ(*text, expected);
  }
}

TEST(SerializeJson, IsCompactAndKeepsJsonKeyOrder) {
  Result<Json> parsed =
      parse_json(R"({ "b" : [ 1 , { } , [ ] ] , "a" : null, "\u00e9": 1, "z": 2 })");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*serialize_json(*parsed), "{\"a\":null,\"b\":[1,{},[]],\"z\":2,\"\xc3\xa9\":1}");
}

TEST(SerializeJson, RoundTripsThroughParseJson) {
  const std::string text = R"({"a":[1,-2.5,"x\n",true,false,null],"b":{"c":1e-7,"d":"\u00e9"}})";
  Result<Json> parsed = parse_json(text);
  ASSERT_TRUE(parsed.ok());
  Result<std::string> written = serialize_json(*parsed);
  ASSERT_TRUE(written.ok());
  EXPECT_EQ(*parse_json(*written), *parsed);
}

TEST(SerializeJson, RefusesWhatCheckJsonRefuses) {
  expect_refused(serialize_json(nested_value(40)).error(), "json_depth_limit");
  expect_refused(serialize_json(Json(std::nan(""))).error(), "json_number");
  Result<std::string> too_big = serialize_json(Json("abcdef"), JsonLimits{.max_bytes = 7});
  ASSERT_FALSE(too_big.ok());
  expect_refused(too_big.error(), "json_bytes_limit");
  EXPECT_EQ(*serialize_json(Json("abcdef"), JsonLimits{.max_bytes = 8}), "\"abcdef\"");
}

}  // namespace
}  // namespace codemode
