// Contract tests for canonical_json (RFC 8785, JCS) and the ECMAScript number form it relies on.
#include <bit>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "core/json/json_text.h"

namespace codemode {
namespace {

std::string canonical(std::string_view text) {
  Result<Json> parsed = parse_json(text);
  EXPECT_TRUE(parsed.ok()) << text;
  if (!parsed.ok()) return {};
  Result<std::string> written = canonical_json(*parsed);
  EXPECT_TRUE(written.ok());
  return written.ok() ? *written : std::string();
}

std::string es_number(std::uint64_t bits) {
  return std::string(internal::format_number(std::bit_cast<double>(bits)).view());
}

// RFC 8785 appendix B: IEEE 754 bit patterns and their ECMAScript text.
TEST(CanonicalNumbers, MatchRfc8785AppendixB) {
  const std::pair<std::uint64_t, std::string_view> cases[] = {
      {0x0000000000000000, "0"},
      {0x8000000000000000, "0"},
      {0x0000000000000001, "5e-324"},
      {0x8000000000000001, "-5e-324"},
      {0x7fefffffffffffff, "1.7976931348623157e+308"},
      {0xffefffffffffffff, "-1.7976931348623157e+308"},
      {0x4340000000000000, "9007199254740992"},
      {0xc340000000000000, "-9007199254740992"},
      {0x4430000000000000, "295147905179352830000"},
      {0x44b52d02c7e14af5, "9.999999999999997e+22"},
      {0x44b52d02c7e14af6, "1e+23"},
      {0x44b52d02c7e14af7, "1.0000000000000001e+23"},
      {0x444b1ae4d6e2ef4e, "999999999999999700000"},
      {0x444b1ae4d6e2ef4f, "999999999999999900000"},
      {0x444b1ae4d6e2ef50, "1e+21"},
      {0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
      {0x3eb0c6f7a0b5ed8d, "0.000001"},
      {0x41b3de4355555553, "333333333.3333332"},
      {0x41b3de4355555554, "333333333.33333325"},
      {0x41b3de4355555555, "333333333.3333333"},
      {0x41b3de4355555556, "333333333.3333334"},
      {0x41b3de4355555557, "333333333.33333343"},
      {0xbecbf647612f3696, "-0.0000033333333333333333"},
      {0x43143ff3c1cb0959, "1424953923781206.2"},
  };
  for (const auto& [bits, expected] : cases) EXPECT_EQ(es_number(bits), expected) << bits;
}

// RFC 8785 section 3.2.2.3's numbers, written by the formatter directly (1e30 is an integer
// beyond 2^53 - 1, which the boundary refuses, so it never reaches canonical_json).
TEST(CanonicalNumbers, MatchRfc8785Section3223) {
  EXPECT_EQ(internal::format_number(333333333.33333329).view(), "333333333.3333333");
  EXPECT_EQ(internal::format_number(1e30).view(), "1e+30");
  EXPECT_EQ(internal::format_number(4.50).view(), "4.5");
  EXPECT_EQ(internal::format_number(2e-3).view(), "0.002");
  EXPECT_EQ(internal::format_number(0.000000000000000000000000001).view(), "1e-27");
  EXPECT_EQ(internal::format_number(1e21).view(), "1e+21");
  EXPECT_EQ(internal::format_number(1e20).view(), "100000000000000000000");
  EXPECT_EQ(internal::format_number(123e-20).view(), "1.23e-18");
  EXPECT_EQ(internal::format_number(-1.5e-7).view(), "-1.5e-7");
}

TEST(CanonicalJson, MatchesRfc8785Section3223Example) {
  const std::string input = R"({
    "numbers": [333333333.33333329, 4.50, 2e-3, 0.000000000000000000000000001],
    "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
    "literals": [null, true, false]
  })";
  EXPECT_EQ(canonical(input),
            "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,4.5,0.002,1e-27],"
            "\"string\":\"\xe2\x82\xac$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
}

// RFC 8785 section 3.2.3: the emoji (surrogates D83D DE00) sorts before U+FB33 in UTF-16 order,
// although its UTF-8 bytes (F0 ...) sort after U+FB33's (EF ...).
TEST(CanonicalJson, SortsKeysByUtf16CodeUnits) {
  const std::string input = R"({"\u20ac": "Euro Sign", "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face", "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"})";
  EXPECT_EQ(canonical(input),
            "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\xc2\x80\":\"Control\","
            "\"\xc3\xb6\":\"Latin Small Letter O With Diaeresis\",\"\xe2\x82\xac\":\"Euro Sign\","
            "\"\xf0\x9f\x98\x80\":\"Emoji: Grinning Face\","
            "\"\xef\xac\xb3\":\"Hebrew Letter Dalet With Dagesh\"}");
  // serialize_json keeps Json's byte order, where the emoji comes last.
  Result<Json> parsed = parse_json(R"({"\ufb33":1,"\ud83d\ude00":2})");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*serialize_json(*parsed), "{\"\xef\xac\xb3\":1,\"\xf0\x9f\x98\x80\":2}");
  EXPECT_EQ(*canonical_json(*parsed), "{\"\xf0\x9f\x98\x80\":2,\"\xef\xac\xb3\":1}");
}

TEST(CanonicalJson, SortsNestedObjectsAndPrefixesFirst) {
  EXPECT_EQ(canonical(R"([56, {"d": true, "10": null, "1": [], "": 0}])"),
            R"([56,{"":0,"1":[],"10":null,"d":true}])");
  EXPECT_EQ(canonical(R"({"b":{"y":1,"x":{"q":1,"p":2}},"a":2})"),
            R"({"a":2,"b":{"x":{"p":2,"q":1},"y":1}})");
}

TEST(CanonicalJson, OrdersSupplementaryCharactersAmongThemselvesByCodePoint) {
  EXPECT_TRUE(internal::utf16_less("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x81"));  // U+1F600 < U+1F601
  EXPECT_TRUE(internal::utf16_less("\xf0\x90\x80\x80", "\xf3\xb0\x80\x80"));  // U+10000 < U+F0000
  EXPECT_TRUE(internal::utf16_less("\xf0\x90\x80\x80", "\xee\x80\x80"));      // U+10000 < U+E000
  EXPECT_FALSE(internal::utf16_less("\xee\x80\x80", "\xf0\x90\x80\x80"));
  EXPECT_TRUE(internal::utf16_less("\xed\x9f\xbf", "\xf0\x90\x80\x80"));  // U+D7FF < U+10000
  EXPECT_FALSE(internal::utf16_less("a", "a"));
  EXPECT_TRUE(internal::utf16_less("a", "ab"));
}

TEST(CanonicalJson, RefusesWhatCheckJsonRefuses) {
  Result<std::string> refused = canonical_json(Json{{"prototype", 1}});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().rule, "json_key");
  EXPECT_EQ(canonical_json(Json(1e30)).error().rule, "json_number");
}

TEST(CanonicalJson, DigestIsStableAcrossKeyInsertionOrder) {
  Json a = Json::object();
  a["z"] = 1;
  a["a"] = Json::array({1.5, "x"});
  const Json b = Json::parse(R"({"a":[1.5,"x"],"z":1})");
  EXPECT_EQ(sha256_hex(*canonical_json(a)), sha256_hex(*canonical_json(b)));
  EXPECT_EQ(*canonical_json(a), R"({"a":[1.5,"x"],"z":1})");
}

}  // namespace
}  // namespace codemode
