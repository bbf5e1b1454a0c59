#include "mcp/code_input.h"

#include <cctype>

namespace codemode::mcp {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

// The text inside one fence that encloses all of it, or the text itself. The opening line may name
// a language (letters, digits, '+', '-', '.'); nothing may follow the closing fence.
std::string_view unfenced(std::string_view text) {
  constexpr std::string_view kFence = "```";
  if (!text.starts_with(kFence) || !text.ends_with(kFence) || text.size() < 2 * kFence.size()) {
    return text;
  }
  const std::size_t line_end = text.find('\n');
  if (line_end == std::string_view::npos) return text;
  for (char c : text.substr(kFence.size(), line_end - kFence.size())) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.' &&
        !is_blank(c)) {
      return text;
    }
  }
  const std::string_view inside = text.substr(line_end + 1);
  return inside.substr(0, inside.size() - kFence.size());
}

bool is_identifier_part(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

bool starts_with_word(std::string_view text, std::string_view word) {
  return text.starts_with(word) &&
         (text.size() == word.size() || !is_identifier_part(text[word.size()]));
}

std::string_view after_blanks(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  return text;
}

// Removes a leading identifier (`x`); false when the text does not start with one.
bool skip_identifier(std::string_view& text) {
  if (text.empty() || !is_identifier_part(text.front()) ||
      std::isdigit(static_cast<unsigned char>(text.front()))) {
    return false;
  }
  while (!text.empty() && is_identifier_part(text.front())) text.remove_prefix(1);
  return true;
}

// Removes a balanced parenthesised group from the start of `text`; false when it does not start
// with one. Quoted strings inside are skipped; a template literal or an unbalanced text ends the
// scan (a parameter list this classifier need not understand: the text is then a body).
bool skip_parameters(std::string_view& text) {
  if (text.empty() || text.front() != '(') return false;
  int depth = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\'' || c == '"') {
      const std::size_t close = text.find(c, i + 1);
      if (close == std::string_view::npos) return false;
      i = close;
    } else if (c == '`') {
      return false;
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      text.remove_prefix(i + 1);
      return true;
    }
  }
  return false;
}

bool is_arrow_head(std::string_view text) {
  if (!skip_parameters(text) && !skip_identifier(text)) return false;
  return after_blanks(text).starts_with("=>");
}

bool is_function_expression(std::string_view text) {
  if (starts_with_word(text, "function")) return true;
  if (!starts_with_word(text, "async")) return is_arrow_head(text);
  const std::string_view rest = after_blanks(text.substr(5));
  return starts_with_word(rest, "function") || is_arrow_head(rest);
}

}  // namespace

CodeInput normalize_code_input(std::string_view code) {
  const std::string_view source = trimmed(unfenced(trimmed(code)));
  return {std::string(source), is_function_expression(source) ? CodeForm::kFunctionExpression
                                                              : CodeForm::kFunctionBody};
}

}  // namespace codemode::mcp
