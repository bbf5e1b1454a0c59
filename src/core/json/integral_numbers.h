// JavaScript has one number type, so 2.0 and 2 are the same value there; Json keeps them apart
// (a float and an integer), and so do valijson's "integer" type and its multipleOf arithmetic.
// These helpers erase the difference wherever a value is about to be judged. Internal.
#ifndef CODEMODE_CORE_JSON_INTEGRAL_NUMBERS_H_
#define CODEMODE_CORE_JSON_INTEGRAL_NUMBERS_H_

#include "codemode/json.h"

namespace codemode::internal {

// True when `value` holds, at any depth, a float whose value is an integer (2.0, -0.0).
bool has_integral_float(const Json& value);

// Rewrites every such float in `value` as an integer. Iterative.
// REQUIRES: check_json(value).ok(), so every integral float is a safe integer.
void integral_floats_to_integers(Json& value);

}  // namespace codemode::internal

#endif  // CODEMODE_CORE_JSON_INTEGRAL_NUMBERS_H_
