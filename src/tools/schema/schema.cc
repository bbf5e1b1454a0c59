// Schema: a compiled draft 7 JSON Schema (see codemode/schema.h), checked by valijson.
#include "codemode/schema.h"

#include <limits>
#include <utility>

#include "core/json/integral_numbers.h"
#include "tools/schema/schema_checks.h"
#include "tools/schema/schema_failure.h"
#include "tools/schema/schema_patterns.h"
#include "tools/schema/schema_walk.h"
#include "tools/schema/valijson.h"

namespace codemode {

struct Schema::Compiled {
  Json document;
  internal::SchemaPatterns patterns;  // every regular expression in `document`, compiled once
  valijson::Schema schema;  // immutable after compile; valijson only reads it while validating
};

namespace {

// Values are expected to come through the JSON boundary already; this re-check bounds valijson's
// recursion (one native frame per level) and rejects NaN or binary values a C++ caller built.
constexpr JsonLimits kValueShape{.max_bytes = std::numeric_limits<std::size_t>::max(),
                                 .max_depth = 32,
                                 .max_values = std::numeric_limits<std::size_t>::max()};

Error validation_error(std::string message) {
  return Error::invalid_input("schema", std::move(message));
}

// The parts of Schema::Compiled one validation reads.
struct CompiledView {
  const Json& document;
  const internal::SchemaPatterns& patterns;
  const valijson::Schema& schema;
};

Status validate_with(const CompiledView& compiled, const Json& value) {
  const internal::ValijsonPatternScope patterns(compiled.patterns);
  valijson::Validator validator;  // per call: it is not thread-safe
  const valijson::adapters::NlohmannJsonAdapter target(value);
  if (validator.validate(compiled.schema, target, nullptr)) return {};
  // valijson's own failure reports are sentences that may quote the value; the explanation walks
  // the schema once more to name where and why, in words that never hold a value.
  return validation_error(internal::explain_failure(compiled.document, compiled.patterns, value));
}

}  // namespace

Schema::Schema(std::shared_ptr<const Compiled> compiled) : compiled_(std::move(compiled)) {}

Result<Schema> Schema::compile(const Json& document) {
  if (Status checked = internal::check_schema_document(document); !checked.ok()) {
    return std::move(checked).error();
  }
  Result<internal::SchemaPatterns> patterns = internal::SchemaPatterns::compile(document);
  if (!patterns.ok()) return std::move(patterns).error();
  try {
    auto compiled = std::make_shared<Compiled>();
    compiled->document = document;
    compiled->patterns = std::move(patterns).value();
    // "format" is an annotation only (draft 7 allows either). valijson would assert date, time
    // and date-time with std::regex over the whole string, which recurses once per character.
    Json asserted = document;
    internal::erase_keyword(asserted, "format");
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(asserted), compiled->schema);
    return Schema(std::move(compiled));
  } catch (...) {  // valijson reports every schema problem by throwing
    return internal::schema_config_error("The schema is not a valid draft 7 JSON Schema.");
  }
}

Schema Schema::any() {
  static const std::shared_ptr<const Compiled> kAny = [] {
    auto compiled = std::make_shared<Compiled>();
    compiled->document = Json::object();
    return compiled;  // an empty valijson::Schema has no constraints: it accepts everything
  }();
  return Schema(kAny);
}

Status Schema::validate(const Json& value) const {
  if (Result<std::size_t> shape = check_json(value, kValueShape); !shape.ok()) {
    return std::move(shape).error();
  }
  const CompiledView view{compiled_->document, compiled_->patterns, compiled_->schema};
  try {
    if (internal::has_integral_float(value)) {
      Json as_javascript_sees_it = value;
      internal::integral_floats_to_integers(as_javascript_sees_it);
      return validate_with(view, as_javascript_sees_it);
    }
    return validate_with(view, value);
  } catch (...) {  // valijson's own errors, or a pattern check with no compiled pattern
    return validation_error("The value could not be checked against the schema.");
  }
}

const Json& Schema::document() const { return compiled_->document; }

}  // namespace codemode
