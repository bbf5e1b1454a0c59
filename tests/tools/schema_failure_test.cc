// Contract tests for the reasons Schema::validate gives (tools/schema/schema_failure.h): one test
// per keyword family, each naming the JSON Pointer of the failing place and the rule, with the
// schema's limits and never a value from the input; then the pointer's escaping and cap, and which
// failure is the first.
#include <string>

#include <gtest/gtest.h>

#include "codemode/schema.h"

namespace codemode {
namespace {

// A value no message may hold.
constexpr char kSecret[] = "sk-live-0123456789";

Schema compiled(const Json& document) {
  Result<Schema> schema = Schema::compile(document);
  EXPECT_TRUE(schema.ok()) << document.dump() << ": "
                           << (schema.ok() ? "" : schema.error().message);
  return schema.ok() ? *schema : Schema::any();
}

Schema compiled(const char* text) { return compiled(Json::parse(text)); }

// validate's message for `value`, which must fail with INVALID_INPUT / schema and not hold kSecret.
std::string reason(const Schema& schema, const Json& value) {
  Status status = schema.validate(value);
  EXPECT_FALSE(status.ok()) << value.dump();
  if (status.ok()) return {};
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(status.error().rule, "schema");
  EXPECT_EQ(status.error().message.find(kSecret), std::string::npos) << status.error().message;
  return status.error().message;
}

std::string reason(const Schema& schema, const char* value) {
  return reason(schema, Json::parse(value));
}

std::string repeated(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

TEST(SchemaFailure, TypeNamesTheExpectedTypes) {
  const Schema schema = compiled(R"({"properties":{"customerId":{"type":"string"},
      "note":{"type":["string","null"]},"count":{"type":"integer"}}})");
  EXPECT_EQ(reason(schema, R"({"customerId":42})"), "/customerId: must be string");
  EXPECT_EQ(reason(schema, R"({"note":false})"), "/note: must be string or null");
  EXPECT_EQ(reason(schema, R"({"count":1.5})"), "/count: must be integer");
  EXPECT_TRUE(schema.validate(Json::parse(R"({"count":2.0,"note":null})")).ok());
}

TEST(SchemaFailure, RequiredNamesTheFirstMissingPropertyInTheSchemasOrder) {
  const Schema schema = compiled(R"({"required":["customerId","items"],
      "properties":{"address":{"required":["zip"]}}})");
  EXPECT_EQ(reason(schema, R"({"items":[]})"), R"((root): missing required property "customerId")");
  EXPECT_EQ(reason(schema, "{}"), R"((root): missing required property "customerId")");
  EXPECT_EQ(reason(schema, R"({"customerId":1,"items":[],"address":{}})"),
            R"(/address: missing required property "zip")");
}

TEST(SchemaFailure, EnumAndConstNeverNameTheValue) {
  const Schema schema = compiled(R"({"properties":{"status":{"enum":["open","closed"]},
      "kind":{"const":"order"}}})");
  EXPECT_EQ(reason(schema, Json{{"status", kSecret}}),
            "/status: must be one of the allowed values");
  EXPECT_EQ(reason(schema, Json{{"kind", kSecret}}), "/kind: must equal the allowed value (const)");
}

TEST(SchemaFailure, NumberBoundsNameTheSchemasLimit) {
  const Schema schema = compiled(R"({"properties":{"items":{"items":{"properties":{
      "qty":{"type":"integer","minimum":1,"maximum":100},
      "price":{"exclusiveMinimum":0,"exclusiveMaximum":1e6},"step":{"multipleOf":0.25}}}}}})");
  EXPECT_EQ(reason(schema, R"({"items":[{"qty":1},{"qty":5},{"qty":0}]})"),
            "/items/2/qty: must be >= 1");
  EXPECT_EQ(reason(schema, R"({"items":[{"qty":101}]})"), "/items/0/qty: must be <= 100");
  EXPECT_EQ(reason(schema, R"({"items":[{"price":0}]})"), "/items/0/price: must be > 0");
  EXPECT_EQ(reason(schema, R"({"items":[{"price":1000000}]})"),
            "/items/0/price: must be < 1000000");
  EXPECT_EQ(reason(schema, R"({"items":[{"step":0.1}]})"),
            "/items/0/step: must be a multiple of 0.25");
}

TEST(SchemaFailure, StringRulesNeverEchoTheStringOrThePattern) {
  const Schema schema = compiled(R"({"properties":{"code":{"type":"string","minLength":3,
      "maxLength":20,"pattern":"^[A-Z]+$"},"initial":{"maxLength":1}}})");
  EXPECT_EQ(reason(schema, R"({"code":"ab"})"), "/code: must be at least 3 characters long");
  EXPECT_EQ(reason(schema, Json{{"code", std::string(kSecret) + "-too-long"}}),
            "/code: must be at most 20 characters long");
  const std::string pattern = reason(schema, Json{{"code", kSecret}});
  EXPECT_EQ(pattern, "/code: must match the pattern");
  EXPECT_EQ(reason(schema, R"({"initial":"ab"})"), "/initial: must be at most 1 character long");
  // Length counts characters (code points), not bytes.
  EXPECT_TRUE(schema.validate(Json::parse(R"({"initial":"\u00e9"})")).ok());
}

TEST(SchemaFailure, AdditionalPropertiesNamesThePropertyNotItsValue) {
  const Schema schema = compiled(R"({"properties":{"id":{}},"patternProperties":{"^x-":{}},
      "additionalProperties":false})");
  EXPECT_EQ(reason(schema, Json{{"id", 1}, {"x-trace", 2}, {"extra", kSecret}}),
            "/extra: property not allowed (additionalProperties)");
}

TEST(SchemaFailure, ArrayBoundsAndItems) {
  const Schema schema = compiled(R"({"properties":{
      "tags":{"minItems":1,"maxItems":3,"uniqueItems":true},
      "pair":{"items":[{"type":"string"},{"type":"number"}],"additionalItems":false},
      "ids":{"contains":{"type":"integer"}}}})");
  EXPECT_EQ(reason(schema, R"({"tags":[]})"), "/tags: must have at least 1 item");
  EXPECT_EQ(reason(schema, R"({"tags":[1,2,3,4]})"), "/tags: must have at most 3 items");
  EXPECT_EQ(reason(schema, Json{{"tags", {kSecret, "b", kSecret}}}),
            "/tags: must not contain duplicate items (items 0 and 2 are equal)");
  EXPECT_EQ(reason(schema, R"({"pair":["a","b"]})"), "/pair/1: must be number");
  EXPECT_EQ(reason(schema, R"({"pair":["a",1,true]})"),
            "/pair/2: item not allowed (additionalItems)");
  EXPECT_EQ(reason(schema, R"({"ids":["a","b"]})"),
            "/ids: must contain at least one item of the required shape (contains)");
}

TEST(SchemaFailure, ObjectSizesNamesAndDependencies) {
  const Schema schema = compiled(R"({"properties":{
      "small":{"maxProperties":1},"big":{"minProperties":2},
      "named":{"propertyNames":{"pattern":"^[a-z]+$"}},
      "card":{"dependencies":{"number":["expiry"],"kind":{"required":["brand"]}}}}})");
  EXPECT_EQ(reason(schema, R"({"small":{"a":1,"b":2}})"), "/small: must have at most 1 property");
  EXPECT_EQ(reason(schema, R"({"big":{"a":1}})"), "/big: must have at least 2 properties");
  EXPECT_EQ(reason(schema, R"({"named":{"ok":1,"Bad":2}})"),
            "/named/Bad: property name not allowed (propertyNames)");
  EXPECT_EQ(reason(schema, R"({"card":{"number":1}})"),
            R"(/card: missing property "expiry", required when "number" is present)");
  EXPECT_EQ(reason(schema, R"({"card":{"kind":1}})"),
            R"(/card: missing required property "brand")");
}

TEST(SchemaFailure, BranchesSayWhichShapeRuleFailed) {
  const Schema schema = compiled(R"({"properties":{
      "any":{"anyOf":[{"type":"string"},{"type":"integer"}]},
      "one":{"oneOf":[{"type":"integer"},{"minimum":0}]},
      "not":{"not":{"type":"null"}},
      "all":{"allOf":[{"required":["a"]},{"properties":{"a":{"type":"string"}}}]},
      "cond":{"if":{"required":["kind"]},"then":{"properties":{"n":{"minimum":1}}},
              "else":{"required":["id"]}}}})");
  EXPECT_EQ(reason(schema, R"({"any":true})"), "/any: must match one of the allowed shapes");
  EXPECT_EQ(reason(schema, R"({"one":-0.5})"), "/one: must match one of the allowed shapes");
  EXPECT_EQ(reason(schema, R"({"one":3})"), "/one: must match exactly one of the allowed shapes");
  EXPECT_EQ(reason(schema, R"({"not":null})"), "/not: must not match the excluded shape (not)");
  // allOf, then and else apply to the same value: the failure inside them is named.
  EXPECT_EQ(reason(schema, R"({"all":{"a":1}})"), "/all/a: must be string");
  EXPECT_EQ(reason(schema, R"({"cond":{"kind":1,"n":0}})"), "/cond/n: must be >= 1");
  EXPECT_EQ(reason(schema, R"({"cond":{}})"), R"(/cond: missing required property "id")");
}

TEST(SchemaFailure, PointerTokensEscapeTildeAndSlash) {
  const Schema schema = compiled(R"({"additionalProperties":{"type":"integer"}})");
  EXPECT_EQ(reason(schema, R"({"a~b/c":"x"})"), "/a~0b~1c: must be integer");
  EXPECT_EQ(reason(schema, R"({"~1":"x"})"), "/~01: must be integer");
}

TEST(SchemaFailure, PointersAreCutPrintableAscii) {
  const Schema schema = compiled(R"({"additionalProperties":{"type":"integer"}})");
  EXPECT_EQ(reason(schema, Json{{"line\nbreak\\\x1b[31m", "x"}}),
            "/line\\x0Abreak\\\\\\x1B[31m: must be integer");
  EXPECT_EQ(reason(schema, Json{{"caf\u00e9", "x"}}), "/caf\\xC3\\xA9: must be integer");
  const std::string message = reason(schema, Json{{std::string(1000, 'k'), "x"}});
  EXPECT_EQ(message, "/" + std::string(196, 'k') + "...: must be integer");
  // An escape is never split by the cut.
  const std::string escaped = reason(schema, Json{{std::string(1000, '\n'), "x"}});
  EXPECT_EQ(escaped, "/" + repeated("\\x0A", 49) + "...: must be integer");
}

TEST(SchemaFailure, QuotedSchemaNamesAreEscapedAndCut) {
  const Schema quoted = compiled(Json{{"required", Json::array({"say \"hi\""})}});
  EXPECT_EQ(reason(quoted, "{}"), R"((root): missing required property "say \"hi\"")");
  const Schema long_name = compiled(Json{{"required", Json::array({std::string(500, 'n')})}});
  EXPECT_EQ(reason(long_name, "{}"),
            "(root): missing required property \"" + std::string(95, 'n') + "...\"");
}

TEST(SchemaFailure, TheFirstFailureIsDeterministic) {
  const Schema schema = compiled(R"({"type":"object","required":["z"],"properties":{
      "a":{"type":"string"},"b":{"type":"string"}}})");
  // Members in order of their names; required before the members; type before everything.
  EXPECT_EQ(reason(schema, R"({"b":1,"a":1,"z":0})"), "/a: must be string");
  EXPECT_EQ(reason(schema, R"({"b":1,"a":1})"), R"((root): missing required property "z")");
  EXPECT_EQ(reason(schema, "[]"), "(root): must be object");
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(reason(schema, R"({"b":1,"a":1,"z":0})"), "/a: must be string");
}

}  // namespace
}  // namespace codemode
