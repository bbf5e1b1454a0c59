#include "mcp/code_tool/js_brace_scanner.h"

#include <algorithm>
#include <cctype>

namespace codemode::mcp {
namespace {

// After these words an expression follows (so a `/` starts a regular expression), or a name does
// (`function`, `class`: a `/` there is a syntax error either way).
constexpr std::string_view kPrefixKeywords[] = {
    "return", "typeof", "instanceof", "in",    "of",    "new",     "delete",   "void", "throw",
    "case",   "do",     "else",       "yield", "await", "extends", "function", "class"};

bool is_line_break(char c) { return c == '\n' || c == '\r'; }

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\v' || c == '\f' || is_line_break(c);
}

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// Bytes of a multi-byte UTF-8 character count as letters: non-ASCII identifiers stay one word.
bool is_word_start(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u >= 0x80 || std::isalpha(u) || c == '_' || c == '$';
}

bool is_word_part(char c) { return is_word_start(c) || is_digit(c); }

}  // namespace

bool is_prefix_keyword(std::string_view word) {
  for (std::string_view keyword : kPrefixKeywords) {
    if (word == keyword) return true;
  }
  return false;
}

JsToken JsBraceScanner::next() {
  if (over_) return final_;
  line_break_ = false;
  if (!skip_blanks_and_comments()) return unreadable();
  if (pos_ == source_.size()) {
    if (!open_.empty()) return unreadable();
    over_ = true;
    final_ = make(JsTokenKind::kEnd, pos_);
    return final_;
  }
  JsToken token = scan_token();
  if (token.kind != JsTokenKind::kUnreadable) note_regex_allowed(token);
  return token;
}

bool JsBraceScanner::skip_blanks_and_comments() {
  while (pos_ < source_.size()) {
    const char c = source_[pos_];
    if (is_blank(c)) {
      line_break_ = line_break_ || is_line_break(c);
      ++pos_;
      continue;
    }
    const char n = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';
    if (c != '/' || (n != '/' && n != '*')) return true;
    if (n == '/') {  // a line comment ends before its line break, which the next round counts
      pos_ = std::min(source_.find_first_of("\r\n", pos_ + 2), source_.size());
      continue;
    }
    const std::size_t end = source_.find("*/", pos_ + 2);
    if (end == std::string_view::npos) return false;
    line_break_ = line_break_ ||
                  source_.substr(pos_, end - pos_).find_first_of("\r\n") != std::string_view::npos;
    pos_ = end + 2;
  }
  return true;
}

// A flat list of decisions on the token's first characters.
JsToken JsBraceScanner::scan_token() {
  const char c = source_[pos_];
  const char n = pos_ + 1 < source_.size() ? source_[pos_ + 1] : '\0';
  if (c == '\'' || c == '"') return scan_quoted(c);
  if (c == '`') return scan_template(pos_);
  if (c == '}' && !open_.empty() && open_.back() == '`') {
    open_.pop_back();  // the substitution ends; the template goes on
    return scan_template(pos_);
  }
  if (c == '/' && regex_allowed_) return scan_regex();
  if (is_word_start(c)) return scan_word(JsTokenKind::kIdentifier);
  if (is_digit(c) || (c == '.' && is_digit(n))) return scan_word(JsTokenKind::kNumber);
  if (c == '=' && n == '>') return make(JsTokenKind::kPunctuator, pos_ + 2);
  if (std::string_view("([{)]}").find(c) != std::string_view::npos) return scan_bracket(c);
  return make(JsTokenKind::kPunctuator, pos_ + 1);
}

JsToken JsBraceScanner::scan_quoted(char quote) {
  for (std::size_t i = pos_ + 1; i < source_.size(); ++i) {
    const char c = source_[i];
    if (c == '\\') {
      // An escaped character; a \r\n line continuation is two.
      i += source_.substr(i + 1).starts_with("\r\n") ? 2 : 1;
    } else if (c == quote) {
      return make(JsTokenKind::kString, i + 1);
    } else if (is_line_break(c)) {
      break;
    }
  }
  return unreadable();
}

// `from` is at the ` that starts a template or the } that ends one of its substitutions.
JsToken JsBraceScanner::scan_template(std::size_t from) {
  for (std::size_t i = from + 1; i < source_.size(); ++i) {
    const char c = source_[i];
    if (c == '\\') {
      ++i;
    } else if (c == '`') {
      return make(JsTokenKind::kTemplate, i + 1);
    } else if (c == '$' && i + 1 < source_.size() && source_[i + 1] == '{') {
      JsToken chunk = make(JsTokenKind::kTemplate, i + 2);
      open_.push_back('`');
      return chunk;
    }
  }
  return unreadable();
}

JsToken JsBraceScanner::scan_regex() {
  bool in_class = false;
  for (std::size_t i = pos_ + 1; i < source_.size(); ++i) {
    const char c = source_[i];
    if (is_line_break(c)) break;
    if (c == '\\') {
      if (i + 1 < source_.size() && is_line_break(source_[i + 1])) break;
      ++i;
    } else if (c == '[' || c == ']') {
      in_class = c == '[';
    } else if (c == '/' && !in_class) {
      std::size_t end = i + 1;
      while (end < source_.size() && is_word_part(source_[end])) ++end;  // the flags
      return make(JsTokenKind::kRegex, end);
    }
  }
  return unreadable();
}

// A number takes its dots (1.5, 1e3, 0x1f, 10n are each one token; a sign is a punctuator).
JsToken JsBraceScanner::scan_word(JsTokenKind kind) {
  std::size_t end = pos_ + 1;
  while (end < source_.size() &&
         (is_word_part(source_[end]) || (kind == JsTokenKind::kNumber && source_[end] == '.'))) {
    ++end;
  }
  return make(kind, end);
}

JsToken JsBraceScanner::scan_bracket(char c) {
  if (c == '(' || c == '[' || c == '{') {
    JsToken opener = make(JsTokenKind::kPunctuator, pos_ + 1);
    open_.push_back(c);
    return opener;
  }
  const char opener = c == ')' ? '(' : c == ']' ? '[' : '{';
  if (open_.empty() || open_.back() != opener) return unreadable();
  open_.pop_back();
  return make(JsTokenKind::kPunctuator, pos_ + 1);
}

JsToken JsBraceScanner::make(JsTokenKind kind, std::size_t end) {
  JsToken token{.kind = kind,
                .text = source_.substr(pos_, end - pos_),
                .depth = open_.size(),
                .after_line_break = line_break_};
  pos_ = end;
  return token;
}

JsToken JsBraceScanner::unreadable() {
  over_ = true;
  final_ = make(JsTokenKind::kUnreadable, pos_);
  return final_;
}

void JsBraceScanner::note_regex_allowed(const JsToken& token) {
  switch (token.kind) {
    case JsTokenKind::kIdentifier:
      regex_allowed_ = !after_dot_ && is_prefix_keyword(token.text);
      break;
    case JsTokenKind::kTemplate:
      regex_allowed_ = token.text.ends_with("${");  // a substitution starts with an expression
      break;
    case JsTokenKind::kPunctuator:
      regex_allowed_ = token.text != ")" && token.text != "]";
      break;
    default:  // a number, string or regular expression is an operand
      regex_allowed_ = false;
  }
  after_dot_ = token.kind == JsTokenKind::kPunctuator && token.text == ".";
}

}  // namespace codemode::mcp
