// valijson's pattern checks, evaluated with the schema's RE2 patterns instead of std::regex, and
// its "format" check, which codemode treats as an annotation. See tools/valijson.h for why these
// are explicit specializations of valijson's own members; the pattern checks keep the behaviour of
// the members they replace (type checks, continue/stop flags, matched names).
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "tools/schema/schema_patterns.h"
#include "tools/schema/valijson.h"

namespace codemode::internal {
namespace {

// Per thread, because one compiled Schema is validated from many threads at once and valijson
// gives its visitors no other slot for it.
thread_local const SchemaPatterns* current_patterns = nullptr;

// True when `text` contains a match of `pattern`. Throws when the pattern was not compiled with
// the current schema: failing the validation is safe, std::regex is not.
bool pattern_found(std::string_view pattern, std::string_view text) {
  const std::optional<bool> found =
      current_patterns == nullptr ? std::nullopt : current_patterns->search(pattern, text);
  if (!found) throw std::logic_error("a schema pattern was not compiled with the schema");
  return *found;
}

template <typename Adapter>
bool string_matches(const Adapter& target, bool strict_types,
                    const valijson::constraints::PatternConstraint& constraint) {
  if ((strict_types && !target.isString()) || !target.maybeString()) return true;  // not a string
  return pattern_found(constraint.getPattern<std::string::allocator_type>(), target.asString());
}

}  // namespace

ValijsonPatternScope::ValijsonPatternScope(const SchemaPatterns& patterns)
    : previous_(current_patterns) {
  current_patterns = &patterns;
}

ValijsonPatternScope::~ValijsonPatternScope() { current_patterns = previous_; }

}  // namespace codemode::internal

namespace valijson {

template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
    const constraints::PatternConstraint& constraint) {
  if (codemode::internal::string_matches(m_target, m_strictTypes, constraint)) return true;
  if (m_results) m_results->pushError(m_context, "Failed to match the 'pattern' constraint.");
  return false;
}

template <>
bool ValidationVisitor<adapters::StdStringAdapter>::visit(
    const constraints::PatternConstraint& constraint) {
  if (codemode::internal::string_matches(m_target, m_strictTypes, constraint)) return true;
  if (m_results) m_results->pushError(m_context, "Failed to match the 'pattern' constraint.");
  return false;
}

template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
    const constraints::FormatConstraint& /*constraint*/) {
  return true;  // an annotation only
}

template <>
bool ValidationVisitor<adapters::StdStringAdapter>::visit(
    const constraints::FormatConstraint& /*constraint*/) {
  return true;  // an annotation only
}

// Validates every member whose name matches `pattern` against `subschema` and records it as
// matched (so "additionalProperties" skips it).
template <>
template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::ValidatePatternPropertySubschemas::
operator()(const constraints::PropertiesConstraint::String& pattern,
           const Subschema* subschema) const {
  bool matched = false;
  for (const auto& member : m_object) {
    if (!codemode::internal::pattern_found(pattern, member.first)) continue;
    matched = true;
    if (m_propertiesMatched) m_propertiesMatched->insert(member.first);
    std::vector<std::string> context = m_context;
    context.push_back("[" + member.first + "]");
    ValidationVisitor validator(member.second, std::move(context), m_strictTypes, m_results,
                                m_regexesCache);
    if (validator.validateSchema(*subschema)) continue;
    if (m_results) m_results->pushError(m_context, "Failed to match a 'patternProperties' schema.");
    if (m_validated) *m_validated = false;
    if (!m_continueOnFailure) return false;
  }
  return (matched || m_continueIfUnmatched) && m_continueOnSuccess;
}

// A string adapter's object view is always empty: there is no name to search.
template <>
template <>
bool ValidationVisitor<adapters::StdStringAdapter>::ValidatePatternPropertySubschemas::operator()(
    const constraints::PropertiesConstraint::String& /*pattern*/,
    const Subschema* /*subschema*/) const {
  return m_continueIfUnmatched && m_continueOnSuccess;
}

}  // namespace valijson
