// Contract tests for Schema (codemode/schema.h): compile refusals, validation messages that name
// the failing place and never the data, and concurrent validation. schema_failure_test.cc checks
// the reasons keyword by keyword.
#include "codemode/schema.h"

#include <atomic>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace codemode {
namespace {

Schema compile(const char* text) {
  Result<Schema> schema = Schema::compile(Json::parse(text));
  EXPECT_TRUE(schema.ok()) << text << ": " << (schema.ok() ? "" : schema.error().message);
  return schema.ok() ? *schema : Schema::any();
}

// The message validate gives for `value`, which must fail with INVALID_INPUT / schema.
std::string failure(const Schema& schema, const char* value) {
  Status status = schema.validate(Json::parse(value));
  EXPECT_FALSE(status.ok()) << value;
  if (status.ok()) return {};
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidInput);
  EXPECT_EQ(status.error().rule, "schema");
  return status.error().message;
}

void expect_refused(const Json& document, const std::string& message) {
  Result<Schema> schema = Schema::compile(document);
  ASSERT_FALSE(schema.ok()) << document.dump();
  EXPECT_EQ(schema.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(schema.error().rule, "schema");
  EXPECT_EQ(schema.error().message, message);
}

constexpr char kRemoteRef[] =
    "The schema refers to another document with $ref; only references inside the schema "
    "(starting with #) are supported.";
constexpr char kInvalidSchema[] = "The schema is not a valid draft 7 JSON Schema.";

TEST(Schema, AnyAcceptsEveryValue) {
  const Schema any = Schema::any();
  EXPECT_EQ(any.document(), Json::object());
  for (const char* value : {"null", "1", "\"x\"", "[1,[2]]", R"({"a":{"b":false}})"}) {
    EXPECT_TRUE(any.validate(Json::parse(value)).ok()) << value;
  }
}

TEST(Schema, CopiesShareTheCompiledDocument) {
  const Schema schema = compile(R"({"type":"string","title":"t"})");
  const Schema copy = schema;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(&copy.document(), &schema.document());
  EXPECT_EQ(schema.document(), Json::parse(R"({"type":"string","title":"t"})"));
}

TEST(SchemaValidate, NamesTheFailingPlaceInTheValueAndNeverTheValue) {
  const Schema schema = compile(R"({"type":"object","required":["skus"],
      "properties":{"skus":{"type":"array","items":{"type":"string","maxLength":8}}}})");
  EXPECT_TRUE(schema.validate(Json::parse(R"({"skus":["a","b"]})")).ok());
  const std::string message = failure(schema, R"({"skus":["ok","secret-value-123456"]})");
  EXPECT_EQ(message, "/skus/1: must be at most 8 characters long");
  EXPECT_EQ(message.find("secret"), std::string::npos);
  EXPECT_EQ(failure(schema, R"({"skus":"secret"})"), "/skus: must be array");
  EXPECT_EQ(failure(schema, R"({"other":1})"), R"((root): missing required property "skus")");
  EXPECT_EQ(failure(schema, "7"), "(root): must be object");
}

// A property the schema does not declare is named (the caller must know which one to drop or
// fix); its value never is.
TEST(SchemaValidate, NamesUndeclaredPropertiesButNotTheirValues) {
  const Schema open =
      compile(R"({"properties":{"a":{}},"additionalProperties":{"type":"integer"}})");
  const std::string message = failure(open, R"({"a":1,"extra":"leaked-value"})");
  EXPECT_EQ(message, "/extra: must be integer");
  EXPECT_EQ(message.find("leaked"), std::string::npos);
  const Schema closed = compile(R"({"properties":{"a":{}},"additionalProperties":false})");
  EXPECT_EQ(failure(closed, R"({"extra":"leaked-value"})"),
            "/extra: property not allowed (additionalProperties)");
}

TEST(SchemaValidate, FollowsPatternPropertiesByTheirPattern) {
  const Schema schema = compile(R"({"patternProperties":{"^x-":{"type":"string"}}})");
  EXPECT_EQ(failure(schema, R"({"x-id":1})"), "/x-id: must be string");
}

TEST(SchemaValidate, FollowsTupleItemsAndAdditionalItems) {
  const Schema schema = compile(
      R"({"items":[{"type":"string"},{"type":"integer"}],"additionalItems":{"type":"boolean"}})");
  EXPECT_TRUE(schema.validate(Json::parse(R"(["a",1,true,false])")).ok());
  EXPECT_EQ(failure(schema, R"(["a","b"])"), "/1: must be integer");
  EXPECT_EQ(failure(schema, R"(["a",1,"x"])"), "/2: must be boolean");
  const Schema list = compile(R"({"items":{"items":{"type":"integer"}}})");
  EXPECT_EQ(failure(list, "[[1],[2,\"x\"]]"), "/1/1: must be integer");
}

TEST(SchemaValidate, ResolvesLocalReferences) {
  const Schema schema = compile(R"({"definitions":{"sku":{"type":"string"}},
      "properties":{"s":{"$ref":"#/definitions/sku"},"child":{"$ref":"#"},
                    "n":{"type":"integer"}}})");
  EXPECT_EQ(failure(schema, R"({"s":1})"), "/s: must be string");
  EXPECT_EQ(failure(schema, R"({"child":{"child":{"n":"x"}}})"), "/child/child/n: must be integer");
  EXPECT_TRUE(schema.validate(Json::parse(R"({"child":{"child":{"n":3,"s":"a"}}})")).ok());
}

TEST(SchemaValidate, StopsAtBranchingKeywords) {
  const Schema any_of = compile(R"({"anyOf":[{"properties":{"a":{"type":"string"}}},
                                              {"properties":{"a":{"type":"integer"}}}]})");
  EXPECT_EQ(failure(any_of, R"({"a":true})"), "(root): must match one of the allowed shapes");
  const Schema nested = compile(R"({"properties":{"p":{"oneOf":[{"items":{"type":"string"}},
                                                               {"items":{"type":"integer"}}]}}})");
  EXPECT_EQ(failure(nested, R"({"p":[true]})"), "/p: must match one of the allowed shapes");
}

TEST(SchemaValidate, EscapesPropertyNamesAsPointerTokens) {
  const Schema schema = compile(R"({"properties":{"a/b~c d":{"type":"string"}}})");
  EXPECT_EQ(failure(schema, R"({"a/b~c d":1})"), "/a~1b~0c d: must be string");
}

TEST(SchemaValidate, BooleanSchemas) {
  EXPECT_EQ(failure(compile("false"), "1"), "(root): not allowed");
  EXPECT_TRUE(compile("true").validate(Json::parse("1")).ok());
  const Schema schema = compile(R"({"properties":{"never":false}})");
  EXPECT_EQ(failure(schema, R"({"never":null})"), "/never: not allowed");
}

TEST(SchemaValidate, TreatsIntegralFloatsAsIntegersLikeJavaScript) {
  const Schema schema = compile(R"({"type":"integer","multipleOf":2})");
  EXPECT_TRUE(schema.validate(Json(4.0)).ok());
  EXPECT_TRUE(schema.validate(Json(-0.0)).ok());
  EXPECT_EQ(failure(schema, "4.5"), "(root): must be integer");
}

// valijson 1.0 converted strings that look like numbers ("7" failed multipleOf 3) and truncated a
// fraction before an integer divisor (6.5 passed multipleOf 3): draft 7 applies multipleOf to JSON
// numbers only, exactly (tools/valijson_multiple_of.cc).
TEST(SchemaValidate, MultipleOfAppliesToNumbersOnlyAndExactly) {
  const Schema by_three = compile(R"({"multipleOf":3})");
  EXPECT_TRUE(by_three.validate(Json("7")).ok());
  EXPECT_TRUE(by_three.validate(Json("x")).ok());
  EXPECT_TRUE(by_three.validate(Json(9)).ok());
  EXPECT_TRUE(by_three.validate(Json(-9.0)).ok());
  EXPECT_EQ(failure(by_three, "7"), "(root): must be a multiple of 3");
  EXPECT_EQ(failure(by_three, "6.5"), "(root): must be a multiple of 3");
  EXPECT_TRUE(by_three.validate(Json(9e15)).ok());  // a float, integral and divisible
  const Schema by_fraction = compile(R"({"properties":{"n":{"multipleOf":0.5}}})");
  EXPECT_TRUE(by_fraction.validate(Json::parse(R"({"n":"1.25"})")).ok());
  EXPECT_TRUE(by_fraction.validate(Json::parse(R"({"n":3})")).ok());
  EXPECT_EQ(failure(by_fraction, R"({"n":1.25})"), "/n: must be a multiple of 0.5");
}

TEST(SchemaValidate, FormatIsAnAnnotationOnly) {
  const Schema schema = compile(R"({"properties":{"d":{"type":"string","format":"date"}}})");
  EXPECT_TRUE(schema.validate(Json::parse(R"({"d":"not a date"})")).ok());
  EXPECT_EQ(schema.document()["properties"]["d"]["format"], "date");
}

TEST(SchemaValidate, ReturnsTheBoundaryErrorForValuesThatAreNotPlainJson) {
  Status status = Schema::any().validate(Json(std::nan("")));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kInvalidJson);
  EXPECT_EQ(status.error().rule, "json_number");
  Json deep = 1;
  for (int i = 0; i < 40; ++i) deep = Json::array({deep});
  EXPECT_EQ(Schema::any().validate(deep).error().rule, "json_depth_limit");
}

TEST(SchemaCompile, RefusesRemoteReferences) {
  expect_refused(Json::parse(R"({"$ref":"http://example.com/schema.json"})"), kRemoteRef);
  expect_refused(Json::parse(R"({"properties":{"a":{"$ref":"other.json#/definitions/a"}}})"),
                 kRemoteRef);
  expect_refused(Json::parse(R"({"items":[{"$ref":"urn:example:s"}]})"), kRemoteRef);
}

TEST(SchemaCompile, RefusesReferencesThatPointNowhere) {
  expect_refused(Json::parse(R"({"properties":{"a":{"$ref":"#/definitions/missing"}}})"),
                 "The schema has a $ref that points to nothing in the schema.");
}

TEST(SchemaCompile, TreatsRefOutsideSchemaPositionsAsData) {
  const Schema schema = compile(R"({"properties":{"$ref":{"type":"string"}},
                                    "enum":[{"$ref":"http://example.com"}, {"$ref":"x"}]})");
  EXPECT_TRUE(schema.validate(Json::parse(R"({"$ref":"http://example.com"})")).ok());
  EXPECT_EQ(failure(schema, R"({"$ref":"y"})"), "(root): must be one of the allowed values");
}

TEST(SchemaCompile, RefusesSchemasValijsonCannotParse) {
  expect_refused(Json::parse(R"({"minLength":-1})"), kInvalidSchema);
  expect_refused(Json::parse(R"({"type":"no-such-type"})"), kInvalidSchema);
  expect_refused(Json::parse(R"({"properties":{"a":{"required":"x"}}})"), kInvalidSchema);
  expect_refused(Json::parse("5"), "The schema is neither an object nor a boolean.");
}

// Regression (found by fuzz/schema_fuzzer.cc): {"multipleOf":0} compiled, and validating -1
// against it ran valijson's integer `-1 % 0`, a SIGFPE that killed the host process.
TEST(SchemaCompile, RefusesMultipleOfZeroInsteadOfDividingByIt) {
  const std::string message = "The schema has a multipleOf that is not a number greater than 0.";
  expect_refused(Json::parse(R"({"multipleOf":0})"), message);
  expect_refused(Json::parse(R"({"type":"integer","multipleOf":0.0})"), message);
  expect_refused(Json::parse(R"({"multipleOf":-2})"), message);
  expect_refused(Json::parse(R"({"multipleOf":"3"})"), message);
  expect_refused(Json::parse(R"({"items":{"properties":{"n":{"multipleOf":0}}}})"), message);
  compile(R"({"enum":[{"multipleOf":0}]})");  // data, not a keyword
  const Schema half = compile(R"({"multipleOf":0.5})");
  EXPECT_TRUE(half.validate(Json(-1)).ok());
  EXPECT_EQ(failure(half, "0.25"), "(root): must be a multiple of 0.5");
}

TEST(SchemaCompile, RefusesDocumentsOutsideTheJsonBoundary) {
  Json deep = Json::object();
  for (int i = 0; i < 40; ++i) deep = Json{{"not", deep}};
  expect_refused(deep, "The schema is not bounded, plain JSON (rule json_depth_limit).");
  expect_refused(Json{{"maximum", 1e300}},
                 "The schema is not bounded, plain JSON (rule json_number).");
}

TEST(SchemaCompile, RefusesReferenceCyclesThatNeverDescend) {
  const std::string message =
      "The schema applies itself to the same value in a cycle ($ref, allOf, anyOf, oneOf, not, "
      "if/then/else or dependencies) without descending into it.";
  expect_refused(Json::parse(R"({"$ref":"#"})"), message);
  expect_refused(Json::parse(R"({"definitions":{"a":{"anyOf":[{"$ref":"#"}]}},
                                 "allOf":[{"$ref":"#/definitions/a"}]})"),
                 message);
  expect_refused(Json::parse(R"({"definitions":{"a":{"$ref":"#/definitions/b"},
                                                "b":{"not":{"$ref":"#/definitions/a"}}},
                                 "properties":{"x":{"$ref":"#/definitions/a"}}})"),
                 message);
  // Recursion through a property or an item descends into the value, so it ends.
  compile(R"({"properties":{"next":{"$ref":"#"}},"items":{"allOf":[{"$ref":"#"}]}})");
}

TEST(SchemaValidate, IsSafeFromManyThreadsAtOnce) {
  const Schema schema = compile(R"({"type":"object","properties":{
      "id":{"type":"string","pattern":"^[a-z]+-[0-9]+$"},
      "tags":{"type":"array","items":{"type":"string","pattern":"^#"}}},"required":["id"]})");
  const Json good = Json::parse(R"({"id":"abc-12","tags":["#a","#b"]})");
  const Json bad = Json::parse(R"({"id":"abc-12","tags":["#a","b"]})");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        if (!schema.validate(good).ok()) ++wrong;
        Status status = schema.validate(bad);
        if (status.ok() || status.error().message != "/tags/1: must match the pattern") ++wrong;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace codemode
