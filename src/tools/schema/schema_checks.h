// What Schema::compile checks before handing a document to valijson: bounded plain JSON, an object
// or boolean, only local $refs that resolve, and no $ref/allOf/... cycle
// that would re-apply a schema to the same value forever. Each refusal is INVALID_CONFIG with rule
// "schema" and a message naming the problem, never the document's content. Internal.
#ifndef CODEMODE_TOOLS_SCHEMA_SCHEMA_CHECKS_H_
#define CODEMODE_TOOLS_SCHEMA_SCHEMA_CHECKS_H_

#include <string>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::internal {

Status check_schema_document(const Json& document);

// INVALID_CONFIG / "schema" with `message`.
Error schema_config_error(std::string message);

}  // namespace codemode::internal

#endif  // CODEMODE_TOOLS_SCHEMA_SCHEMA_CHECKS_H_
