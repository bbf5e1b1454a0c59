// The JSON boundary. Every value that crosses a trust boundary (program input and result, tool
// input and output, frames from the worker) passes through parse_json or check_json here, so a
// value inside codemode is always bounded, plain JSON:
//   - at most `max_bytes` when written compactly (the JSON.stringify length, UTF-8 bytes);
//   - nested at most `max_depth` levels (the root is depth 0; each container adds one; a value
//     deeper than max_depth is refused);
//   - at most `max_values` values (every value counts once, keys do not);
//   - numbers are finite, and integral numbers are safe integers (|n| <= 2^53 - 1), so every
//     number means the same thing to JavaScript;
//   - strings are valid UTF-8; object keys are unique and never "__proto__", "constructor" or
//     "prototype" (they would reach JavaScript prototypes on the other side).
// Refusals are Errors with code INVALID_JSON and a rule: json_syntax, json_bytes_limit,
// json_depth_limit, json_values_limit, json_number, json_string, json_key.
//
// Json is nlohmann::json. Object keys are kept sorted (by UTF-8 bytes), so the order in which a
// program wrote its keys is not preserved; JSON gives key order no meaning.
//
// canonical_json writes RFC 8785 (JCS) text: no whitespace, keys sorted by UTF-16 code units,
// numbers and strings as ECMAScript's JSON.stringify writes them. Digests are computed over it.
//
// Thread-safety: every function here is pure and may be called from any thread.
#ifndef CODEMODE_JSON_H_
#define CODEMODE_JSON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "codemode/error.h"
#include "codemode/export.h"

namespace codemode {

using Json = nlohmann::json;

// 2^53 - 1: the largest integer JavaScript represents exactly.
inline constexpr std::int64_t kMaxSafeInteger = 9'007'199'254'740'991;

struct JsonLimits {
  // Compact serialized size in UTF-8 bytes. Default 1 MiB.
  std::size_t max_bytes = 1u << 20;
  // Deepest allowed nesting; the root is depth 0. Default and maximum 32.
  int max_depth = 32;
  // Values counted (scalars and containers, not keys). Default and maximum 100,000.
  std::size_t max_values = 100'000;
};

// Parses `text` as one bounded, plain JSON document. Work is bounded by the limits: a text longer
// than 4 * max_bytes + 64 KiB (room for whitespace and escapes) is refused before it is parsed,
// and depth, value count and compact size are checked while parsing. Integral numbers (2.0, 1e2)
// are stored as integers, since JavaScript has one number type.
CODEMODE_EXPORT Result<Json> parse_json(std::string_view text, const JsonLimits& limits = {});

// Checks that `value` is bounded, plain JSON and returns its compact serialized size in bytes.
CODEMODE_EXPORT Result<std::size_t> check_json(const Json& value, const JsonLimits& limits = {});

// Writes `value` compactly, exactly as JavaScript's JSON.stringify would write it (object keys in
// Json's order). Refuses what check_json refuses.
CODEMODE_EXPORT Result<std::string> serialize_json(const Json& value,
                                                   const JsonLimits& limits = {});

// RFC 8785 canonical JSON of `value`. Refuses what check_json refuses.
CODEMODE_EXPORT Result<std::string> canonical_json(const Json& value,
                                                   const JsonLimits& limits = {});

// Lowercase hex SHA-256 of `bytes`. Returns an empty string (never equal to a digest) only if
// OpenSSL itself fails, e.g. cannot allocate.
CODEMODE_EXPORT std::string sha256_hex(std::string_view bytes);

}  // namespace codemode

#endif  // CODEMODE_JSON_H_
