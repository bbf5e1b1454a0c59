// Fuzzes canonical_json (codemode/json.h), the RFC 8785 text that program digests, approvals and
// audit records are computed over: two texts of one value must never digest differently.
//
// Input: JSON text. It is parsed by parse_json and, separately, by nlohmann's own parser, which
// builds values parse_json never returns (2.0 as a float, duplicate keys collapsed, unsafe
// integers, reserved keys). Invariants:
//   - canonical_json never throws, and refuses exactly what check_json refuses;
//   - idempotence: canonical(parse(canonical(x))) == canonical(x), and parse(canonical(x)) == x;
//   - canonical text is serialize_json's text with members reordered: same length, same bytes;
//   - it has no whitespace or raw control character outside strings, keys are sorted by UTF-16
//     code units (checked with a converter written here), and each number is written as
//     ECMAScript's Number::toString writes it (checked with shortest digits found by printf);
//   - a value nlohmann built digests like the same value parsed by parse_json.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.h"

namespace codemode::fuzz {
namespace {

// The UTF-16 code units of valid UTF-8 `text`.
std::u16string utf16_units(std::string_view text) {
  std::u16string units;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    static constexpr unsigned kLeadBits[] = {0, 0x7F, 0x1F, 0x0F, 0x07};
    char32_t cp = lead & kLeadBits[length];
    for (std::size_t j = 1; j < length; ++j) cp = (cp << 6) | (text[i + j] & 0x3F);
    i += length;
    if (cp < 0x10000) {
      units += static_cast<char16_t>(cp);
    } else {
      units += static_cast<char16_t>(0xD800 + ((cp - 0x10000) >> 10));
      units += static_cast<char16_t>(0xDC00 + ((cp - 0x10000) & 0x3FF));
    }
  }
  return units;
}

// Keys of every object in the canonical text, in the order the text has them, ascend strictly.
void check_key_order(std::string_view canonical) {
  const nlohmann::ordered_json ordered = nlohmann::ordered_json::parse(canonical);
  std::vector<const nlohmann::ordered_json*> stack{&ordered};
  while (!stack.empty()) {
    const nlohmann::ordered_json& value = *stack.back();
    stack.pop_back();
    if (!value.is_structured()) continue;
    const std::u16string* previous = nullptr;
    std::u16string last;
    for (auto it = value.begin(); it != value.end(); ++it) {
      if (value.is_object()) {
        std::u16string key = utf16_units(it.key());
        FUZZ_CHECK(previous == nullptr || *previous < key);
        last = std::move(key);
        previous = &last;
      }
      stack.push_back(&*it);
    }
  }
}

// ECMAScript Number::toString(x) (ES2023 6.1.6.1.20), with the shortest round-trip digits found
// by asking printf for 1, 2, ... 17 significant digits.
std::string ecmascript_number(double x) {
  if (x == 0) return "0";
  std::string sign = x < 0 ? "-" : "";
  x = std::fabs(x);
  char sci[40];
  for (int precision = 0; precision < 17; ++precision) {
    std::snprintf(sci, sizeof(sci), "%.*e", precision, x);
    if (std::strtod(sci, nullptr) == x) break;
  }
  const std::string_view text(sci);
  const std::size_t e = text.find('e');
  std::string digits;
  for (char c : text.substr(0, e)) {
    if (c != '.') digits += c;
  }
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  const int k = static_cast<int>(digits.size());
  const int n = std::atoi(std::string(text.substr(e + 1)).c_str()) + 1;
  if (k <= n && n <= 21) return sign + digits + std::string(n - k, '0');
  if (0 < n && n <= 21) return sign + digits.substr(0, n) + "." + digits.substr(n);
  if (-6 < n && n <= 0) return sign + "0." + std::string(-n, '0') + digits;
  const std::string mantissa = k == 1 ? digits : digits.substr(0, 1) + "." + digits.substr(1);
  return sign + mantissa + "e" + (n - 1 > 0 ? "+" : "-") + std::to_string(std::abs(n - 1));
}

// Outside strings: no space, and every number token written as JavaScript writes it.
void check_tokens(std::string_view canonical) {
  for (char c : canonical) FUZZ_CHECK(static_cast<unsigned char>(c) >= 0x20);
  bool in_string = false;
  for (std::size_t i = 0; i < canonical.size(); ++i) {
    const char c = canonical[i];
    if (in_string) {
      if (c == '\\') ++i;
      in_string = c != '"';
      continue;
    }
    FUZZ_CHECK(c != ' ');
    if (c == '"') in_string = true;
    if (c != '-' && (c < '0' || c > '9')) continue;
    const std::size_t end = canonical.find_first_not_of("0123456789.eE+-", i);
    const std::string token(canonical.substr(i, end - i));
    FUZZ_CHECK(token == ecmascript_number(std::strtod(token.c_str(), nullptr)));
    i = (end == std::string_view::npos ? canonical.size() : end) - 1;
  }
}

// The canonical text of an accepted value, checked every way above; returns it.
std::string check_canonical(const Json& value) {
  Result<std::string> canonical = canonical_json(value);
  Result<std::string> serialized = serialize_json(value);
  FUZZ_CHECK(canonical.ok() && serialized.ok());
  FUZZ_CHECK(canonical->size() == serialized->size());
  std::string a = *canonical, b = *serialized;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  FUZZ_CHECK(a == b);
  check_tokens(*canonical);
  check_key_order(*canonical);
  Result<Json> reparsed = parse_json(*canonical);
  FUZZ_CHECK(reparsed.ok() && *reparsed == value);
  Result<std::string> again = canonical_json(*reparsed);
  FUZZ_CHECK(again.ok() && *again == *canonical);
  FUZZ_CHECK(sha256_hex(*again) == sha256_hex(*canonical) && sha256_hex(*again).size() == 64);
  return *canonical;
}

void check_foreign(const Json& foreign) {
  Result<std::size_t> size = check_json(foreign);
  Result<std::string> canonical = canonical_json(foreign);
  FUZZ_CHECK(size.ok() == canonical.ok());
  if (!canonical.ok()) {
    FUZZ_CHECK(canonical.error() == size.error());
    return;
  }
  const std::string text = check_canonical(foreign);
  Result<std::string> serialized = serialize_json(foreign);
  FUZZ_CHECK(serialized.ok());
  Result<Json> plain = parse_json(*serialized);
  FUZZ_CHECK(plain.ok() && check_canonical(*plain) == text);
}

}  // namespace
}  // namespace codemode::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codemode::fuzz;
  const std::string_view text = as_text(data, size);
  if (codemode::Result<codemode::Json> parsed = codemode::parse_json(text); parsed.ok()) {
    check_canonical(*parsed);
  }
  const codemode::Json foreign = codemode::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!foreign.is_discarded()) check_foreign(foreign);
  return 0;
}
