#include "mcp/code_tool/code_input.h"

#include <cctype>

#include "mcp/code_tool/js_brace_scanner.h"

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

// An identifier other than a prefix keyword, a literal, a finished template, `)`, `]` or `}` (of
// a function or class expression: an object literal cannot stand at an arrow's top level).
bool ends_operand(const JsToken& token) {
  switch (token.kind) {
    case JsTokenKind::kIdentifier:
      return !is_prefix_keyword(token.text);
    case JsTokenKind::kNumber:
    case JsTokenKind::kString:
    case JsTokenKind::kRegex:
      return true;
    case JsTokenKind::kTemplate:
      return token.text.ends_with('`');
    case JsTokenKind::kPunctuator:
      return token.text == ")" || token.text == "]" || token.text == "}";
    default:
      return false;
  }
}

// A word (but the binary operators `in`, `instanceof`), a number or a string: after an operand,
// none of them continues an expression. `(`, `[`, a template or `/` would: no semicolon there.
bool starts_operand(const JsToken& token) {
  if (token.kind == JsTokenKind::kIdentifier) {
    return token.text != "in" && token.text != "instanceof";
  }
  return token.kind == JsTokenKind::kNumber || token.kind == JsTokenKind::kString;
}

// What reading a text found: its form, and where the function expression ends in it.
struct Reading {
  CodeForm form = CodeForm::kFunctionBody;
  std::size_t end = 0;
};

// Reads a text token by token, as far as needed to decide its form (code_input.h). Each step
// consumes the tokens it names; `token_` is the first one not yet consumed.
class FormReader {
 public:
  explicit FormReader(std::string_view text) : text_(text), scanner_(text) { advance(); }

  Reading read();

 private:
  void advance() {
    previous_ = token_;
    token_ = scanner_.next();
  }
  bool at(std::string_view punctuator) const {
    return token_.kind == JsTokenKind::kPunctuator && token_.text == punctuator;
  }
  bool at_word(std::string_view word) const {
    return token_.kind == JsTokenKind::kIdentifier && token_.text == word;
  }
  bool over() const {
    return token_.kind == JsTokenKind::kEnd || token_.kind == JsTokenKind::kUnreadable;
  }
  bool skip_group();
  bool skip_arrow_parameters();
  bool starts_statement() const;
  Reading read_function();
  Reading read_block();
  Reading read_concise_body();
  Reading rest_is_body();

  Reading body() const { return {CodeForm::kFunctionBody, text_.size()}; }
  // The scan ended before the end of the function was seen: the head decides (code_input.h).
  Reading unsure() const { return {CodeForm::kFunctionExpression, text_.size()}; }
  Reading expression_to(const JsToken& last) const {
    return {CodeForm::kFunctionExpression,
            static_cast<std::size_t>(last.text.data() - text_.data()) + last.text.size()};
  }

  std::string_view text_;
  JsBraceScanner scanner_;
  JsToken token_;
  JsToken previous_;
};

Reading FormReader::read() {
  if (at_word("async")) {
    advance();
    if (at("=>")) {  // `async` names the one parameter
      advance();
      return at("{") ? read_block() : read_concise_body();
    }
  }
  if (at_word("function")) return read_function();
  if (!skip_arrow_parameters() || !at("=>")) return body();
  advance();
  return at("{") ? read_block() : read_concise_body();
}

// From an opener to past its closer, which `previous_` then is; false when the scan ends first.
// Every token between the two is deeper than they are.
bool FormReader::skip_group() {
  const std::size_t depth = token_.depth;
  for (advance(); token_.depth > depth && !over(); advance()) {
  }
  if (over()) return false;
  advance();
  return true;
}

// A name, or a parenthesised list whose parameters each start with a name, `[`, `{` or `...`.
bool FormReader::skip_arrow_parameters() {
  if (token_.kind == JsTokenKind::kIdentifier) {
    advance();
    return true;
  }
  if (!at("(")) return false;
  bool expect_parameter = true;
  for (advance(); token_.depth > 0 && !over(); advance()) {
    if (token_.depth != 1) continue;
    const bool starts_parameter =
        token_.kind == JsTokenKind::kIdentifier || at("[") || at("{") || at(".");
    if (expect_parameter && !starts_parameter) return false;
    expect_parameter = at(",");
  }
  if (over()) return false;
  advance();  // the `)`
  return true;
}

Reading FormReader::read_function() {
  advance();
  if (at("*")) advance();
  if (token_.kind == JsTokenKind::kIdentifier) advance();
  if (!at("(") || !skip_group() || !at("{")) return unsure();
  return read_block();
}

// From the `{` of a function's body: past its `}`, only semicolons may follow.
Reading FormReader::read_block() {
  if (!skip_group()) return unsure();
  const JsToken closing = previous_;
  while (at(";")) advance();
  return token_.kind == JsTokenKind::kEnd ? expression_to(closing) : rest_is_body();
}

// Something other than the function follows it: the text is a body, if the scan can read it to
// the end. A misread function (a regular expression taken for division) tends to show up later
// as an unmatched bracket; then the head decides.
Reading FormReader::rest_is_body() {
  while (!over()) advance();
  return token_.kind == JsTokenKind::kEnd ? body() : unsure();
}

Reading FormReader::read_concise_body() {
  Reading reading = unsure();
  bool after_semicolon = false;
  for (; token_.kind != JsTokenKind::kEnd; advance()) {
    if (token_.kind == JsTokenKind::kUnreadable) return unsure();
    if (at(";") && token_.depth == 0) {
      after_semicolon = true;
      continue;
    }
    if (after_semicolon || starts_statement()) return rest_is_body();
    reading = expression_to(token_);
  }
  return reading;
}

// Automatic semicolon insertion: at the top level, a line break between the end of an operand and
// a word, number or string ends the statement (`a` newline `b` is `a; b`).
bool FormReader::starts_statement() const {
  return token_.depth == 0 && token_.after_line_break && ends_operand(previous_) &&
         starts_operand(token_);
}

}  // namespace

CodeInput normalize_code_input(std::string_view code) {
  const std::string_view source = trimmed(unfenced(trimmed(code)));
  const Reading reading = FormReader(source).read();
  return {std::string(source.substr(0, reading.end)), reading.form};
}

CodeInput unfence_code_input(std::string_view code) {
  const std::string_view trimmed_code = trimmed(code);
  const std::string_view inside = unfenced(trimmed_code);
  std::string source(code);
  if (inside.size() != trimmed_code.size()) {
    // Blank the fence lines out instead of cutting them: every other character keeps its line
    // and column in the text as sent.
    const auto blank = [&source](std::size_t from, std::size_t to) {
      for (std::size_t at = from; at < to; ++at) source[at] = ' ';
    };
    const std::size_t opening = static_cast<std::size_t>(trimmed_code.data() - code.data());
    const std::size_t body = static_cast<std::size_t>(inside.data() - code.data());
    blank(opening, body - 1);  // up to the opening fence's line break, which stays
    const std::size_t closing = body + inside.size();
    blank(closing, closing + 3);
  }
  return {std::move(source), CodeForm::kFunctionBody};
}

}  // namespace codemode::mcp
