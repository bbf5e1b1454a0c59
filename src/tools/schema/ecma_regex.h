// Translates a JSON Schema regular expression (ECMA 262 syntax, as "pattern" and the names of
// "patternProperties" are written) into RE2 syntax, so that it runs on RE2's linear-time automata
// instead of a backtracking matcher that a long string can drive into deep recursion.
//
// The translation keeps ECMA 262's meaning where RE2 reads the same text differently (".", "\s",
// "[^]", "[]", "[\b]", "\uXXXX", "\cX", "\0", identity escapes such as "\/") and refuses what RE2
// cannot express (backreferences, lookaround) or what reads differently across dialects (letter
// escapes ECMA 262 does not define, such as "\Z", "\A", "\a", "\p{...}", "\u{...}", octal
// escapes). Matching is over Unicode code points, as with JavaScript's "u" flag: a character above
// U+FFFF is one character. docs/json-and-schemas.md lists the rules. Internal.
#ifndef CODEMODE_TOOLS_SCHEMA_ECMA_REGEX_H_
#define CODEMODE_TOOLS_SCHEMA_ECMA_REGEX_H_

#include <string>
#include <string_view>
#include <variant>

namespace codemode::internal {

// Why a pattern has no RE2 translation.
enum class EcmaRegexRefusal {
  kBackreference,      // \1 ... \9, \k<name>: not a regular language
  kLookaround,         // (?=, (?!, (?<=, (?<!
  kUnsupportedEscape,  // an escape whose meaning differs between dialects or needs the "u" flag
  kSyntax,             // not a valid ECMA 262 pattern (unterminated class, "(?" form, "\" at end)
};

// The RE2 pattern text, or why there is none. RE2 itself may still refuse the text (an invalid
// range or repetition, or more memory than allowed); the caller compiles it.
std::variant<std::string, EcmaRegexRefusal> ecma_regex_to_re2(std::string_view pattern);

}  // namespace codemode::internal

#endif  // CODEMODE_TOOLS_SCHEMA_ECMA_REGEX_H_
