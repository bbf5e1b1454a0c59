#include "core/text/utf16.h"

#include <gtest/gtest.h>

namespace codemode::internal {
namespace {

TEST(Utf16LengthTest, AsciiCountsOneUnitPerByte) { EXPECT_EQ(utf16_length("abc"), 3u); }

TEST(Utf16LengthTest, BmpCharactersCountOneUnitWhateverTheirUtf8Length) {
  EXPECT_EQ(utf16_length("\xC3\xA9"), 1u);      // é, two bytes
  EXPECT_EQ(utf16_length("\xE2\x82\xAC"), 1u);  // €, three bytes
}

TEST(Utf16LengthTest, AstralCharactersCountTwoUnits) {
  EXPECT_EQ(utf16_length("\xF0\x9F\x98\x80"), 2u);  // U+1F600
  EXPECT_EQ(utf16_length("a\xF0\x9F\x98\x80"), 3u);
}

TEST(Utf16LengthTest, MalformedBytesCountOneUnitEach) {
  EXPECT_EQ(utf16_length("\xFF\x80"), 2u);      // invalid lead, stray continuation
  EXPECT_EQ(utf16_length("\xE2\x82"), 2u);      // a three-byte sequence cut short
  EXPECT_EQ(utf16_length("\xE2\x41\x42"), 3u);  // a lead followed by ASCII
}

TEST(TruncateUtf16Test, KeepsShortStringsWhole) {
  EXPECT_EQ(truncate_utf16("abc", 3), "abc");
  EXPECT_EQ(truncate_utf16("abc", 10), "abc");
}

TEST(TruncateUtf16Test, CutsAtTheUnitLimit) {
  EXPECT_EQ(truncate_utf16("abcdef", 4), "abcd");
  EXPECT_EQ(truncate_utf16("abc", 0), "");
}

TEST(TruncateUtf16Test, NeverSplitsASurrogatePair) {
  EXPECT_EQ(truncate_utf16("a\xF0\x9F\x98\x80", 2), "a");
  EXPECT_EQ(truncate_utf16("a\xF0\x9F\x98\x80", 3), "a\xF0\x9F\x98\x80");
}

TEST(TruncateUtf16Test, NeverSplitsAUtf8Sequence) {
  EXPECT_EQ(truncate_utf16("\xE2\x82\xAC\xE2\x82\xAC", 1), "\xE2\x82\xAC");
  EXPECT_EQ(truncate_utf16("x\xC3\xA9y", 2), "x\xC3\xA9");
}

}  // namespace
}  // namespace codemode::internal
