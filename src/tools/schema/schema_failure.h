// Explains why a value failed its schema, for Schema::validate's message: the first failure, as
// "<pointer>: <reason>" (failure_text.h), e.g. "/items/2/qty: must be >= 1".
//
// valijson decides whether a value is valid; it reports failures as English sentences, some of
// which quote the value, so they never reach a message. This walks the schema alongside the value
// once more, in a fixed order, and stops at the first keyword that fails:
//   type; enum, const; multipleOf, minimum, exclusiveMinimum, maximum, exclusiveMaximum;
//   minLength, maxLength, pattern; minItems, maxItems, uniqueItems, items/additionalItems (each
//   element in order), contains; required (in the schema's order), minProperties, maxProperties,
//   each member in Json's order (propertyNames, then properties/patternProperties/
//   additionalProperties), dependencies; allOf (each branch in order), anyOf, oneOf, not,
//   if/then/else.
// A node with "$ref" is its target (draft 7 ignores the siblings, as valijson does). Reasons name
// the keyword's limit from the schema ("must be at most 8 characters long", "missing required
// property \"sku\"") and never a value: a string is "must match the pattern", an enum "must be one
// of the allowed values", a failed anyOf or oneOf "must match one of the allowed shapes". Which
// branch of those should have matched is unknowable, so the walk does not go into them. The pointer
// holds the value's member names and indices, property names from the value included (an
// additionalProperties failure names the property that is not allowed).
//
// Internal to libcodemode.
#ifndef CODEMODE_TOOLS_SCHEMA_SCHEMA_FAILURE_H_
#define CODEMODE_TOOLS_SCHEMA_SCHEMA_FAILURE_H_

#include <string>

#include "codemode/json.h"

#include "tools/schema/schema_patterns.h"

namespace codemode::internal {

// The walk visits at most this many (subschema, value) pairs; beyond it, or when the walk finds
// nothing valijson found (they should agree), the message is kNoExplanation.
inline constexpr std::size_t kMaxExplainSteps = 100'000;
inline constexpr char kNoExplanation[] = "(root): does not match the schema";

// REQUIRES: `root` passed check_schema_document, `patterns` was compiled from it, and `value`
// passed check_json with integral floats already made integers (Schema::validate does both).
std::string explain_failure(const Json& root, const SchemaPatterns& patterns, const Json& value);

}  // namespace codemode::internal

#endif  // CODEMODE_TOOLS_SCHEMA_SCHEMA_FAILURE_H_
