// Fuzzes the JSON boundary (codemode/json.h): parse_json, check_json and serialize_json, which
// every program input and result, tool input and output and frame body passes through.
//
// Input: byte 0 picks the limits (below 0x80 the defaults, otherwise small ones built from its
// bits); the rest is the text. Invariants:
//   - a parsed value keeps every promise of json.h: depth, value count, compact size, safe
//     integers, integral numbers stored as integers, valid UTF-8, no reserved keys;
//   - check_json accepts it with the size serialize_json writes; the written text has no raw
//     control characters and parses back to the same value, and writing that gives the same text;
//   - nlohmann's own parser agrees: what parse_json accepts it accepts as the same value, and what
//     it accepts parse_json refuses only for a rule, never as a syntax error;
//   - limits are exact: a value the defaults accept is refused under smaller limits exactly when
//     its depth, value count or compact size (measured here) exceeds them, for the rule that
//     names one that does; text accepted under small limits gives the same value by default;
//   - check_json judges any Json nlohmann built (duplicate keys, 2.0, 2^60, "__proto__", deep):
//     what it accepts serializes and round-trips, what it refuses is an INVALID_JSON rule;
//   - refusals are INVALID_JSON with one of the seven rules, and each rule has at most two fixed
//     messages under given limits (so none quotes the text).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.h"

namespace codemode::fuzz {
namespace {

// The refusal's form; `selector` names the limits, which the messages may mention.
void check_refusal(const Error& error, std::uint8_t selector) {
  FUZZ_CHECK(is_json_refusal(error));
  check_closed_message(error.rule + "/" + std::to_string(selector), error.message);
}

JsonLimits pick_limits(std::uint8_t selector) {
  if (selector < 0x80) return {};
  static constexpr int kDepths[] = {0, 1, 3, 8};
  const unsigned low = selector & 0x1F;
  return JsonLimits{.max_bytes = 1 + 8 * low,
                    .max_depth = kDepths[(selector >> 5) & 3],
                    .max_values = 1 + 3 * low};
}

// A value's measures, as json.h defines them.
struct Shape {
  int depth = 0;
  std::size_t values = 0;
  std::size_t bytes = 0;
};

// REQUIRES: check_json(value) (default limits) is ok.
Shape shape_of(const Json& value) {
  Shape shape;
  walk(value, [&](const Json&, int depth) {
    ++shape.values;
    shape.depth = std::max(shape.depth, depth);
  });
  shape.bytes = *check_json(value);
  return shape;
}

// `refusal` is what parse_json or check_json said under `limits` (null when accepted) about a
// value the default limits accept.
void check_limits_exact(const Error* refusal, const Json& value, const JsonLimits& limits) {
  const Shape shape = shape_of(value);
  const bool depth_over = shape.depth > limits.max_depth;
  const bool values_over = shape.values > limits.max_values;
  const bool bytes_over = shape.bytes > limits.max_bytes;
  FUZZ_CHECK((refusal == nullptr) == !(depth_over || values_over || bytes_over));
  if (refusal == nullptr) return;
  FUZZ_CHECK((refusal->rule == "json_depth_limit" && depth_over) ||
             (refusal->rule == "json_values_limit" && values_over) ||
             (refusal->rule == "json_bytes_limit" && bytes_over));
}

bool is_reserved(const std::string& key) {
  return key == "__proto__" || key == "constructor" || key == "prototype";
}

// What json.h promises of every value parse_json returns, checked without the library's help.
void check_promises(const Json& value, const JsonLimits& limits) {
  std::size_t values = 0;
  walk(value, [&](const Json& v, int depth) {
    ++values;
    FUZZ_CHECK(depth <= limits.max_depth);
    FUZZ_CHECK(!v.is_binary() && !v.is_discarded());
    if (v.is_number_integer()) {
      if (v.is_number_unsigned()) {
        FUZZ_CHECK(v.get<std::uint64_t>() <= static_cast<std::uint64_t>(kMaxSafeInteger));
      } else {
        const std::int64_t n = v.get<std::int64_t>();
        FUZZ_CHECK(n >= -kMaxSafeInteger && n <= kMaxSafeInteger);
      }
    }
    if (v.is_number_float()) {
      const double x = v.get<double>();
      FUZZ_CHECK(std::isfinite(x) && std::trunc(x) != x);
    }
    if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it) FUZZ_CHECK(!is_reserved(it.key()));
    }
  });
  FUZZ_CHECK(values <= limits.max_values);
  // nlohmann's strict dump throws on invalid UTF-8 in any string or key.
  try {
    (void)value.dump(-1, ' ', false, Json::error_handler_t::strict);
  } catch (const Json::exception&) {
    FUZZ_CHECK(false && "a parsed string is not valid UTF-8");
  }
}

// What serialize_json writes is compact, parses back to the same value, and is a fixed point.
void check_round_trip(const Json& value, const JsonLimits& limits) {
  Result<std::size_t> size = check_json(value, limits);
  FUZZ_CHECK(size.ok() && *size <= limits.max_bytes);
  Result<std::string> text = serialize_json(value, limits);
  FUZZ_CHECK(text.ok() && text->size() == *size);
  for (char c : *text) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20);
  Result<Json> again = parse_json(*text, limits);
  FUZZ_CHECK(again.ok() && *again == value);
  Result<std::string> rewritten = serialize_json(*again, limits);
  FUZZ_CHECK(rewritten.ok() && *rewritten == *text);
}

// A Json built by nlohmann breaks any rule it likes; check_json must tell which.
void check_foreign_value(const Json& foreign, std::uint8_t selector) {
  const JsonLimits limits = pick_limits(selector);
  Result<std::size_t> size = check_json(foreign, limits);
  if (check_json(foreign).ok())
    check_limits_exact(size.ok() ? nullptr : &size.error(), foreign, limits);
  if (!size.ok()) {
    check_refusal(size.error(), selector);
    FUZZ_CHECK(!serialize_json(foreign, limits).ok());
    return;
  }
  check_round_trip(foreign, limits);
}

void check_text(std::string_view text, std::uint8_t selector) {
  const JsonLimits limits = pick_limits(selector);
  Result<Json> parsed = parse_json(text, limits);
  const Json foreign = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  Result<Json> by_default = parse_json(text);
  if (by_default.ok()) {
    check_limits_exact(parsed.ok() ? nullptr : &parsed.error(), *by_default, limits);
  }
  if (!parsed.ok()) {
    check_refusal(parsed.error(), selector);
    if (!foreign.is_discarded()) FUZZ_CHECK(parsed.error().rule != "json_syntax");
  } else {
    check_promises(*parsed, limits);
    check_round_trip(*parsed, limits);
    FUZZ_CHECK(!foreign.is_discarded() && foreign == *parsed);
    FUZZ_CHECK(by_default.ok() && *by_default == *parsed);
  }
  if (!foreign.is_discarded()) check_foreign_value(foreign, selector);
}

}  // namespace
}  // namespace codemode::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codemode::fuzz;
  if (size < 1) return 0;
  check_text(as_text(data + 1, size - 1), data[0]);
  return 0;
}
