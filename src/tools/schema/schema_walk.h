// Keyword-aware navigation of a draft 7 schema document: which members hold subschemas (and which
// are data, like "enum" and "const"), and local $ref resolution. Schema compile checks and the
// failing-location finder share it. Internal to libcodemode.
//
// The walk is iterative; documents reaching here passed check_json, so they are at most 32 deep.
#ifndef CODEMODE_TOOLS_SCHEMA_SCHEMA_WALK_H_
#define CODEMODE_TOOLS_SCHEMA_SCHEMA_WALK_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/json.h"

namespace codemode::internal {

// A subschema and where it is: a JSON Pointer in URI fragment form ("#/properties/a").
struct SchemaAt {
  const Json* schema;
  std::string pointer;
};

// Every subschema directly below `at` (properties' values, allOf's items, items, not, ...).
std::vector<SchemaAt> child_subschemas(const SchemaAt& at);

// Calls `visit` for `root` and every subschema below it, parents first. Stops when visit returns
// false and returns false then.
bool for_each_subschema(const Json& root, const std::function<bool(const SchemaAt&)>& visit);
// The same walk from `start` (pointers continue from `start.pointer`).
bool for_each_subschema(const SchemaAt& start, const std::function<bool(const SchemaAt&)>& visit);

// for_each_subschema over `root`, then over the target of every local $ref met on the way that
// the walk has not visited, with pointers starting at the $ref text. valijson reads whatever a $ref
// points at as a schema, even a node under a member that holds no subschemas (a "$defs" that draft
// 7 does not know), so whatever must be removed or checked before valijson sees it is found here.
// A node may be visited more than once.
bool for_each_reachable_subschema(const Json& root,
                                  const std::function<bool(const SchemaAt&)>& visit);

// The subschemas that apply to the same instance as `schema` itself: allOf, anyOf, oneOf, not,
// if, then, else and the schema form of dependencies ($ref is resolved separately).
std::vector<const Json*> same_instance_subschemas(const Json& schema);

// True when `ref` is a reference inside the same document ("#", "#/pointer" or "#name").
bool is_local_ref(std::string_view ref);

// Resolves a local reference in `root`: "#", a URI-fragment JSON Pointer ("#/definitions/a%25b"),
// or a plain name matching a subschema's "$id" ("#foo"). Null when it resolves to nothing.
const Json* resolve_local_ref(const Json& root, std::string_view ref);

// The schema a chain of local $refs starting at `at` ends on (at most 32 hops; the chain is
// followed only while it resolves). `at.pointer` becomes the final target's ref text.
SchemaAt follow_refs(const Json& root, SchemaAt at);

// Removes `keyword` from every reachable subschema of `root` (and from nowhere else: an "enum"
// value or a property named like the keyword is left alone).
void erase_keyword(Json& root, std::string_view keyword);

// One reference token for a pointer in URI fragment form: "~" -> "~0", "/" -> "~1", and bytes
// outside RFC 3986's fragment characters percent-encoded.
std::string pointer_token(std::string_view name);

}  // namespace codemode::internal

#endif  // CODEMODE_TOOLS_SCHEMA_SCHEMA_WALK_H_
