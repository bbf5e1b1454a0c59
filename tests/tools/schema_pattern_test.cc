// Contract tests for regular expressions in schemas ("pattern", "patternProperties" and patterns
// under "propertyNames"): evaluated with RE2 in linear time, compiled once at Schema::compile, and
// refused there, with rule "schema_pattern", when RE2 cannot evaluate them.
#include <string>

#include <gtest/gtest.h>

#include "codemode/schema.h"

namespace codemode {
namespace {

Schema compile(const Json& document) {
  Result<Schema> schema = Schema::compile(document);
  EXPECT_TRUE(schema.ok()) << document.dump() << ": "
                           << (schema.ok() ? "" : schema.error().message);
  return schema.ok() ? *schema : Schema::any();
}

// "abab...": `length` characters matching ^(a|b)*$.
std::string alternating(std::size_t length) {
  std::string text(length, 'a');
  for (std::size_t i = 1; i < length; i += 2) text[i] = 'b';
  return text;
}

// The refusal for `document`, which must be INVALID_CONFIG / schema_pattern.
std::string refusal(const Json& document) {
  Result<Schema> schema = Schema::compile(document);
  EXPECT_FALSE(schema.ok());
  if (schema.ok()) return {};
  EXPECT_EQ(schema.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(schema.error().rule, "schema_pattern");
  return schema.error().message;
}

// Regression: std::regex recursed once per character; "^(a|b)*$" against 100,000 characters
// overflowed an 8 MiB stack and crashed the host process.
TEST(SchemaPattern, LongStringsAgainstAStarredAlternationAnswerCorrectly) {
  const Schema schema = compile(Json{{"type", "string"}, {"pattern", "^(a|b)*$"}});
  for (const std::size_t length : {100'000, 1'000'000}) {
    EXPECT_TRUE(schema.validate(Json(alternating(length))).ok()) << length;
    EXPECT_FALSE(schema.validate(Json(alternating(length) + "c")).ok()) << length;
    EXPECT_FALSE(schema.validate(Json("c" + alternating(length))).ok()) << length;
  }
}

TEST(SchemaPattern, LongPropertyNamesAgainstPatternPropertiesAnswerCorrectly) {
  const Schema schema = compile(Json::parse(R"({"patternProperties":{"^(a|b)*$":{"type":"integer"}},
                                                "additionalProperties":false})"));
  for (const std::size_t length : {100'000, 1'000'000}) {
    EXPECT_TRUE(schema.validate(Json{{alternating(length), 1}}).ok()) << length;
    Status wrong_type = schema.validate(Json{{alternating(length), "x"}});
    ASSERT_FALSE(wrong_type.ok());
    // The name is the pointer, cut to 200 bytes.
    EXPECT_EQ(wrong_type.error().message,
              "/" + alternating(length).substr(0, 196) + "...: must be integer");
    EXPECT_FALSE(schema.validate(Json{{alternating(length) + "c", 1}}).ok()) << length;
  }
}

TEST(SchemaPattern, LongPropertyNamesAgainstPropertyNamesAnswerCorrectly) {
  const Schema schema = compile(Json::parse(R"({"propertyNames":{"pattern":"^(a|b)*$"}})"));
  EXPECT_TRUE(schema.validate(Json{{alternating(1'000'000), 1}}).ok());
  EXPECT_FALSE(schema.validate(Json{{alternating(1'000'000) + "c", 1}}).ok());
}

TEST(SchemaPattern, PatternsInsideBranchesKeepTheirMeaning) {
  const Schema schema = compile(
      Json::parse(R"({"anyOf":[{"pattern":"^a"},{"pattern":"b$"}],"not":{"pattern":"^ab$"}})"));
  EXPECT_TRUE(schema.validate(Json("ax")).ok());
  EXPECT_TRUE(schema.validate(Json("xb")).ok());
  EXPECT_FALSE(schema.validate(Json("xx")).ok());
  EXPECT_FALSE(schema.validate(Json("ab")).ok());
}

TEST(SchemaPattern, IgnoresValuesThatAreNotStrings) {
  const Schema schema = compile(Json{{"pattern", "^a"}});
  for (const char* value : {"5", "null", "[\"b\"]", R"({"b":"b"})"}) {
    EXPECT_TRUE(schema.validate(Json::parse(value)).ok()) << value;
  }
}

TEST(SchemaPattern, TypicalPatternsBehaveAsBefore) {
  const Schema schema = compile(Json::parse(R"({"properties":{
      "email":{"pattern":"^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$"},
      "slug":{"pattern":"^[a-z]+$"},
      "word":{"pattern":"^[\\u0400-\\u04FF]+$"}}})"));
  EXPECT_TRUE(
      schema.validate(Json::parse(R"({"email":"ann@example.org","slug":"abc","word":"привет"})"))
          .ok());
  EXPECT_FALSE(schema.validate(Json::parse(R"({"email":"ann@example"})")).ok());
  EXPECT_FALSE(schema.validate(Json::parse(R"({"slug":"ab1"})")).ok());
  EXPECT_FALSE(schema.validate(Json::parse(R"({"word":"hello"})")).ok());
}

TEST(SchemaPattern, RefusesLookaroundAndBackreferencesWithoutEchoingThem) {
  const std::string lookahead = "^(?=.*[0-9])[a-z0-9]+$";
  std::string message = refusal(Json{{"properties", {{"pin", {{"pattern", lookahead}}}}}});
  EXPECT_EQ(message,
            "The schema's pattern at #/properties/pin/pattern uses a lookahead or lookbehind, "
            "which codemode's linear-time matcher (RE2) cannot evaluate.");
  EXPECT_EQ(message.find(lookahead), std::string::npos);

  const std::string backreference = "^(a+)-\\1$";
  message = refusal(Json{{"patternProperties", {{backreference, Json::object()}}}});
  EXPECT_EQ(message,
            "The schema's pattern named in #/patternProperties uses a backreference, which "
            "codemode's linear-time matcher (RE2) cannot evaluate.");
  EXPECT_EQ(message.find("(a+)"), std::string::npos);
}

TEST(SchemaPattern, RefusesPatternsItCannotTranslateOrCompile) {
  EXPECT_EQ(refusal(Json{{"pattern", "a\\Z"}}),
            "The schema's pattern at #/pattern uses an escape that codemode does not translate to "
            "RE2 (see docs/json-and-schemas.md).");
  EXPECT_EQ(refusal(Json{{"pattern", "(?i)abc"}}),
            "The schema's pattern at #/pattern is not a valid ECMA 262 regular expression.");
  const std::string not_re2 =
      "The schema's pattern at #/pattern is not a valid regular expression for RE2 (or needs "
      "more than 1024 KiB to compile).";
  EXPECT_EQ(refusal(Json{{"pattern", "(unclosed"}}), not_re2);
  EXPECT_EQ(refusal(Json{{"pattern", "[z-a]"}}), not_re2);
  EXPECT_EQ(refusal(Json{{"pattern", "a{1001}"}}), not_re2);  // RE2 repeats at most 1000 times
  std::string large;
  for (int i = 0; i < 50'000; ++i) large += "[^a]";
  EXPECT_EQ(refusal(Json{{"pattern", large}}), not_re2);  // over the memory budget
}

// std::regex compiled by recursive descent, so deep nesting was refused; RE2 parses and compiles
// with explicit stacks.
TEST(SchemaPattern, DeeplyNestedGroupsCompileAndMatch) {
  const std::string nested = std::string(100'000, '(') + "a|b" + std::string(100'000, ')') + "$";
  const Schema schema = compile(Json{{"pattern", nested}});
  EXPECT_TRUE(schema.validate(Json("xb")).ok());
  EXPECT_FALSE(schema.validate(Json("bx")).ok());
}

TEST(SchemaPattern, RefusesTooManyDistinctPatterns) {
  Json properties = Json::object();
  for (int i = 0; i < 257; ++i) {
    properties["p" + std::to_string(i)] = Json{{"pattern", "^" + std::to_string(i) + "$"}};
  }
  EXPECT_EQ(refusal(Json{{"properties", properties}}),
            "The schema's pattern at #/properties/p99/pattern is one more than the 256 distinct "
            "patterns a schema may hold.");
  properties.erase("p0");
  compile(Json{{"properties", properties}});
}

TEST(SchemaPattern, CompilesPatternsThatOnlyARefReaches) {
  // "$defs" is not a draft 7 keyword, but valijson reads whatever a $ref points at as a schema.
  const Schema schema =
      compile(Json::parse(R"({"$ref":"#/$defs/a","$defs":{"a":{"pattern":"^(a|b)*$"}}})"));
  EXPECT_TRUE(schema.validate(Json(alternating(100'000))).ok());
  EXPECT_FALSE(schema.validate(Json("abc")).ok());
  EXPECT_EQ(
      refusal(Json::parse(R"json({"$ref":"#/$defs/a","$defs":{"a":{"pattern":"(?=a)"}}})json")),
      "The schema's pattern at #/$defs/a/pattern uses a lookahead or lookbehind, which "
      "codemode's linear-time matcher (RE2) cannot evaluate.");
}

// Regression: "format" was erased only where the schema walk knew subschemas, so a date-time
// format under a $ref target reached valijson's std::regex check, which recurses per character.
TEST(SchemaPattern, FormatsThatOnlyARefReachesAreAnnotationsToo) {
  const Schema schema =
      compile(Json::parse(R"({"$ref":"#/$defs/a","$defs":{"a":{"format":"date-time"}}})"));
  EXPECT_TRUE(schema.validate(Json(std::string(1'000'000, '1'))).ok());
}

}  // namespace
}  // namespace codemode
