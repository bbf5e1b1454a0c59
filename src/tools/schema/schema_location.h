// Finds the place in a schema that a failing value broke, for Schema::validate's message.
//
// valijson reports where in the *value* validation failed (["<root>", "[skus]", "[0]"]), and the
// value is data that must never reach a message. This walks the schema alongside the value along
// that path (properties, patternProperties, additionalProperties, items, additionalItems and local
// $refs) and returns the schema's own JSON Pointer. It stops at allOf / anyOf / oneOf / not / if,
// naming that keyword, since which branch "should" have matched is unknowable. Names that exist
// only in the value (matched by additionalProperties) never enter the pointer. Internal.
#ifndef CODEMODE_TOOLS_SCHEMA_SCHEMA_LOCATION_H_
#define CODEMODE_TOOLS_SCHEMA_SCHEMA_LOCATION_H_

#include <string>
#include <vector>

#include "codemode/json.h"

#include "tools/schema/schema_patterns.h"

namespace codemode::internal {

// `value_path` is valijson's context: "<root>" followed by "[name]" or "[index]" segments.
// REQUIRES: `root` passed check_schema_document and `patterns` was compiled from it. Returns a
// pointer such as "#/properties/a/items".
std::string failing_schema_location(const Json& root, const SchemaPatterns& patterns,
                                    const Json& value, const std::vector<std::string>& value_path);

}  // namespace codemode::internal

#endif  // CODEMODE_TOOLS_SCHEMA_SCHEMA_LOCATION_H_
