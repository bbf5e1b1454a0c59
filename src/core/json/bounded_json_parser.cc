#include "core/json/bounded_json_parser.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/json/json_refusals.h"
#include "core/json/json_text.h"

namespace codemode::internal {

bool BoundedJsonBuilder::null() { return add(Json(nullptr), 4); }

bool BoundedJsonBuilder::boolean(bool value) { return add(Json(value), value ? 4 : 5); }

bool BoundedJsonBuilder::number_integer(std::int64_t value) {
  if (value > kMaxSafeInteger || value < -kMaxSafeInteger) return refuse(unsafe_integer_refusal());
  return add(Json(value), format_integer(value).view().size());
}

bool BoundedJsonBuilder::number_unsigned(std::uint64_t value) {
  if (value > static_cast<std::uint64_t>(kMaxSafeInteger)) return refuse(unsafe_integer_refusal());
  return add(Json(value), format_unsigned(value).view().size());
}

bool BoundedJsonBuilder::number_float(double value, const std::string& /*text*/) {
  if (!std::isfinite(value)) return refuse(non_finite_refusal());
  if (!is_plain_number(value)) return refuse(unsafe_integer_refusal());
  // 2.0 is the integer 2 in JavaScript; storing it as one keeps schemas' "integer" type and Json
  // equality in step with what a program sees. It is a safe integer here, so the cast is exact.
  if (std::trunc(value) == value) {
    const auto integer = static_cast<std::int64_t>(value);
    return add(Json(integer), format_integer(integer).view().size());
  }
  return add(Json(value), format_number(value).view().size());
}

bool BoundedJsonBuilder::string(std::string& value) {
  const std::optional<std::size_t> length = quoted_length(value);
  if (!length) return refuse(utf8_refusal());
  return add(Json(std::move(value)), *length);
}

// Only binary formats (CBOR, MessagePack) produce this; parse_json reads JSON text.
bool BoundedJsonBuilder::binary(Json::binary_t& /*value*/) {
  return refuse(binary_value_refusal());
}

bool BoundedJsonBuilder::start_object(std::size_t /*elements*/) { return open(Json::object()); }

bool BoundedJsonBuilder::start_array(std::size_t /*elements*/) { return open(Json::array()); }

bool BoundedJsonBuilder::end_object() { return close(); }

bool BoundedJsonBuilder::end_array() { return close(); }

bool BoundedJsonBuilder::key(std::string& key) {
  Json& object = *open_.back();
  if (is_reserved_key(key)) return refuse(reserved_key_refusal());
  if (object.contains(key)) return refuse(duplicate_key_refusal());
  const std::optional<std::size_t> length = quoted_length(key);
  if (!length) return refuse(utf8_refusal());
  // The comma before this member (if any), the quoted key and its colon.
  if (!reserve((object.empty() ? 0 : 1) + *length + 1)) return false;
  pending_member_ = &object[std::move(key)];
  return true;
}

bool BoundedJsonBuilder::parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                                     const Json::exception& error) {
  // nlohmann reports a literal that overflows a double (1e400) as out_of_range.406 rather than
  // calling number_float with infinity.
  constexpr int kNumberOverflow = 406;
  if (error.id == kNumberOverflow) return refuse(non_finite_refusal());
  // nlohmann's message quotes the offending token; it is data, so it is dropped.
  return refuse(syntax_refusal());
}

Result<Json> BoundedJsonBuilder::finish(bool parsed) && {
  if (error_) return std::move(*error_);
  if (!parsed || !open_.empty()) return syntax_refusal();
  return std::move(root_);
}

// Places one value at the current position after counting it against every limit.
bool BoundedJsonBuilder::add(Json value, std::size_t text_bytes) {
  if (static_cast<std::ptrdiff_t>(open_.size()) > limits_.max_depth) {
    return refuse(depth_refusal(limits_.max_depth));
  }
  if (++values_ > limits_.max_values) return refuse(values_refusal(limits_.max_values));
  Json* parent = open_.empty() ? nullptr : open_.back();
  const bool needs_comma = parent != nullptr && parent->is_array() && !parent->empty();
  if (!reserve(text_bytes + (needs_comma ? 1 : 0))) return false;
  if (parent == nullptr) {
    root_ = std::move(value);
  } else if (parent->is_array()) {
    parent->push_back(std::move(value));
  } else {
    *pending_member_ = std::move(value);
  }
  return true;
}

// Adds an empty container (its two brackets counted) and makes it the innermost open one.
bool BoundedJsonBuilder::open(Json empty) {
  if (!add(std::move(empty), 2)) return false;
  Json* parent = open_.empty() ? nullptr : open_.back();
  if (parent == nullptr) {
    open_.push_back(&root_);
  } else if (parent->is_array()) {
    open_.push_back(&parent->back());
  } else {
    open_.push_back(pending_member_);
  }
  return true;
}

bool BoundedJsonBuilder::close() {
  open_.pop_back();
  return true;
}

bool BoundedJsonBuilder::reserve(std::size_t bytes) {
  if (bytes > limits_.max_bytes - std::min(bytes_, limits_.max_bytes)) {
    return refuse(bytes_refusal(limits_.max_bytes));
  }
  bytes_ += bytes;
  return true;
}

bool BoundedJsonBuilder::refuse(Error error) {
  if (!error_) error_ = std::move(error);
  return false;
}

}  // namespace codemode::internal
