// Tests for the ECMA 262 -> RE2 translation (src/tools/schema/ecma_regex.cc): each case is
// an ECMA 262 pattern and a text, checked through RE2 the way Schema does (an unanchored search),
// against what JavaScript answers for `new RegExp(pattern).test(text)` (with the "u" flag's code
// points).
#include "tools/schema/ecma_regex.h"

#include <string>
#include <variant>

#include <re2/re2.h>

#include <gtest/gtest.h>

namespace codemode::internal {
namespace {

// Whether RE2, given the translation of `pattern`, finds a match in `text`.
bool matches(const std::string& pattern, const std::string& text) {
  const std::variant<std::string, EcmaRegexRefusal> translated = ecma_regex_to_re2(pattern);
  EXPECT_TRUE(std::holds_alternative<std::string>(translated)) << pattern;
  if (!std::holds_alternative<std::string>(translated)) return false;
  RE2::Options options;
  options.set_log_errors(false);
  const RE2 re(std::get<std::string>(translated), options);
  EXPECT_TRUE(re.ok()) << pattern << " -> " << std::get<std::string>(translated);
  return RE2::PartialMatch(text, re);
}

std::optional<EcmaRegexRefusal> refusal(const std::string& pattern) {
  const std::variant<std::string, EcmaRegexRefusal> translated = ecma_regex_to_re2(pattern);
  if (const auto* why = std::get_if<EcmaRegexRefusal>(&translated)) return *why;
  return std::nullopt;
}

TEST(EcmaRegex, SearchesUnanchoredLikeJsonSchema) {
  EXPECT_TRUE(matches("b", "abc"));
  EXPECT_FALSE(matches("^b", "abc"));
  EXPECT_TRUE(matches("^[a-z]+$", "abc"));
  EXPECT_FALSE(matches("^[a-z]+$", "abc1"));
  EXPECT_TRUE(matches("^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", "ann@example.org"));
  EXPECT_FALSE(matches("^[^@\\s]+@[^@\\s]+\\.[a-z]{2,}$", "ann example@org"));
}

TEST(EcmaRegex, DollarIsTheEndOfTheTextOnly) {
  EXPECT_FALSE(matches("^abc$", "abc\n"));
  EXPECT_FALSE(matches("^abc$", "x\nabc"));  // no multiline mode
}

TEST(EcmaRegex, DotStopsAtEveryLineTerminator) {
  EXPECT_TRUE(matches("^a.c$", "abc"));
  for (const char* terminator : {"\n", "\r", "\u2028", "\u2029"}) {
    EXPECT_FALSE(matches("^a.c$", std::string("a") + terminator + "c"));
  }
  EXPECT_TRUE(matches("^a[^]c$", "a\nc"));  // [^] is any character
  EXPECT_FALSE(matches("a[]", "a"));        // [] is no character
}

TEST(EcmaRegex, MatchesCodePointsNotBytes) {
  EXPECT_TRUE(matches("^.$", "\xF0\x9F\x98\x80"));  // U+1F600 is one character
  EXPECT_TRUE(matches("^[а-яё]+$", "привет"));
  EXPECT_FALSE(matches("^[а-яё]+$", "hello"));
  EXPECT_TRUE(matches("^[\\u0400-\\u04FF]+$", "привет"));
  EXPECT_TRUE(matches("^\\uD83D\\uDE00$", "\xF0\x9F\x98\x80"));  // a surrogate pair
}

TEST(EcmaRegex, ClassEscapesMeanWhatEcmaSays) {
  EXPECT_TRUE(matches("^\\s$", "\u00A0"));  // RE2's own \s lacks these
  EXPECT_TRUE(matches("^\\s$", "\u3000"));
  EXPECT_TRUE(matches("^\\s$", "\v"));
  EXPECT_FALSE(matches("^\\S$", "\uFEFF"));
  EXPECT_TRUE(matches("^[\\S]+$", "ab\xF0\x9F\x98\x80"));
  EXPECT_FALSE(matches("^[\\S]+$", "a\u2003b"));
  EXPECT_TRUE(matches("^[^\\S]$", "\u2003"));
  EXPECT_FALSE(matches("^\\d$", "\u0663"));  // ASCII digits only
  EXPECT_FALSE(matches("^\\w$", "é"));
  EXPECT_TRUE(matches("^[\\b]$", "\b"));  // backspace inside a class
  EXPECT_TRUE(matches("\\bfoo\\b", "a foo b"));
}

TEST(EcmaRegex, TranslatesSimpleEscapes) {
  EXPECT_TRUE(matches("^\\x41\\u0042\\cJ\\0$", std::string("AB\n") + '\0'));
  EXPECT_TRUE(matches("^a\\/b\\-c\\.\\:$", "a/b-c.:"));
  EXPECT_TRUE(matches("^[\\]\\[]+$", "][]"));
  EXPECT_TRUE(matches("^[[:a]+$", "[:a"));  // not a POSIX class in ECMA 262
  EXPECT_TRUE(matches("^a]$", "a]"));
  EXPECT_TRUE(matches("^x{,3}$", "x{,3}"));  // not a quantifier: literal text
}

TEST(EcmaRegex, GroupsKeepTheirMeaning) {
  EXPECT_TRUE(matches("^(?:ab)+$", "abab"));
  EXPECT_TRUE(matches("^(?<year>[0-9]{4})-(a|b)*?$", "2024-abba"));
  EXPECT_FALSE(matches("^(?<year>[0-9]{4})$", "202"));
}

TEST(EcmaRegex, RefusesBackreferences) {
  for (const char* pattern : {"(a)\\1", "(?<x>a)\\k<x>", "\\9"}) {
    EXPECT_EQ(refusal(pattern), EcmaRegexRefusal::kBackreference) << pattern;
  }
}

TEST(EcmaRegex, RefusesLookaround) {
  for (const char* pattern : {"a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b"}) {
    EXPECT_EQ(refusal(pattern), EcmaRegexRefusal::kLookaround) << pattern;
  }
}

TEST(EcmaRegex, RefusesEscapesThatDifferBetweenDialects) {
  for (const char* pattern : {"a\\Z", "\\Aa", "\\a", "\\p{L}", "\\P{L}", "\\u{41}", "\\u12", "\\x4",
                              "\\01", "\\c1", "\\k", "\\uD83D", "[\\B]", "\\e"}) {
    EXPECT_EQ(refusal(pattern), EcmaRegexRefusal::kUnsupportedEscape) << pattern;
  }
}

TEST(EcmaRegex, RefusesInvalidSyntax) {
  for (const char* pattern : {"a\\", "[abc", "(?i)a", "(?<>a)", "(?<a"}) {
    EXPECT_EQ(refusal(pattern), EcmaRegexRefusal::kSyntax) << pattern;
  }
}

}  // namespace
}  // namespace codemode::internal
