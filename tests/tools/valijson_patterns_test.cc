// Tests for valijson's pattern checks as codemode specializes them
// (src/tools/schema/valijson_patterns.cc): they search the current schema's RE2 patterns and
// fail closed, never falling back to std::regex.
#include <memory>
#include <stdexcept>

#include <gtest/gtest.h>

#include "tools/schema/schema_patterns.h"
#include "tools/schema/valijson.h"

namespace codemode::internal {
namespace {

// valijson::Schema can be neither copied nor moved.
std::unique_ptr<valijson::Schema> parse(const Json& document) {
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(document), *schema);
  return schema;
}

bool valid(const valijson::Schema& schema, const Json& value) {
  valijson::Validator validator;
  return validator.validate(schema, valijson::adapters::NlohmannJsonAdapter(value), nullptr);
}

TEST(ValijsonPatterns, SearchTheCurrentSchemasPatterns) {
  const Json document = Json::parse(R"({"pattern":"^a","patternProperties":{"^x":{"type":"string"}},
                                        "propertyNames":{"pattern":"^[a-z]+$"}})");
  const Result<SchemaPatterns> patterns = SchemaPatterns::compile(document);
  ASSERT_TRUE(patterns.ok());
  const std::unique_ptr<valijson::Schema> schema = parse(document);
  const ValijsonPatternScope scope(*patterns);
  EXPECT_TRUE(valid(*schema, Json("ab")));
  EXPECT_FALSE(valid(*schema, Json("ba")));
  EXPECT_TRUE(valid(*schema, Json::parse(R"({"xa":"s","b":1})")));
  EXPECT_FALSE(valid(*schema, Json::parse(R"({"xa":1})")));
  EXPECT_FALSE(valid(*schema, Json::parse(R"({"B":1})")));
}

TEST(ValijsonPatterns, FailClosedWithoutTheSchemasPatterns) {
  const Json document = Json::parse(R"({"pattern":"^a"})");
  const std::unique_ptr<valijson::Schema> schema = parse(document);
  EXPECT_THROW(valid(*schema, Json("ab")), std::logic_error);  // no scope on this thread
  const Result<SchemaPatterns> other = SchemaPatterns::compile(Json::parse(R"({"pattern":"^b"})"));
  ASSERT_TRUE(other.ok());
  const ValijsonPatternScope scope(*other);
  EXPECT_THROW(valid(*schema, Json("ab")), std::logic_error);  // a pattern it never compiled
}

TEST(ValijsonPatterns, FormatIsAnAnnotation) {
  const std::unique_ptr<valijson::Schema> schema = parse(Json::parse(R"({"format":"date"})"));
  EXPECT_TRUE(valid(*schema, Json("not a date")));
  EXPECT_TRUE(valid(*schema, Json(5)));  // valijson's own check would throw on a non-string
}

}  // namespace
}  // namespace codemode::internal
