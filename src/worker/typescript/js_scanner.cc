#include "worker/typescript/js_scanner.h"

#include <array>
#include <cctype>

namespace codemode::worker::typescript {
namespace {

bool is_ascii_identifier_part(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '$' ||
         c == '_';
}

bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

// The code point of the well-formed UTF-8 sequence at `offset`, or 0xFFFD.
char32_t decode(std::string_view source, std::size_t offset) {
  const std::size_t length = utf8_sequence_length(source, offset);
  const auto lead = static_cast<unsigned char>(source[offset]);
  if (length == 1) return lead < 0x80 ? lead : 0xFFFD;
  static constexpr std::array<unsigned, 5> kLeadBits = {0, 0x7F, 0x1F, 0x0F, 0x07};
  char32_t cp = lead & kLeadBits[length];
  for (std::size_t i = 1; i < length; ++i) cp = (cp << 6) | (source[offset + i] & 0x3F);
  return cp;
}

// ECMAScript WhiteSpace outside ASCII: NBSP, ZWNBSP and the Zs category.
bool is_unicode_space(char32_t cp) {
  return cp == 0xA0 || cp == 0xFEFF || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) ||
         cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// Punctuators longest first within each leading character; `<` and `>` stay single (see header).
constexpr std::array<std::string_view, 47> kPunctuators = {
    "...", "===", "!==", "**=", "&&=", "||=", "?\?=", "=>", "==", "!=", "++", "--",
    "+=",  "-=",  "*=",  "/=",  "%=",  "&=",  "|=",   "^=", "&&", "||", "??", "?.",
    "**",  "{",   "}",   "(",   ")",   "[",   "]",    ";",  ",",  "~",  "?",  ":",
    ".",   "=",   "!",   "+",   "-",   "*",   "/",    "%",  "&",  "|",  "^"};

}  // namespace

std::size_t line_terminator_length(std::string_view source, std::size_t offset) {
  const char c = source[offset];
  if (c == '\n' || c == '\r') return 1;
  if (c == '\xE2' && offset + 2 < source.size() && source[offset + 1] == '\x80' &&
      (source[offset + 2] == '\xA8' || source[offset + 2] == '\xA9')) {
    return 3;
  }
  return 0;
}

std::size_t utf8_sequence_length(std::string_view source, std::size_t offset) {
  const auto lead = static_cast<unsigned char>(source[offset]);
  std::size_t length = 1;
  unsigned char low = 0x80, high = 0xBF;  // the second byte's range (RFC 3629, section 4)
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  if (lead >= 0xE0 && lead <= 0xEF) length = 3;
  if (lead >= 0xF0 && lead <= 0xF4) length = 4;
  if (lead == 0xE0) low = 0xA0;
  if (lead == 0xED) high = 0x9F;
  if (lead == 0xF0) low = 0x90;
  if (lead == 0xF4) high = 0x8F;
  if (length == 1 || offset + length > source.size()) return 1;
  const auto second = static_cast<unsigned char>(source[offset + 1]);
  if (second < low || second > high) return 1;
  for (std::size_t i = 2; i < length; ++i) {
    if ((static_cast<unsigned char>(source[offset + i]) & 0xC0) != 0x80) return 1;
  }
  return length;
}

std::uint32_t Scanner::skip_trivia(std::uint32_t offset, bool& newline, bool& error) const {
  const std::uint32_t size = static_cast<std::uint32_t>(source_.size());
  if (offset == 0 && source_.starts_with("#!")) {  // a hashbang line is a comment
    while (offset < size && line_terminator_length(source_, offset) == 0) ++offset;
  }
  while (offset < size) {
    const auto c = static_cast<unsigned char>(source_[offset]);
    if (const std::size_t terminator = line_terminator_length(source_, offset); terminator > 0) {
      newline = true;
      offset += static_cast<std::uint32_t>(terminator);
    } else if (c == ' ' || c == '\t' || c == '\v' || c == '\f') {
      ++offset;
    } else if (c >= 0x80 && is_unicode_space(decode(source_, offset))) {
      offset += static_cast<std::uint32_t>(utf8_sequence_length(source_, offset));
    } else if (c != '/') {
      break;
    } else if (source_.substr(offset, 2) == "//") {
      while (offset < size && line_terminator_length(source_, offset) == 0) ++offset;
    } else if (source_.substr(offset, 2) == "/*") {
      const std::size_t close = source_.find("*/", offset + 2);
      if (close == std::string_view::npos) {
        error = true;
        return size;
      }
      for (std::size_t i = offset; i < close; ++i) {
        if (line_terminator_length(source_, i) > 0) newline = true;
      }
      offset = static_cast<std::uint32_t>(close + 2);
    } else {
      break;
    }
  }
  return offset;
}

std::uint32_t Scanner::scan_identifier_rest(std::uint32_t offset, bool& escaped) const {
  const std::uint32_t size = static_cast<std::uint32_t>(source_.size());
  while (offset < size) {
    const auto c = static_cast<unsigned char>(source_[offset]);
    if (is_ascii_identifier_part(c)) {
      ++offset;
    } else if (c == '\\' && offset + 1 < size && source_[offset + 1] == 'u') {
      escaped = true;
      offset += 2;
      if (offset < size && source_[offset] == '{') {
        while (offset < size && source_[offset] != '}') ++offset;
        if (offset < size) ++offset;
      } else {
        for (int i = 0;
             i < 4 && offset < size && std::isxdigit(static_cast<unsigned char>(source_[offset]));
             ++i)
          ++offset;
      }
    } else if (c >= 0x80 && line_terminator_length(source_, offset) == 0 &&
               !is_unicode_space(decode(source_, offset))) {
      offset += static_cast<std::uint32_t>(utf8_sequence_length(source_, offset));
    } else {
      break;
    }
  }
  return offset;
}

std::uint32_t Scanner::scan_number(std::uint32_t offset) const {
  const std::uint32_t size = static_cast<std::uint32_t>(source_.size());
  const bool radix = source_[offset] == '0' && offset + 1 < size &&
                     std::string_view("xXoObB").find(source_[offset + 1]) != std::string_view::npos;
  auto digits = [&](std::uint32_t at) {
    while (at < size &&
           (std::isalnum(static_cast<unsigned char>(source_[at])) != 0 || source_[at] == '_')) {
      if ((source_[at] == 'e' || source_[at] == 'E') && at + 1 < size &&
          (source_[at + 1] == '+' || source_[at + 1] == '-') && !radix) {
        ++at;  // the sign of an exponent
      }
      ++at;
    }
    return at;
  };
  offset = digits(offset);
  if (!radix && offset < size && source_[offset] == '.') offset = digits(offset + 1);
  bool escaped = false;
  return scan_identifier_rest(offset, escaped);  // `3in x` is the engine's error to report
}

std::uint32_t Scanner::scan_string(std::uint32_t offset, TokenKind& kind) const {
  const std::uint32_t size = static_cast<std::uint32_t>(source_.size());
  const char quote = source_[offset++];
  kind = TokenKind::kError;
  while (offset < size) {
    const char c = source_[offset];
    if (c == quote) {
      kind = TokenKind::kString;
      return offset + 1;
    }
    if (c == '\\') {
      offset += offset + 1 < size && source_[offset + 1] == '\r' && offset + 2 < size &&
                        source_[offset + 2] == '\n'
                    ? 3
                    : 2;
    } else if (c == '\n' || c == '\r') {
      return offset;
    } else {
      ++offset;
    }
  }
  return size;
}

std::uint32_t Scanner::scan_template_part(std::uint32_t offset, TokenKind& kind) const {
  const std::uint32_t size = static_cast<std::uint32_t>(source_.size());
  ++offset;  // the backtick or the closing brace
  kind = TokenKind::kError;
  while (offset < size) {
    const char c = source_[offset];
    if (c == '`') {
      kind = TokenKind::kTemplate;
      return offset + 1;
    }
    if (c == '$' && offset + 1 < size && source_[offset + 1] == '{') {
      kind = TokenKind::kTemplateHead;
      return offset + 2;
    }
    offset += c == '\\' ? 2 : 1;
  }
  return size;
}

std::uint32_t Scanner::scan_punctuator(std::uint32_t offset) const {
  const std::string_view rest = source_.substr(offset);
  if (rest.starts_with("?.") && rest.size() > 2 && is_digit(rest[2])) return offset + 1;  // a?.5:b
  for (std::string_view punctuator : kPunctuators) {
    if (punctuator[0] == rest[0] && rest.starts_with(punctuator)) {
      return offset + static_cast<std::uint32_t>(punctuator.size());
    }
  }
  return offset + 1;  // `<`, `>`, `@`, `#` and stray characters
}

Token Scanner::scan(std::uint32_t offset) const {
  Token token;
  bool error = false;
  offset = skip_trivia(offset, token.newline_before, error);
  token.start = offset;
  const std::uint32_t size = static_cast<std::uint32_t>(source_.size());
  if (error) {
    token.kind = TokenKind::kError;
    token.end = size;
  } else if (offset >= size) {
    token.kind = TokenKind::kEnd;
    token.end = size;
  } else {
    const auto c = static_cast<unsigned char>(source_[offset]);
    if (is_digit(c) || (c == '.' && offset + 1 < size && is_digit(source_[offset + 1]))) {
      token.kind = TokenKind::kNumber;
      token.end = scan_number(offset);
    } else if (c == '"' || c == '\'') {
      token.end = scan_string(offset, token.kind);
    } else if (c == '`') {
      token.end = scan_template_part(offset, token.kind);
    } else if (c == '#' && offset + 1 < size) {
      token.kind = TokenKind::kPrivateName;
      token.end = scan_identifier_rest(offset + 1, token.escaped);
      if (token.end == offset + 1) token.kind = TokenKind::kPunctuator;
    } else if (is_ascii_identifier_part(c) || c == '\\' || c >= 0x80) {
      token.kind = TokenKind::kIdentifier;
      token.end = scan_identifier_rest(offset, token.escaped);
      if (token.end == offset) {
        token.kind = TokenKind::kError;
        token.end = offset + static_cast<std::uint32_t>(utf8_sequence_length(source_, offset));
      }
    } else {
      token.kind = TokenKind::kPunctuator;
      token.end = scan_punctuator(offset);
    }
  }
  token.text = source_.substr(token.start, token.end - token.start);
  return token;
}

Token Scanner::rescan_regex(const Token& slash) const {
  const std::uint32_t size = static_cast<std::uint32_t>(source_.size());
  Token token = slash;
  token.kind = TokenKind::kError;
  std::uint32_t offset = slash.start + 1;
  bool in_class = false;
  while (offset < size && line_terminator_length(source_, offset) == 0) {
    const char c = source_[offset];
    if (c == '\\') {
      offset += 2;
      continue;
    }
    ++offset;
    if (c == '[') in_class = true;
    if (c == ']') in_class = false;
    if (c == '/' && !in_class) {
      token.kind = TokenKind::kRegex;
      bool escaped = false;
      offset = scan_identifier_rest(offset, escaped);  // flags
      break;
    }
  }
  token.end = offset < size ? offset : size;
  token.text = source_.substr(token.start, token.end - token.start);
  return token;
}

Token Scanner::rescan_template(const Token& brace) const {
  Token token = brace;
  token.end = scan_template_part(brace.start, token.kind);
  token.text = source_.substr(token.start, token.end - token.start);
  return token;
}

}  // namespace codemode::worker::typescript
