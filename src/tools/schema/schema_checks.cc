#include "tools/schema/schema_checks.h"

#include <string_view>
#include <unordered_map>
#include <vector>

#include "tools/schema/schema_walk.h"

namespace codemode::internal {
namespace {

// Draft 7: multipleOf "MUST be a number, strictly greater than 0". valijson divides by it without
// checking: an integer 0 becomes an integer division by zero (SIGFPE kills the host process).
Status check_multiple_of(const Json& schema) {
  const auto found = schema.find("multipleOf");
  if (found == schema.end() || (found->is_number() && found->get<double>() > 0)) return {};
  return schema_config_error("The schema has a multipleOf that is not a number greater than 0.");
}

// The first problem with one subschema's own keywords, or OK.
Status check_keywords(const Json& root, const Json& schema) {
  if (!schema.is_object()) return {};
  if (const auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
    const std::string& text = ref->get_ref<const std::string&>();
    if (!is_local_ref(text)) {
      return schema_config_error(
          "The schema refers to another document with $ref; only references inside the schema "
          "(starting with #) are supported.");
    }
    if (resolve_local_ref(root, text) == nullptr) {
      return schema_config_error("The schema has a $ref that points to nothing in the schema.");
    }
  }
  if (Status s = check_multiple_of(schema); !s.ok()) return s;
  return {};
}

// Subschemas evaluated against the same value as `schema`, its $ref target included.
std::vector<const Json*> same_instance_edges(const Json& root, const Json& schema) {
  std::vector<const Json*> edges = same_instance_subschemas(schema);
  if (!schema.is_object()) return edges;
  if (const auto ref = schema.find("$ref"); ref != schema.end() && ref->is_string()) {
    if (const Json* target = resolve_local_ref(root, ref->get_ref<const std::string&>())) {
      edges.push_back(target);
    }
  }
  return edges;
}

// Depth-first search over same-value edges from `start`, with an explicit stack. A cycle means
// validation would apply a schema to one value again and again without descending.
bool has_same_instance_cycle(const Json& root, const Json* start,
                             std::unordered_map<const Json*, int>& state) {
  enum { kUnseen = 0, kOnPath = 1, kDone = 2 };
  struct Visit {
    const Json* schema;
    std::vector<const Json*> edges;
    std::size_t next = 0;
  };
  std::vector<Visit> path;
  if (state[start] != kUnseen) return false;
  state[start] = kOnPath;
  path.push_back({start, same_instance_edges(root, *start)});
  while (!path.empty()) {
    Visit& top = path.back();
    if (top.next == top.edges.size()) {
      state[top.schema] = kDone;
      path.pop_back();
      continue;
    }
    const Json* next = top.edges[top.next++];
    if (state[next] == kOnPath) return true;
    if (state[next] == kDone) continue;
    state[next] = kOnPath;
    path.push_back({next, same_instance_edges(root, *next)});  // `top` is not used after this
  }
  return false;
}

}  // namespace

Error schema_config_error(std::string message) {
  return Error::invalid_config("schema", std::move(message));
}

Status check_schema_document(const Json& document) {
  if (Result<std::size_t> size = check_json(document); !size.ok()) {
    return schema_config_error("The schema is not bounded, plain JSON (rule " + size.error().rule +
                               ").");
  }
  if (!document.is_object() && !document.is_boolean()) {
    return schema_config_error("The schema is neither an object nor a boolean.");
  }
  Status status;
  std::unordered_map<const Json*, int> cycle_state;
  for_each_subschema(document, [&](const SchemaAt& at) {
    status = check_keywords(document, *at.schema);
    if (status.ok() && has_same_instance_cycle(document, at.schema, cycle_state)) {
      status = schema_config_error(
          "The schema applies itself to the same value in a cycle ($ref, allOf, anyOf, oneOf, "
          "not, if/then/else or dependencies) without descending into it.");
    }
    return status.ok();
  });
  return status;
}

}  // namespace codemode::internal
