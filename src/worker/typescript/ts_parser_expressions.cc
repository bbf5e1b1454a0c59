// Expressions: `as` and `satisfies` (refused where erasing them would regroup operators), `<T>`
// assertions, non-null `!`, calls, `new` and tagged templates with their type arguments (tried in
// ts_parser_speculation.cc, with arrow functions), literals and templates.
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
    if (allow_optional_chain && at("?.")) {
      const Token after = peek(token_);
      if (after.kind == TokenKind::kIdentifier || after.kind == TokenKind::kPrivateName ||
          after.is("[") || (after.kind == TokenKind::kTemplate && after.text[0] == '`') ||
          (after.kind == TokenKind::kTemplateHead && after.text[0] == '`')) {
        next();
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
    if (at("!") && !token_.newline_before) {
      blank(token_.start, token_.end);
      next();
      continue;
    }
    if (try_type_arguments_in_expression()) continue;
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
