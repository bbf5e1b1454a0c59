// Fuzzes erase_types (src/worker/typescript/type_eraser.h), which the worker runs on the program
// text a model wrote before the engine sees it.
//
// Input: program text. Invariants:
//   - it never crashes, and answers text or a refusal;
//   - text has the input's length, each line terminator where it was, each line the same UTF-16
//     length, and every byte either the input's, whitespace, or a `;` or `)` written into erased
//     space;
//   - erasing the text again leaves it unchanged (skipped when it holds `<`: `a < b as T > (c)`
//     erases to `a < b      > (c)`, which TypeScript itself reads as a call);
//   - a refusal has a reason, a 1-based line and column within the input, and a message; an
//     unsupported construct is named, and its message quotes it and its line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "fuzz_check.h"
#include "worker/typescript/type_eraser.h"

namespace codemode::fuzz {
namespace {

using worker::ErasureRefusal;

bool is_line_terminator(std::string_view text, std::size_t i) {
  return text[i] == '\n' || text[i] == '\r' ||
         (text.substr(i, 2) == "\xE2\x80" && i + 2 < text.size() &&
          (text[i + 2] == '\xA8' || text[i + 2] == '\xA9'));
}

// The length of the well-formed UTF-8 sequence at `i` (RFC 3629's table), or 0.
std::size_t sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t j) {
    return j < text.size() ? static_cast<unsigned char>(text[j]) : 0u;
  };
  const unsigned lead = byte(i);
  const auto in = [&](std::size_t j, unsigned low, unsigned high) {
    return byte(j) >= low && byte(j) <= high;
  };
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return in(i + 1, 0x80, 0xBF) ? 2 : 0;
  if (lead >= 0xE0 && lead <= 0xEF) {
    const unsigned low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
    return in(i + 1, low, high) && in(i + 2, 0x80, 0xBF) ? 3 : 0;
  }
  if (lead >= 0xF0 && lead <= 0xF4) {
    const unsigned low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
    return in(i + 1, low, high) && in(i + 2, 0x80, 0xBF) && in(i + 3, 0x80, 0xBF) ? 4 : 0;
  }
  return 0;
}

// UTF-16 units of each line, counting a byte that starts no well-formed sequence as one (the
// replacement character it decodes to).
std::string line_widths(std::string_view text) {
  std::string widths;
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (is_line_terminator(text, i)) {
      widths += std::to_string(width) + ",";
      width = 0;
      i += text[i] == '\xE2' ? 3 : 1;
      continue;
    }
    const std::size_t length = sequence_length(text, i);
    width += length == 4 ? 2 : 1;
    i += length == 0 ? 1 : length;
  }
  return widths + std::to_string(width);
}

void check_text(std::string_view source, const std::string& erased) {
  FUZZ_CHECK(erased.size() == source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    FUZZ_CHECK(is_line_terminator(source, i) == is_line_terminator(erased, i) ||
               (i > 0 && source[i - 1] == '\xE2') || (i > 1 && source[i - 2] == '\xE2'));
    if (erased[i] == source[i]) continue;
    const auto byte = static_cast<unsigned char>(erased[i]);
    FUZZ_CHECK(byte == ' ' || byte >= 0x80 || byte == ';' || byte == ')');
  }
  FUZZ_CHECK(line_widths(erased) == line_widths(source));
  if (source.find('<') != std::string_view::npos) return;
  const auto again = worker::erase_types(erased);
  FUZZ_CHECK(std::holds_alternative<std::string>(again) && std::get<std::string>(again) == erased);
}

void check_refusal(std::string_view source, const ErasureRefusal& refusal) {
  FUZZ_CHECK(!refusal.message.empty());
  FUZZ_CHECK(refusal.line >= 1 && refusal.column >= 1);
  FUZZ_CHECK(static_cast<std::size_t>(refusal.line) <= source.size() + 1);
  FUZZ_CHECK(static_cast<std::size_t>(refusal.column) <= source.size() + 1);
  if (refusal.reason == ErasureRefusal::Reason::kUnsupported) {
    FUZZ_CHECK(!refusal.construct.empty());
    FUZZ_CHECK(refusal.message.find("`" + refusal.construct + "`") != std::string::npos);
    FUZZ_CHECK(refusal.message.find("(line " + std::to_string(refusal.line) + ")") !=
               std::string::npos);
  } else {
    FUZZ_CHECK(refusal.construct.empty());
  }
  FUZZ_CHECK(refusal.reason != ErasureRefusal::Reason::kTooLarge ||
             source.size() > worker::kMaxTypeScriptSourceBytes);
}

}  // namespace
}  // namespace codemode::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace codemode::fuzz;
  const std::string_view source = as_text(data, size);
  const auto result = codemode::worker::erase_types(source);
  if (const auto* erased = std::get_if<std::string>(&result)) {
    check_text(source, *erased);
  } else {
    check_refusal(source, std::get<ErasureRefusal>(result));
  }
  return 0;
}
