// Schema is a compiled JSON Schema (draft 7) document. Compile it once, validate many times.
//
// Schemas are checked by valijson. compile refuses documents that are not bounded plain JSON, that
// valijson cannot parse, or that refer to remote documents ($ref to another URI); such refusals are
// INVALID_CONFIG with rule "schema". Regular expressions ("pattern", "patternProperties") are
// compiled once, here, with RE2, which matches in linear time; one RE2 cannot evaluate
// (backreferences, lookaround, some escapes) is INVALID_CONFIG with rule "schema_pattern".
// validate's refusals name the first failure: where in the value (a JSON Pointer, RFC 6901) and the
// rule it broke, as "/items/2/qty: must be >= 1" or "(root): missing required property \"sku\"".
// They hold the value's member names and array indices and the schema's own limits, never a value
// being validated.
// docs/json-and-schemas.md lists the draft 7 features that are knowingly unsupported ("format" is
// an annotation only, as draft 7 allows).
//
// Ownership and thread-safety: a Schema is an immutable, reference-counted handle; copies are cheap
// and share the compiled form; validate may be called from any number of threads at once.
#ifndef CODEMODE_SCHEMA_H_
#define CODEMODE_SCHEMA_H_

#include <memory>
#include <string>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"

namespace codemode {

class CODEMODE_EXPORT Schema {
 public:
  // Compiles a draft 7 schema document (an object or a boolean).
  static Result<Schema> compile(const Json& document);
  // The schema that accepts every JSON value ({}).
  static Schema any();

  // OK when `value` satisfies the schema. Otherwise an Error with code INVALID_INPUT, rule
  // "schema", and a message naming the first failure, "<pointer>: <reason>" (printable ASCII; the
  // pointer at most 200 bytes; docs/json-and-schemas.md lists the reasons). A value that is not
  // plain JSON or is deeper than 32 levels (check_json, no size limit) gets check_json's
  // INVALID_JSON error instead. Integral floats (2.0) are judged as the integers JavaScript sees.
  Status validate(const Json& value) const;

  // The document this schema was compiled from, as given.
  const Json& document() const;

 private:
  struct Compiled;
  explicit Schema(std::shared_ptr<const Compiled> compiled);
  std::shared_ptr<const Compiled> compiled_;
};

}  // namespace codemode

#endif  // CODEMODE_SCHEMA_H_
