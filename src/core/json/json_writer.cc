#include "core/json/json_writer.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include "core/json/json_refusals.h"
#include "core/json/json_text.h"

namespace codemode::internal {
namespace {

// One open container: its members in output order (key is null for array elements).
struct Frame {
  std::vector<std::pair<const std::string*, const Json*>> members;
  std::size_t next = 0;
  char close = ']';
};

class Writer {
 public:
  Writer(const JsonLimits& limits, KeyOrder order, std::string* out)
      : limits_(limits), order_(order), out_(out) {}

  Result<std::size_t> run(const Json& root) {
    Status status = enter(root);
    while (status.ok() && !stack_.empty()) status = step();
    if (!status.ok()) return std::move(status).error();
    return bytes_;
  }

 private:
  // Writes the next member of the innermost container, or closes it.
  Status step() {
    Frame& frame = stack_.back();
    if (frame.next == frame.members.size()) {
      const char close = frame.close;
      stack_.pop_back();
      return put(std::string_view(&close, 1));
    }
    const auto [key, value] = frame.members[frame.next++];
    if (frame.next > 1) {
      if (Status s = put(","); !s.ok()) return s;
    }
    if (key != nullptr) {
      if (Status s = put_key(*key); !s.ok()) return s;
    }
    return enter(*value);  // may push a frame: `frame` is not used after this
  }

  // Counts one value at the current depth, then writes it or opens it.
  Status enter(const Json& value) {
    if (static_cast<std::ptrdiff_t>(stack_.size()) > limits_.max_depth) {
      return depth_refusal(limits_.max_depth);
    }
    if (++values_ > limits_.max_values) return values_refusal(limits_.max_values);
    if (value.is_object() || value.is_array()) return open(value);
    return put_scalar(value);
  }

  Status open(const Json& container) {
    // Every member is at least one more value, so an oversized container fails before its
    // member list is built.
    if (container.size() > limits_.max_values - values_) return values_refusal(limits_.max_values);
    Frame frame;
    frame.members.reserve(container.size());
    if (container.is_array()) {
      for (const Json& element : container) frame.members.emplace_back(nullptr, &element);
    } else {
      frame.close = '}';
      for (auto it = container.begin(); it != container.end(); ++it) {
        frame.members.emplace_back(&it.key(), &it.value());
      }
      if (order_ == KeyOrder::kUtf16) sort_keys(frame);
    }
    if (Status s = put(container.is_array() ? "[" : "{"); !s.ok()) return s;
    stack_.push_back(std::move(frame));
    return {};
  }

  static void sort_keys(Frame& frame) {
    std::sort(frame.members.begin(), frame.members.end(),
              [](const auto& a, const auto& b) { return utf16_less(*a.first, *b.first); });
  }

  Status put_scalar(const Json& value) {
    switch (value.type()) {
      case Json::value_t::null:
        return put("null");
      case Json::value_t::boolean:
        return put(value.get<bool>() ? "true" : "false");
      case Json::value_t::string:
        return put_string(value.get_ref<const std::string&>());
      case Json::value_t::number_integer:
        return put_integer(value.get<std::int64_t>());
      case Json::value_t::number_unsigned:
        return put_unsigned(value.get<std::uint64_t>());
      case Json::value_t::number_float:
        return put_float(value.get<double>());
      default:
        return binary_value_refusal();  // binary, discarded
    }
  }

  Status put_integer(std::int64_t n) {
    if (n > kMaxSafeInteger || n < -kMaxSafeInteger) return unsafe_integer_refusal();
    return put(format_integer(n).view());
  }

  Status put_unsigned(std::uint64_t n) {
    if (n > static_cast<std::uint64_t>(kMaxSafeInteger)) return unsafe_integer_refusal();
    return put(format_unsigned(n).view());
  }

  Status put_float(double x) {
    if (!std::isfinite(x)) return non_finite_refusal();
    if (!is_plain_number(x)) return unsafe_integer_refusal();
    return put(format_number(x).view());
  }

  Status put_key(const std::string& key) {
    if (is_reserved_key(key)) return reserved_key_refusal();
    if (Status s = put_string(key); !s.ok()) return s;
    return put(":");
  }

  Status put_string(const std::string& text) {
    const std::optional<std::size_t> length = quoted_length(text);
    if (!length) return utf8_refusal();
    if (Status s = reserve(*length); !s.ok()) return s;
    if (out_ != nullptr) append_quoted(text, *out_);
    return {};
  }

  Status put(std::string_view token) {
    if (Status s = reserve(token.size()); !s.ok()) return s;
    if (out_ != nullptr) out_->append(token);
    return {};
  }

  Status reserve(std::size_t length) {
    if (length > limits_.max_bytes - std::min(bytes_, limits_.max_bytes)) {
      return bytes_refusal(limits_.max_bytes);
    }
    bytes_ += length;
    return {};
  }

  const JsonLimits& limits_;
  const KeyOrder order_;
  std::string* const out_;
  std::vector<Frame> stack_;
  std::size_t bytes_ = 0;
  std::size_t values_ = 0;
};

}  // namespace

Result<std::size_t> write_json(const Json& value, const JsonLimits& limits, KeyOrder order,
                               std::string* out) {
  return Writer(limits, order, out).run(value);
}

}  // namespace codemode::internal
