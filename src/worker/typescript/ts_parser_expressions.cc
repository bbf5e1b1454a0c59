// Expressions: arrow functions and their heads, `as` and `satisfies`, `<T>` assertions, non-null
// `!`, and type arguments of calls, `new` and tagged templates.
#include <string>

#include "worker/typescript/ts_parser.h"

namespace codemode::worker::typescript {
namespace {

// TypeScript's OperatorPrecedence for binary operators.
constexpr int kCoalesce = 4;
constexpr int kLogicalOr = 5;
constexpr int kLogicalAnd = 6;
constexpr int kBitwiseOr = 7;
constexpr int kBitwiseXor = 8;
constexpr int kBitwiseAnd = 9;
constexpr int kEquality = 10;
constexpr int kRelational = 11;
constexpr int kShift = 12;
constexpr int kAdditive = 13;
constexpr int kMultiplicative = 14;
constexpr int kExponentiation = 15;
constexpr int kPrimary = 100;  // an operand that is no binary expression

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

void Parser::parse_expression() {
  parse_assignment();
  while (eat(",")) parse_assignment();
}

Parser::Operator Parser::current_operator() const {
  if (token_.kind == TokenKind::kIdentifier && !token_.escaped) {
    if (token_.text == "instanceof" || token_.text == "as" || token_.text == "satisfies" ||
        (token_.text == "in" && !no_in_)) {
      return {kRelational, false, static_cast<std::uint32_t>(token_.text.size())};
    }
    return {};
  }
  if (token_.kind != TokenKind::kPunctuator) return {};
  const std::uint32_t at = token_.start;
  if (token_.text == "<" || token_.text == ">") {  // compose <= << <<= >= >> >>= >>> >>>=
    const char c = token_.text[0];
    std::uint32_t length = 1;
    while (length < (c == '>' ? 3u : 2u) && raw(at + length) == c) ++length;
    if (raw(at + length) == '=') {
      return length == 1 ? Operator{kRelational, false, 2} : Operator{0, true, length + 1};
    }
    return {length == 1 ? kRelational : kShift, false, length};
  }
  static constexpr struct {
    std::string_view text;
    int precedence;
  } kBinary[] = {{"??", kCoalesce},      {"||", kLogicalOr},     {"&&", kLogicalAnd},
                 {"|", kBitwiseOr},      {"^", kBitwiseXor},     {"&", kBitwiseAnd},
                 {"==", kEquality},      {"!=", kEquality},      {"===", kEquality},
                 {"!==", kEquality},     {"+", kAdditive},       {"-", kAdditive},
                 {"*", kMultiplicative}, {"/", kMultiplicative}, {"%", kMultiplicative},
                 {"**", kExponentiation}};
  for (const auto& binary : kBinary) {
    if (token_.text == binary.text) {
      return {binary.precedence, false, static_cast<std::uint32_t>(binary.text.size())};
    }
  }
  static constexpr std::string_view kAssignment[] = {
      "=", "+=", "-=", "*=", "/=", "%=", "**=", "&=", "|=", "^=", "&&=", "||=", "?\?="};
  for (std::string_view assignment : kAssignment) {
    if (token_.text == assignment) {
      return {0, true, static_cast<std::uint32_t>(assignment.size())};
    }
  }
  return {};
}

bool Parser::is_binary_operator() const { return current_operator().precedence > 0; }

// parseAssignmentExpressionOrHigher.
void Parser::parse_assignment(bool allow_return_type) {
  DepthGuard guard(*this);
  if (at("yield") && (in_generator_ || (!peek(token_).newline_before &&
                                        (peek(token_).kind == TokenKind::kIdentifier ||
                                         peek(token_).kind == TokenKind::kNumber ||
                                         peek(token_).kind == TokenKind::kString)))) {
    next();
    if (eat("*")) {
      parse_assignment(allow_return_type);
    } else if (!token_.newline_before && is_start_of_expression() && !at("in")) {
      parse_assignment(allow_return_type);
    }
    return;
  }
  if (try_parenthesized_arrow(allow_return_type) || try_async_simple_arrow(allow_return_type)) {
    return;
  }
  if (at_identifier() && peek(token_).is("=>")) {  // x => ...
    next();
    next();
    parse_arrow_body(/*is_async=*/false, allow_return_type);
    return;
  }
  parse_binary(0);
  if (const Operator op = current_operator(); op.assignment) {
    advance_to(token_.start + op.length);
    parse_assignment(allow_return_type);
    return;
  }
  parse_conditional_rest(allow_return_type);
}

void Parser::parse_conditional_rest(bool allow_return_type) {
  if (!eat("?")) return;
  {
    FlagScope in(no_in_, false);
    parse_assignment(/*allow_return_type=*/false);
  }
  expect(":");
  parse_assignment(allow_return_type);
}

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

// parseBinaryExpressionRest. `as` and `satisfies` are erased; where that would regroup the
// operators around them (`a + b as T * c` means `(a + b) * c`), the program is refused.
void Parser::parse_binary(int min_precedence) {
  DepthGuard guard(*this);
  parse_unary();
  int visible = kPrimary;      // the loosest operator JavaScript will see at this level
  std::string_view erased_as;  // `as` or `satisfies`, once one was erased at this level
  for (;;) {
    const Operator op = current_operator();
    if (op.precedence == 0) return;
    const bool exponent = op.precedence == kExponentiation;
    if (exponent ? op.precedence < min_precedence : op.precedence <= min_precedence) return;
    if (at("as") || at("satisfies")) {
      if (token_.newline_before) return;
      const std::uint32_t start = token_.start;
      erased_as = token_.text;
      next();
      parse_type();
      blank(start, prev_end_);
      continue;
    }
    if (!erased_as.empty() && (op.precedence > visible || (exponent && op.precedence == visible))) {
      refuse(std::string(erased_as),
             "put the `" + std::string(erased_as) + "` expression in parentheses", token_.start);
    }
    advance_to(token_.start + op.length);
    parse_binary(op.precedence);
    visible = op.precedence;
  }
}

void Parser::parse_unary() {
  DepthGuard guard(*this);
  if (at("delete") || at("void") || at("typeof") || at("+") || at("-") || at("~") || at("!") ||
      at("++") || at("--")) {
    next();
    parse_unary();
    return;
  }
  if (at("await") &&
      (in_async_ || (!peek(token_).newline_before && (peek(token_).kind == TokenKind::kIdentifier ||
                                                      peek(token_).kind == TokenKind::kNumber ||
                                                      peek(token_).kind == TokenKind::kString)))) {
    next();
    parse_unary();
    return;
  }
  if (at("<")) {
    parse_type_assertion();
    return;
  }
  parse_left_hand_side();
  if ((at("++") || at("--")) && !token_.newline_before) next();
}

// `<T>value`, TypeScript's older assertion (there is no JSX in a .ts file).
void Parser::parse_type_assertion() {
  const std::uint32_t start = token_.start;
  const std::string_view before = prev_word_;
  next();
  parse_type();
  expect(">");
  blank(start, prev_end_);
  for (std::uint32_t i = start; i < token_.start; ++i) {
    // `return <T>` then the value on the next line: once blank, `return` would end there.
    if (line_terminator_length(source_, i) > 0 &&
        (before == "return" || before == "throw" || before == "yield")) {
      refuse("type assertion", "write `value as T` on the line of `return`", start);
    }
  }
  parse_unary();
}

void Parser::parse_left_hand_side() {
  parse_primary();
  parse_call_rest();
}

// parseMemberExpressionRest: property and element access, tagged templates, `!`, type arguments.
void Parser::parse_member_rest(bool allow_optional_chain) {
  for (;;) {
    bool optional = false;
    if (allow_optional_chain && at("?.")) {
      const Token after = peek(token_);
      if (after.kind == TokenKind::kIdentifier || after.kind == TokenKind::kPrivateName ||
          after.is("[") || (after.kind == TokenKind::kTemplate && after.text[0] == '`') ||
          (after.kind == TokenKind::kTemplateHead && after.text[0] == '`')) {
        next();
        optional = true;
        if (at("[")) {
          next();
          FlagScope in(no_in_, false);
          parse_expression();
          expect("]");
          continue;
        }
        if (token_.kind != TokenKind::kIdentifier && token_.kind != TokenKind::kPrivateName) {
          parse_template();
          continue;
        }
        next();
        continue;
      }
    }
    if (eat(".")) {
      if (token_.kind != TokenKind::kIdentifier && token_.kind != TokenKind::kPrivateName) fail();
      next();
      continue;
    }
    if (at("[")) {
      next();
      FlagScope in(no_in_, false);
      parse_expression();
      expect("]");
      continue;
    }
    if ((token_.kind == TokenKind::kTemplate || token_.kind == TokenKind::kTemplateHead) &&
        token_.text[0] == '`') {
      parse_template();
      continue;
    }
    if (!optional && at("!") && !token_.newline_before) {
      blank(token_.start, token_.end);
      next();
      continue;
    }
    if (!optional && try_type_arguments_in_expression()) continue;
    return;
  }
}

// parseCallExpressionRest.
void Parser::parse_call_rest() {
  for (;;) {
    parse_member_rest(/*allow_optional_chain=*/true);
    if (at("?.")) {
      next();
      try_type_arguments_in_expression();
      if ((token_.kind == TokenKind::kTemplate || token_.kind == TokenKind::kTemplateHead) &&
          token_.text[0] == '`') {
        parse_template();
        continue;
      }
      if (!at("(")) fail();
    }
    if (!at("(")) return;
    parse_arguments();
  }
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

void Parser::parse_arguments() {
  expect("(");
  FlagScope in(no_in_, false);
  while (!at(")")) {
    eat("...");
    parse_assignment();
    if (!at(")")) expect(",");
  }
  next();
}

void Parser::parse_template() {
  if (token_.kind == TokenKind::kTemplate) {
    next();
    return;
  }
  if (token_.kind != TokenKind::kTemplateHead) fail();
  FlagScope in(no_in_, false);
  for (;;) {
    next();
    parse_expression();
    if (!at("}")) fail();
    token_ = scanner_.rescan_template(token_);
    if (token_.kind == TokenKind::kTemplate) break;
    if (token_.kind != TokenKind::kTemplateHead) fail();
  }
  next();
}

void Parser::parse_primary() {
  DepthGuard guard(*this);
  switch (token_.kind) {
    case TokenKind::kNumber:
    case TokenKind::kString:
    case TokenKind::kPrivateName:
      next();
      return;
    case TokenKind::kTemplate:
    case TokenKind::kTemplateHead:
      if (token_.text[0] != '`') fail();
      parse_template();
      return;
    case TokenKind::kIdentifier:
      if (at("function") ||
          (at("async") && peek(token_).is("function") && !peek(token_).newline_before)) {
        parse_function(/*declaration_may_lack_body=*/false, nullptr);
        return;
      }
      if (at("class")) {
        parse_class(/*is_declaration=*/false);
        return;
      }
      if (at("new")) {
        parse_new();
        return;
      }
      if (at_identifier() || at("this") || at("super") || at("null") || at("true") || at("false") ||
          at("import")) {
        next();
        return;
      }
      fail();
    case TokenKind::kPunctuator:
      if (at("(")) {
        next();
        FlagScope in(no_in_, false);
        parse_expression();
        expect(")");
        return;
      }
      if (at("[")) {
        parse_array_literal();
        return;
      }
      if (at("{")) {
        parse_object_literal();
        return;
      }
      if (at("/") || at("/=")) {
        token_ = scanner_.rescan_regex(token_);
        if (token_.kind != TokenKind::kRegex) fail();
        next();
        return;
      }
      if (at("@")) refuse("decorator", "call a function on the class instead", token_.start);
      fail();
    default:
      fail();
  }
}

// parseNewExpressionOrNewDotTarget: the callee takes member accesses and type arguments, not calls.
void Parser::parse_new() {
  next();  // new
  if (eat(".")) {
    if (!at_identifier_or_keyword()) fail();
    next();
    return;
  }
  parse_primary();
  parse_member_rest(/*allow_optional_chain=*/false);
  if (at("(")) parse_arguments();
}

void Parser::parse_array_literal() {
  expect("[");
  FlagScope in(no_in_, false);
  while (!at("]")) {
    if (eat(",")) continue;
    eat("...");
    parse_assignment();
    if (!at("]")) expect(",");
  }
  next();
}

void Parser::parse_object_literal() {
  expect("{");
  FlagScope in(no_in_, false);
  while (!at("}")) {
    if (eat("...")) {
      parse_assignment();
    } else {
      bool is_async = false;
      bool is_generator = false;
      bool accessor = false;
      const auto modifier_applies = [&] {
        const Token after = peek(token_);
        return !after.is("(") && !after.is(":") && !after.is(",") && !after.is("}") &&
               !after.is("=") && !after.is("<") && !after.is("?");
      };
      if (at("async") && modifier_applies() && !peek(token_).newline_before) {
        next();
        is_async = true;
      }
      if (eat("*")) is_generator = true;
      if ((at("get") || at("set")) && !is_async && !is_generator && modifier_applies()) {
        next();
        accessor = true;
      }
      const bool shorthand_candidate = at_identifier();
      parse_property_name();
      if (at("(") || at("<") || accessor || is_async || is_generator) {
        parse_method_rest(is_async, is_generator, nullptr);
      } else if (eat(":")) {
        parse_assignment();
      } else if (shorthand_candidate && eat("=")) {  // { a = 1 } in a destructuring assignment
        parse_assignment();
      } else if (!shorthand_candidate) {
        fail();
      }
    }
    if (!at("}")) expect(",");
  }
  next();
}

}  // namespace codemode::worker::typescript
