// parse_json, check_json and serialize_json: the JSON boundary (see codemode/json.h).
#include "codemode/json.h"

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

#include "core/json/bounded_json_parser.h"
#include "core/json/json_refusals.h"
#include "core/json/json_text.h"
#include "core/json/json_writer.h"

namespace codemode {
namespace {

// max_bytes limits the *compact* size, but text may carry whitespace and escapes that the compact
// form drops, so the raw text cannot be held to max_bytes itself. To bound the work done before
// the compact size is known, text longer than 4 * max_bytes + 64 KiB is refused unread: room for
// pretty-printing with deep indentation, \u escapes of most characters, and a small document sent
// with generous formatting.
constexpr std::size_t kTextFactor = 4;
constexpr std::size_t kTextSlack = 64 * 1024;

std::size_t max_text_bytes(std::size_t max_bytes) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  if (max_bytes > (kMax - kTextSlack) / kTextFactor) return kMax;
  return max_bytes * kTextFactor + kTextSlack;
}

// Converts what nlohmann may throw (it should not: the handler reports every error) into a value.
bool run_parser(std::string_view text, internal::BoundedJsonBuilder& builder) {
  try {
    return Json::sax_parse(text.begin(), text.end(), &builder, Json::input_format_t::json,
                           /*strict=*/true, /*ignore_comments=*/false);
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

Result<Json> parse_json(std::string_view text, const JsonLimits& limits) {
  const std::size_t max_text = max_text_bytes(limits.max_bytes);
  if (text.size() > max_text) return internal::text_bytes_refusal(max_text);
  // nlohmann checks UTF-8 inside strings only and calls any failure a syntax error; checking the
  // whole text first names the rule.
  if (!internal::is_valid_utf8(text)) return internal::utf8_refusal();
  internal::BoundedJsonBuilder builder(limits);
  const bool parsed = run_parser(text, builder);
  return std::move(builder).finish(parsed);
}

Result<std::size_t> check_json(const Json& value, const JsonLimits& limits) {
  return internal::write_json(value, limits, internal::KeyOrder::kStored, nullptr);
}

Result<std::string> serialize_json(const Json& value, const JsonLimits& limits) {
  std::string text;
  Result<std::size_t> written =
      internal::write_json(value, limits, internal::KeyOrder::kStored, &text);
  if (!written.ok()) return std::move(written).error();
  return text;
}

}  // namespace codemode
