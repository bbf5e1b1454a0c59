// valijson's "multipleOf" checks, replaced (see tools/valijson.h for why as explicit
// specializations). valijson 1.0's two visitors ignore its strict-types mode: they convert a string
// such as "7" to a number and fail it against {"multipleOf":3}, although draft 7 applies multipleOf
// to numbers only. And the integer visitor truncates a non-integral number before dividing, so 6.5
// passed {"multipleOf":3}. Here a value that is not a JSON number passes, an integer divisor needs
// an exact integral quotient, and a fractional divisor keeps valijson's tolerance of one epsilon.
// Schema::compile has already refused every divisor that is not greater than 0.
#include <cmath>
#include <cstdint>
#include <limits>

#include "tools/schema/valijson.h"

namespace codemode::internal {
namespace {

// Whether `value` is a JSON number (not a string that looks like one) divisible by `divisor` > 0.
template <typename Adapter>
bool multiple_of_integer(const Adapter& value, std::int64_t divisor) {
  if (value.isInteger()) return value.getInteger() % divisor == 0;
  if (!value.isDouble()) return true;  // not a number: multipleOf does not apply
  const double number = value.getDouble();
  return std::isfinite(number) && std::fmod(number, static_cast<double>(divisor)) == 0.0;
}

template <typename Adapter>
bool multiple_of_fraction(const Adapter& value, double divisor) {
  if (!value.isInteger() && !value.isDouble()) return true;
  const double number =
      value.isInteger() ? static_cast<double>(value.getInteger()) : value.getDouble();
  if (!std::isfinite(number)) return false;
  return number == 0.0 ||
         std::fabs(std::remainder(number, divisor)) <= std::numeric_limits<double>::epsilon();
}

}  // namespace
}  // namespace codemode::internal

namespace valijson {

template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
    const constraints::MultipleOfIntConstraint& constraint) {
  if (codemode::internal::multiple_of_integer(m_target, constraint.getDivisor())) return true;
  if (m_results) m_results->pushError(m_context, "Failed to match the 'multipleOf' constraint.");
  return false;
}

template <>
bool ValidationVisitor<adapters::StdStringAdapter>::visit(
    const constraints::MultipleOfIntConstraint&) {
  return true;  // a property name is a string, never a number
}

template <>
bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
    const constraints::MultipleOfDoubleConstraint& constraint) {
  if (codemode::internal::multiple_of_fraction(m_target, constraint.getDivisor())) return true;
  if (m_results) m_results->pushError(m_context, "Failed to match the 'multipleOf' constraint.");
  return false;
}

template <>
bool ValidationVisitor<adapters::StdStringAdapter>::visit(
    const constraints::MultipleOfDoubleConstraint&) {
  return true;
}

}  // namespace valijson
