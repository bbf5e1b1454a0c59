#include "core/text/js_whitespace.h"

#include <gtest/gtest.h>

namespace codemode::internal {
namespace {

TEST(IsJsBlankTest, EmptyIsBlank) { EXPECT_TRUE(is_js_blank("")); }

TEST(IsJsBlankTest, AsciiWhitespaceAndLineTerminatorsAreBlank) {
  EXPECT_TRUE(is_js_blank(" \t\n\r\v\f"));
}

TEST(IsJsBlankTest, UnicodeSpacesAreBlankAsInStringTrim) {
  EXPECT_TRUE(is_js_blank("\xC2\xA0"));                   // NO-BREAK SPACE
  EXPECT_TRUE(is_js_blank("\xEF\xBB\xBF"));               // ZERO WIDTH NO-BREAK SPACE
  EXPECT_TRUE(is_js_blank("\xE3\x80\x80 \xE2\x80\xA8"));  // IDEOGRAPHIC SPACE, LINE SEPARATOR
}

TEST(IsJsBlankTest, AnyOtherCharacterIsNotBlank) {
  EXPECT_FALSE(is_js_blank(" a "));
  EXPECT_FALSE(is_js_blank("\xE2\x80\x8B"));  // ZERO WIDTH SPACE is not whitespace in ECMAScript
  EXPECT_FALSE(is_js_blank("\xC2"));          // a truncated sequence
}

}  // namespace
}  // namespace codemode::internal
