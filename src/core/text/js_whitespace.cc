#include "core/text/js_whitespace.h"

#include <array>

namespace codemode::internal {
namespace {

// ECMAScript WhiteSpace (TAB, VT, FF, SP, NBSP, ZWNBSP and category Zs) and LineTerminator
// (LF, CR, LS, PS), written as UTF-8.
constexpr std::array<std::string_view, 25> kWhitespace{
    "\t",           "\v",           "\f",           " ",
    "\n",           "\r",           "\xC2\xA0",     "\xEF\xBB\xBF",
    "\xE1\x9A\x80", "\xE2\x80\x80", "\xE2\x80\x81", "\xE2\x80\x82",
    "\xE2\x80\x83", "\xE2\x80\x84", "\xE2\x80\x85", "\xE2\x80\x86",
    "\xE2\x80\x87", "\xE2\x80\x88", "\xE2\x80\x89", "\xE2\x80\x8A",
    "\xE2\x80\xA8", "\xE2\x80\xA9", "\xE2\x80\xAF", "\xE2\x81\x9F",
    "\xE3\x80\x80",
};

// The length of the whitespace character `text` starts with, or 0.
std::size_t leading_whitespace(std::string_view text) {
  for (std::string_view space : kWhitespace) {
    if (text.starts_with(space)) return space.size();
  }
  return 0;
}

}  // namespace

bool is_js_blank(std::string_view utf8) {
  while (!utf8.empty()) {
    const std::size_t length = leading_whitespace(utf8);
    if (length == 0) return false;
    utf8.remove_prefix(length);
  }
  return true;
}

}  // namespace codemode::internal
