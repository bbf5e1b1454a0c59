#include "tools/schema/ecma_regex.h"

#include <array>
#include <optional>

namespace codemode::internal {
namespace {

struct CodeRange {
  char32_t first;
  char32_t last;
};

// What ECMA 262's \s matches (WhiteSpace and LineTerminator). RE2's \s is only [\t\n\f\r ].
constexpr std::array<CodeRange, 10> kEcmaSpace{{{0x09, 0x0D},
                                                {0x20, 0x20},
                                                {0xA0, 0xA0},
                                                {0x1680, 0x1680},
                                                {0x2000, 0x200A},
                                                {0x2028, 0x2029},
                                                {0x202F, 0x202F},
                                                {0x205F, 0x205F},
                                                {0x3000, 0x3000},
                                                {0xFEFF, 0xFEFF}}};
constexpr char32_t kMaxCodePoint = 0x10FFFF;

// ECMA 262's "." stops at every line terminator; RE2's stops only at \n.
constexpr std::string_view kEcmaDot = "[^\\n\\r\\x{2028}\\x{2029}]";
constexpr std::string_view kAnyCharacter = "(?s:.)";                // ECMA's [^]
constexpr std::string_view kNoCharacter = "[^\\x{0}-\\x{10FFFF}]";  // ECMA's []

bool is_ascii_alnum(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

std::optional<int> hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return std::nullopt;
}

// RE2's spelling of one code point, which is literal in and out of classes.
std::string code_point(char32_t c) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string digits;
  do {
    digits.insert(digits.begin(), kHex[c & 0xF]);
    c >>= 4;
  } while (c != 0);
  return "\\x{" + digits + "}";
}

std::string class_range(char32_t first, char32_t last) {
  return first == last ? code_point(first) : code_point(first) + "-" + code_point(last);
}

// The body of a character class (without brackets) for \s, or for \S when `complement`.
std::string space_ranges(bool complement) {
  std::string out;
  char32_t next = 0;  // the first code point not yet covered by the complement
  for (const CodeRange& range : kEcmaSpace) {
    if (!complement) out += class_range(range.first, range.last);
    if (complement && range.first > next) out += class_range(next, range.first - 1);
    next = range.last + 1;
  }
  if (complement) out += class_range(next, kMaxCodePoint);
  return out;
}

bool is_high_surrogate(char32_t c) { return c >= 0xD800 && c <= 0xDBFF; }
bool is_low_surrogate(char32_t c) { return c >= 0xDC00 && c <= 0xDFFF; }

// One left-to-right pass over the pattern. Only escapes, classes, groups and "." change; every
// other character (quantifiers, anchors, alternation, UTF-8 text) means the same to RE2.
class Translator {
 public:
  explicit Translator(std::string_view pattern) : pattern_(pattern) {}

  std::variant<std::string, EcmaRegexRefusal> run() {
    while (!refusal_ && !at_end()) atom();
    if (refusal_) return *refusal_;
    return std::move(out_);
  }

 private:
  bool at_end() const { return pos_ >= pattern_.size(); }
  char next() { return pattern_[pos_++]; }
  bool consume(std::string_view text) {
    if (!pattern_.substr(pos_).starts_with(text)) return false;
    pos_ += text.size();
    return true;
  }
  void refuse(EcmaRegexRefusal why) {
    if (!refusal_) refusal_ = why;
  }

  void atom() {
    const char c = next();
    if (c == '\\') return escape(/*in_class=*/false);
    if (c == '[') return character_class();
    if (c == '(') return group();
    if (c == '.') {
      out_ += kEcmaDot;
    } else if (c == ']') {
      out_ += "\\]";  // a literal outside a class (Annex B)
    } else {
      out_ += c;
    }
  }

  void character_class() {
    if (consume("^]")) return void(out_ += kAnyCharacter);
    if (consume("]")) return void(out_ += kNoCharacter);
    out_ += consume("^") ? "[^" : "[";
    while (!refusal_ && !at_end()) {
      const char c = next();
      if (c == ']') return void(out_ += ']');
      if (c == '\\') {
        escape(/*in_class=*/true);
      } else {
        out_ += c == '[' ? "\\[" : std::string(1, c);  // "\[" keeps RE2 from reading [:alpha:]
      }
    }
    refuse(EcmaRegexRefusal::kSyntax);  // unterminated class
  }

  void group() {
    if (!consume("?")) return void(out_ += '(');
    if (consume(":")) return void(out_ += "(?:");
    if (consume("=") || consume("!") || consume("<=") || consume("<!")) {
      return refuse(EcmaRegexRefusal::kLookaround);
    }
    if (consume("<")) return named_group();
    refuse(EcmaRegexRefusal::kSyntax);  // ECMA 262 has no other "(?" forms, e.g. no "(?i)"
  }

  // "(?<name>": codemode only asks whether a pattern matches, so the name is dropped.
  void named_group() {
    const std::size_t end = pattern_.find('>', pos_);
    if (end == std::string_view::npos || end == pos_) return refuse(EcmaRegexRefusal::kSyntax);
    for (const char c : pattern_.substr(pos_, end - pos_)) {
      if (c != '_' && c != '$' && !is_ascii_alnum(c) && static_cast<unsigned char>(c) < 0x80) {
        return refuse(EcmaRegexRefusal::kSyntax);
      }
    }
    pos_ = end + 1;
    out_ += "(?:";
  }

  // A flat list of ECMA 262's escapes (Annex B, without the "u" flag) and their RE2 spelling.
  void escape(bool in_class) {
    if (at_end()) return refuse(EcmaRegexRefusal::kSyntax);
    const char c = next();
    switch (c) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':  // ASCII-only in both
      case 'f':
      case 'n':
      case 'r':
      case 't':
      case 'v':
        out_ += '\\';
        out_ += c;
        return;
      case 's':
      case 'S':
        return space_class(c == 'S', in_class);
      case 'b':
        return void(out_ += in_class ? "\\x{8}" : "\\b");  // backspace in a class
      case 'B':
        if (in_class) return refuse(EcmaRegexRefusal::kUnsupportedEscape);
        return void(out_ += "\\B");
      case '0':
        return nul_escape();
      case 'x':
        return hex_escape();
      case 'u':
        return unicode_escape();
      case 'c':
        return control_escape();
      case 'k':  // "\k<name>"; a bare "\k" means "k" (Annex B)
        return refuse(consume("<") ? EcmaRegexRefusal::kBackreference
                                   : EcmaRegexRefusal::kUnsupportedEscape);
      default:
        break;
    }
    if (c >= '1' && c <= '9') return refuse(EcmaRegexRefusal::kBackreference);
    // Other letters: "\Z", "\A", "\a", "\p", "\e", ... mean themselves in ECMA 262 but an
    // anchor, a bell or a class to readers and to RE2. Refused rather than guessed.
    if (is_ascii_alnum(c)) return refuse(EcmaRegexRefusal::kUnsupportedEscape);
    // An identity escape ("\/", "\.", "\-", "\é"): the character itself.
    if (static_cast<unsigned char>(c) < 0x80) return void(out_ += code_point(c));
    out_ += c;  // a UTF-8 lead byte; its continuation bytes follow as ordinary text
  }

  void space_class(bool negated, bool in_class) {
    if (in_class) return void(out_ += space_ranges(negated));
    out_ += negated ? "[^" : "[";
    out_ += space_ranges(false);
    out_ += ']';
  }

  void nul_escape() {
    if (!at_end() && pattern_[pos_] >= '0' && pattern_[pos_] <= '9') {
      return refuse(EcmaRegexRefusal::kUnsupportedEscape);  // a legacy octal escape
    }
    out_ += code_point(0);
  }

  // `digits` hex digits at the current position, consumed; nullopt (nothing consumed) otherwise.
  std::optional<char32_t> hex_digits(std::size_t digits) {
    if (pattern_.size() - pos_ < digits) return std::nullopt;
    char32_t value = 0;
    for (std::size_t i = 0; i < digits; ++i) {
      const std::optional<int> digit = hex_value(pattern_[pos_ + i]);
      if (!digit) return std::nullopt;
      value = value * 16 + static_cast<char32_t>(*digit);
    }
    pos_ += digits;
    return value;
  }

  void hex_escape() {
    const std::optional<char32_t> value = hex_digits(2);
    if (!value) return refuse(EcmaRegexRefusal::kUnsupportedEscape);  // "\x" alone means "x"
    out_ += code_point(*value);
  }

  // "\uXXXX", and a "\uD83D\uDE00" surrogate pair as the one code point it spells. "\u{...}"
  // means "u" repeated without the "u" flag and a code point with it, so it is refused.
  void unicode_escape() {
    std::optional<char32_t> unit = hex_digits(4);
    if (!unit) return refuse(EcmaRegexRefusal::kUnsupportedEscape);
    if (is_high_surrogate(*unit) && consume("\\u")) {
      const std::optional<char32_t> low = hex_digits(4);
      if (!low || !is_low_surrogate(*low)) return refuse(EcmaRegexRefusal::kUnsupportedEscape);
      unit = 0x10000 + ((*unit - 0xD800) << 10) + (*low - 0xDC00);
    }
    // A lone surrogate can never match: values are well-formed UTF-8.
    if (*unit >= 0xD800 && *unit <= 0xDFFF) return refuse(EcmaRegexRefusal::kUnsupportedEscape);
    out_ += code_point(*unit);
  }

  void control_escape() {
    if (at_end() || !is_ascii_alnum(pattern_[pos_]) ||
        (pattern_[pos_] >= '0' && pattern_[pos_] <= '9')) {
      return refuse(EcmaRegexRefusal::kUnsupportedEscape);  // Annex B reads "\c" literally
    }
    out_ += code_point(static_cast<char32_t>(next()) % 32);
  }

  std::string_view pattern_;
  std::size_t pos_ = 0;
  std::string out_;
  std::optional<EcmaRegexRefusal> refusal_;
};

}  // namespace

std::variant<std::string, EcmaRegexRefusal> ecma_regex_to_re2(std::string_view pattern) {
  return Translator(pattern).run();
}

}  // namespace codemode::internal
