#include "worker/engine/engine_result.h"

#include <new>
#include <string_view>

#include <js/JSON.h>
#include <js/PropertyAndElement.h>

namespace codemode::worker {
namespace {

constexpr std::string_view kHolderPrefix = "{\"\":";
constexpr std::string_view kHolderSuffix = "}";

// Appends UTF-16 chunks to a UTF-8 string, holding a lead surrogate over a chunk boundary.
// JSON.stringify escapes lone surrogates, so its text is well-formed; anything else would become
// U+FFFD. It writes a backslash-u escape for nothing but a control character or a lone surrogate,
// so an escaped surrogate in its text is a lone one in the value: the sink notes it.
class Utf8Sink {
 public:
  Utf8Sink(std::string& out, std::uint64_t max_bytes) : out_(out), max_bytes_(max_bytes) {}

  static bool write(const char16_t* chunk, uint32_t length, void* data) {
    return static_cast<Utf8Sink*>(data)->append(chunk, length);
  }
  bool too_long() const { return too_long_; }
  bool out_of_memory() const { return out_of_memory_; }
  bool lone_surrogate() const { return lone_surrogate_; }
  void finish() {
    if (lead_ != 0) append_code_point(0xFFFD);
    lead_ = 0;
  }

 private:
  // Called from inside JS_Stringify: no exception may unwind through the engine's frames, so a
  // failed allocation (RLIMIT_DATA reached while the text grows) stops the writer like the cap.
  bool append(const char16_t* chunk, uint32_t length) {
    try {
      for (uint32_t i = 0; i < length; ++i) append_unit(chunk[i]);
    } catch (const std::bad_alloc&) {
      out_of_memory_ = true;
      return false;
    }
    too_long_ = out_.size() > max_bytes_;
    return !too_long_;  // false makes JS_Stringify stop at once
  }

  void append_unit(char16_t unit) {
    scan_escape(unit);
    if (lead_ != 0 && unit >= 0xDC00 && unit <= 0xDFFF) {
      append_code_point(0x10000 + ((lead_ - 0xD800) << 10) + (unit - 0xDC00));
      lead_ = 0;
      return;
    }
    if (lead_ != 0) append_code_point(0xFFFD);
    lead_ = 0;
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      lead_ = unit;
    } else {
      append_code_point(unit >= 0xDC00 && unit <= 0xDFFF ? 0xFFFD : unit);
    }
  }

  // Follows backslash-u escapes (six units) across chunks. An escaped backslash is a whole
  // escape, so the `u` after it is text.
  void scan_escape(char16_t unit) {
    switch (escape_) {
      case Escape::kNone:
        if (unit == u'\\') escape_ = Escape::kBackslash;
        return;
      case Escape::kBackslash:
        escape_ = unit == u'u' ? Escape::kHex : Escape::kNone;
        escaped_ = 0;
        hex_digits_ = 0;
        return;
      case Escape::kHex:
        escaped_ = escaped_ * 16 + hex_value(unit);
        if (++hex_digits_ < 4) return;
        if (escaped_ >= 0xD800 && escaped_ <= 0xDFFF) lone_surrogate_ = true;
        escape_ = Escape::kNone;
        return;
    }
  }

  static char32_t hex_value(char16_t unit) {
    if (unit >= u'0' && unit <= u'9') return unit - u'0';
    if (unit >= u'a' && unit <= u'f') return unit - u'a' + 10;
    if (unit >= u'A' && unit <= u'F') return unit - u'A' + 10;
    return 0;
  }

  void append_code_point(char32_t c) {
    if (c < 0x80) {
      out_.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out_.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out_.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out_.push_back(static_cast<char>(0xE0 | (c >> 12)));
      out_.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out_.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out_.push_back(static_cast<char>(0xF0 | (c >> 18)));
      out_.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out_.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out_.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }

  std::string& out_;
  const std::uint64_t max_bytes_;
  char16_t lead_ = 0;
  bool too_long_ = false;
  bool out_of_memory_ = false;
  enum class Escape { kNone, kBackslash, kHex } escape_ = Escape::kNone;
  char32_t escaped_ = 0;
  int hex_digits_ = 0;
  bool lone_surrogate_ = false;
};

}  // namespace

StringifyStatus stringify_result(JSContext* cx, JS::HandleValue value, std::uint64_t max_bytes,
                                 std::string& json) {
  // JS_Stringify writes "null" where JSON.stringify gives undefined (a function, a symbol, a
  // toJSON returning undefined). Stringifying the holder {"": value} tells them apart, as
  // {} against {"":...}; it is ECMAScript's own root holder (toJSON sees the key ""), with a null
  // prototype so the program's Object.prototype cannot reach it.
  JS::RootedObject holder(cx, JS_NewObjectWithGivenProto(cx, nullptr, nullptr));
  if (!holder || !JS_DefineProperty(cx, holder, "", value, JSPROP_ENUMERATE)) {
    return StringifyStatus::kFailed;
  }
  json.clear();
  Utf8Sink sink(json, max_bytes + kHolderPrefix.size() + kHolderSuffix.size());
  JS::RootedValue input(cx, JS::ObjectValue(*holder));
  const bool ok = JS_Stringify(cx, &input, nullptr, JS::NullHandleValue, Utf8Sink::write, &sink);
  if (sink.out_of_memory()) return StringifyStatus::kOutOfMemory;
  if (sink.too_long()) return StringifyStatus::kTooLong;
  if (!ok) return StringifyStatus::kFailed;
  sink.finish();
  if (!json.starts_with(kHolderPrefix)) return StringifyStatus::kNoJson;
  // In place: a copy of a result near the cap could fail where the text itself fit.
  json.resize(json.size() - kHolderSuffix.size());
  json.erase(0, kHolderPrefix.size());
  if (json.size() > max_bytes) return StringifyStatus::kTooLong;
  return sink.lone_surrogate() ? StringifyStatus::kLoneSurrogate : StringifyStatus::kWritten;
}

}  // namespace codemode::worker
