#include "worker/engine/engine_strings.h"

#include <algorithm>

#include <js/CharacterEncoding.h>
#include <js/String.h>

namespace codemode::worker {
namespace {

bool is_lead_surrogate(char16_t unit) { return unit >= 0xD800 && unit <= 0xDBFF; }

// `str` as UTF-8 (lone surrogates become U+FFFD). Embedded NULs are kept.
std::optional<std::string> copy_whole_string(JSContext* cx, JSString* str) {
  JSLinearString* linear = JS_EnsureLinearString(cx, str);
  if (!linear) return std::nullopt;
  std::string out(JS::GetDeflatedUTF8StringLength(linear), '\0');
  out.resize(JS::DeflateStringToUTF8Buffer(linear, mozilla::Span<char>(out.data(), out.size())));
  return out;
}

}  // namespace

std::optional<std::string> copy_capped_string(JSContext* cx, JS::HandleString str,
                                              std::size_t max_units) {
  const std::size_t length = JS_GetStringLength(str);
  std::size_t keep = std::min(length, max_units);
  if (keep < length && keep > 0) {
    char16_t last = 0;
    if (!JS_GetStringCharAt(cx, str, keep - 1, &last)) return std::nullopt;
    if (is_lead_surrogate(last)) --keep;
  }
  JS::RootedString prefix(cx, keep == length ? str.get() : JS_NewDependentString(cx, str, 0, keep));
  if (!prefix) return std::nullopt;
  return copy_whole_string(cx, prefix);
}

std::optional<std::string> copy_string_argument(JSContext* cx, JS::HandleValue value,
                                                std::size_t max_units) {
  if (!value.isString() || JS_GetStringLength(value.toString()) > max_units) return std::nullopt;
  return copy_whole_string(cx, value.toString());
}

JSString* new_string(JSContext* cx, std::string_view utf8) {
  return JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(utf8.data(), utf8.size()));
}

}  // namespace codemode::worker
