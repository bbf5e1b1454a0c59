// The one place codemode includes valijson. valijson aborts the process on a bad schema unless
// VALIJSON_USE_EXCEPTIONS is set before its headers are read, so every use goes through this
// header (one definition for the whole library keeps the templates ODR-consistent).
//
// Regular expressions: valijson 1.0 (Debian 12) evaluates "pattern" and "patternProperties" with
// std::regex, whose libstdc++ matcher recurses about once per character: "^(a|b)*$" against
// 100,000 characters overflowed an 8 MiB stack and crashed the host. This valijson has no
// pluggable regex engine, so the two member functions that call std::regex are explicitly
// specialized below for the only two adapters codemode validates with (a value, and the property
// names "propertyNames" checks); tools/valijson_patterns.cc defines them to search with the RE2
// patterns of the schema being validated (tools/schema_patterns.h), made current on the calling
// thread by a ValijsonPatternScope. "format", an annotation only in codemode, is specialized to
// accept everything: Schema::compile removes it before valijson sees it, and this keeps valijson's
// std::regex date and time checks off every value even so. "multipleOf" is specialized too
// (tools/valijson_multiple_of.cc): valijson's own applies it to strings that look like numbers. The
// declarations must precede every use of the validator, which is why they live here.
#ifndef CODEMODE_TOOLS_SCHEMA_VALIJSON_H_
#define CODEMODE_TOOLS_SCHEMA_VALIJSON_H_

#ifndef VALIJSON_USE_EXCEPTIONS
#define VALIJSON_USE_EXCEPTIONS 1
#endif

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/adapters/std_string_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

namespace codemode::internal {

class SchemaPatterns;

// While alive, valijson's pattern checks on this thread search `patterns`, which must outlive
// the scope. A pattern check with no scope, or for a pattern `patterns` lacks, throws (the
// validation then fails) rather than fall back to std::regex. Scopes nest.
class ValijsonPatternScope {
 public:
  explicit ValijsonPatternScope(const SchemaPatterns& patterns);
  ~ValijsonPatternScope();
  ValijsonPatternScope(const ValijsonPatternScope&) = delete;
  ValijsonPatternScope& operator=(const ValijsonPatternScope&) = delete;

 private:
  const SchemaPatterns* previous_;
};

}  // namespace codemode::internal

namespace valijson {

template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
    const constraints::PatternConstraint& constraint);
template <>
bool ValidationVisitor<adapters::StdStringAdapter>::visit(
    const constraints::PatternConstraint& constraint);

template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
    const constraints::FormatConstraint& constraint);
template <>
bool ValidationVisitor<adapters::StdStringAdapter>::visit(
    const constraints::FormatConstraint& constraint);

// tools/valijson_multiple_of.cc: multipleOf applies to JSON numbers only, exactly.
template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
    const constraints::MultipleOfIntConstraint& constraint);
template <>
bool ValidationVisitor<adapters::StdStringAdapter>::visit(
    const constraints::MultipleOfIntConstraint& constraint);
template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
    const constraints::MultipleOfDoubleConstraint& constraint);
template <>
bool ValidationVisitor<adapters::StdStringAdapter>::visit(
    const constraints::MultipleOfDoubleConstraint& constraint);

template <>
template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::ValidatePatternPropertySubschemas::
operator()(const constraints::PropertiesConstraint::String& pattern,
           const Subschema* subschema) const;
template <>
template <>
bool ValidationVisitor<adapters::StdStringAdapter>::ValidatePatternPropertySubschemas::operator()(
    const constraints::PropertiesConstraint::String& pattern, const Subschema* subschema) const;

}  // namespace valijson

#endif  // CODEMODE_TOOLS_SCHEMA_VALIJSON_H_
