// Where TypeScript's parser guesses, and so does this one: is `(` or `<` the head of an arrow
// function (isParenthesizedArrowFunctionExpression, then a speculative parse with a memo of the
// parentheses that were not), and is `<` after an expression a list of type arguments
// (parseTypeArgumentsInExpression and canFollowTypeArgumentsInExpression)?
#include "worker/typescript/ts_parser.h"

namespace codemode::worker::typescript {
namespace {

bool is_modifier_word(const Token& token) {
  static constexpr std::string_view kWords[] = {
      "public", "private", "protected", "readonly", "static", "abstract", "declare", "override",
      "export", "const",   "default",   "async",    "in",     "out",      "accessor"};
  if (token.kind != TokenKind::kIdentifier || token.escaped) return false;
  for (std::string_view word : kWords) {
    if (token.text == word) return true;
  }
  return false;
}

}  // namespace

// isParenthesizedArrowFunctionExpressionWorker, on lookahead only.
Parser::Tristate Parser::is_parenthesized_arrow() const {
  Token first = token_;
  if (first.is("async")) {
    first = peek(first);
    if (first.newline_before || (!first.is("(") && !first.is("<"))) return Tristate::kFalse;
  } else if (!first.is("(") && !first.is("<")) {
    return Tristate::kFalse;
  }
  const Token second = peek(first);
  if (first.is("<")) {
    const bool identifier = second.kind == TokenKind::kIdentifier;
    return identifier ? Tristate::kUnknown : Tristate::kFalse;
  }
  if (second.is(")")) {
    const Token third = peek(second);
    return third.is("=>") || third.is(":") || third.is("{") ? Tristate::kTrue : Tristate::kFalse;
  }
  if (second.is("[") || second.is("{")) return Tristate::kUnknown;
  if (second.is("...")) return Tristate::kTrue;
  if (is_modifier_word(second) && !second.is("async")) {
    const Token third = peek(second);
    if (third.kind == TokenKind::kIdentifier) {
      return third.is("as") ? Tristate::kFalse : Tristate::kTrue;
    }
  }
  if (second.kind != TokenKind::kIdentifier) return Tristate::kFalse;
  const Token third = peek(second);
  if (third.is(":")) return Tristate::kTrue;
  if (third.is("?")) {
    const Token fourth = peek(third);
    return fourth.is(":") || fourth.is(",") || fourth.is("=") || fourth.is(")") ? Tristate::kTrue
                                                                                : Tristate::kFalse;
  }
  if (third.is(",") || third.is("=") || third.is(")")) return Tristate::kUnknown;
  return Tristate::kFalse;
}

bool Parser::try_parenthesized_arrow(bool allow_return_type) {
  const Tristate tristate = is_parenthesized_arrow();
  if (tristate == Tristate::kFalse) return false;
  if (tristate == Tristate::kTrue) return parse_parenthesized_arrow(true, true);
  const std::uint32_t start = token_.start;
  if (not_arrow_.contains(start)) return false;
  if (speculate([&] { return parse_parenthesized_arrow(false, allow_return_type); })) return true;
  not_arrow_.insert(start);
  return false;
}

// parseParenthesizedArrowFunctionExpression: false (only when !allow_ambiguity) when this is no
// arrow function after all.
bool Parser::parse_parenthesized_arrow(bool allow_ambiguity, bool allow_return_type) {
  const bool is_async = at("async");
  if (is_async) next();
  parse_type_parameters_if_any();
  {
    FlagScope async(in_async_, is_async);
    FlagScope generator(in_generator_, false);
    parse_parameters();
  }
  const std::uint32_t close_paren = prev_end_ - 1;
  const bool has_return_colon = at(":");
  const std::uint32_t return_start = token_.start;
  parse_return_type_if_any();
  const std::uint32_t return_end = prev_end_;
  if (!at("=>") || token_.newline_before) {
    if (!allow_ambiguity) return false;
    fail();
  }
  // `(x): T` with a line break before `=>`: once `: T` is blank, `)` and `=>` would be on
  // different lines, which JavaScript forbids. So `)` moves to the end of the blank return type.
  bool line_break = false;
  for (std::uint32_t i = close_paren; i < token_.start; ++i) {
    if (line_terminator_length(source_, i) > 0) line_break = true;
  }
  if (line_break && has_return_colon) {
    blank(close_paren, close_paren + 1);
    // The return type ends on the line of `=>` (no line break may precede it).
    std::uint32_t line_start = return_start;
    for (std::uint32_t i = return_start; i < return_end; ++i) {
      if (line_terminator_length(source_, i) > 0) line_start = i + 1;
    }
    if (!edits_.put(source_, {line_start, return_end}, ')', /*from_back=*/true)) fail();
  }
  next();  // =>
  parse_arrow_body(is_async, allow_return_type);
  // `a ? (x): T => x : y`: in a conditional's first branch the return type is only believed when
  // the arrow function is followed by that branch's `:`.
  return allow_return_type || !has_return_colon || at(":");
}

bool Parser::try_async_simple_arrow(bool allow_return_type) {
  if (!at("async")) return false;
  const Token name = peek(token_);
  if (name.newline_before || name.kind != TokenKind::kIdentifier) return false;
  const Token arrow = peek(name);
  if (!arrow.is("=>") || arrow.newline_before) return false;
  next();
  next();
  next();
  parse_arrow_body(/*is_async=*/true, allow_return_type);
  return true;
}

void Parser::parse_arrow_body(bool is_async, bool allow_return_type) {
  if (at("{")) {
    parse_function_body(is_async, /*is_generator=*/false);
    return;
  }
  FlagScope async(in_async_, is_async);
  FlagScope generator(in_generator_, false);
  parse_assignment(allow_return_type);
}

// parseTypeArgumentsInExpression, speculatively: `f<T>(x)`, `new Map<K, V>()`, `g<T>` `...`.
bool Parser::try_type_arguments_in_expression() {
  if (!at("<") || raw(token_.start + 1) == '=' ||
      (raw(token_.start + 1) == '<' && raw(token_.start + 2) == '=')) {
    return false;
  }
  const std::uint32_t start = token_.start;
  const bool ok = speculate([&] {
    next();
    do {
      parse_type();
    } while (eat(","));
    // `>` then `>` or `=` rescans as `>>` or `>=`: no type argument list ends there.
    if (!at(">") || raw(token_.end) == '>' || raw(token_.end) == '=') return false;
    next();
    return can_follow_type_arguments();
  });
  if (ok) blank(start, prev_end_);
  return ok;
}

// canFollowTypeArgumentsInExpression.
bool Parser::can_follow_type_arguments() const {
  if (at("(") ||
      ((token_.kind == TokenKind::kTemplate || token_.kind == TokenKind::kTemplateHead) &&
       token_.text[0] == '`')) {
    return true;
  }
  if (at("<")) return raw(token_.start + 1) == '<' || raw(token_.start + 1) == '=';
  if (at(">") || at("+") || at("-")) return false;
  return token_.newline_before || is_binary_operator() || !is_start_of_expression();
}

// isStartOfExpression.
bool Parser::is_start_of_expression() const {
  switch (token_.kind) {
    case TokenKind::kNumber:
    case TokenKind::kString:
    case TokenKind::kTemplate:
    case TokenKind::kTemplateHead:
    case TokenKind::kRegex:
    case TokenKind::kPrivateName:
      return true;
    case TokenKind::kIdentifier:
      return at_identifier() || at("this") || at("super") || at("null") || at("true") ||
             at("false") || at("function") || at("class") || at("new") || at("import") ||
             at("delete") || at("typeof") || at("void");
    case TokenKind::kPunctuator: {
      static constexpr std::string_view kStarts[] = {"(", "[", "{", "/",  "/=", "+", "-",
                                                     "~", "!", "<", "++", "--", "@"};
      for (std::string_view start : kStarts) {
        if (at(start)) return true;
      }
      return is_binary_operator();
    }
    default:
      return false;
  }
}

}  // namespace codemode::worker::typescript
