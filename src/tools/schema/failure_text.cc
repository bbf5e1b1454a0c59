#include "tools/schema/failure_text.h"

namespace codemode::internal {
namespace {

constexpr std::string_view kCut = "...";

// One byte of a name as it is written: itself, or an escape that is never split.
std::string piece(char ch, std::string_view also_escaped) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  const auto c = static_cast<unsigned char>(ch);
  if (ch == '\\' || also_escaped.find(ch) != std::string_view::npos) return {'\\', ch};
  if (c >= 0x20 && c <= 0x7E) return {ch};
  return {'\\', 'x', kHex[c >> 4], kHex[c & 0xF]};
}

// Appends `text` to `out` unless `out` would then exceed `max` (less room for kCut); false once
// it no longer fits, after appending kCut.
bool append_within(std::string& out, const std::string& text, std::size_t max) {
  if (out.size() + text.size() + kCut.size() > max) {
    out += kCut;
    return false;
  }
  out += text;
  return true;
}

}  // namespace

std::string pointer_text(const std::vector<std::string>& tokens) {
  if (tokens.empty()) return "(root)";
  std::string out;
  for (const std::string& token : tokens) {
    if (!append_within(out, "/", kMaxPointerBytes)) return out;
    for (char ch : token) {
      const std::string text = ch == '~' ? "~0" : ch == '/' ? "~1" : piece(ch, "");
      if (!append_within(out, text, kMaxPointerBytes)) return out;
    }
  }
  return out;
}

std::string quoted_name(std::string_view name) {
  std::string out = "\"";
  for (char ch : name) {
    // The closing quote is not counted: the cut keeps room for it.
    if (!append_within(out, piece(ch, "\""), kMaxNameBytes - 1)) break;
  }
  return out + "\"";
}

}  // namespace codemode::internal
