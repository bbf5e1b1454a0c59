// Types, as TypeScript's parseType reads them. Whoever asked for a type blanks its whole span, so
// nothing inside one records an edit of its own (Parser::blank).
#include "worker/typescript/ts_parser.h"

namespace codemode::worker::typescript {

// parseType: a function or constructor type, or a union with an optional conditional tail.
void Parser::parse_type() {
  DepthGuard guard(*this);
  FlagScope type(in_type_, true);
  if (is_start_of_function_type()) {
    parse_function_type();
    return;
  }
  parse_union_type();
  if (!no_conditional_types_ && !token_.newline_before && eat("extends")) {
    {
      FlagScope no_conditional(no_conditional_types_, true);
      parse_type();
    }
    FlagScope conditional(no_conditional_types_, false);
    expect("?");
    parse_type();
    expect(":");
    parse_type();
  }
}

void Parser::parse_function_type() {
  eat("abstract");
  eat("new");
  parse_signature_rest();
  expect("=>");
  parse_return_type();
}

// Type parameters, parameters and, after `:`, a return type (a signature's, not a function type's).
void Parser::parse_signature_rest() {
  if (at("<")) parse_type_parameters();
  parse_parameters();
}

// parseTypeOrTypePredicate: `x is T`, `asserts x is T`, `this is T` or a type; a return type may
// be conditional even in the `extends` of a conditional type.
void Parser::parse_return_type() {
  FlagScope conditional(no_conditional_types_, false);
  if (at_identifier() && !at("asserts")) {
    const Token after = peek(token_);
    if (after.is("is") && !after.newline_before) {
      next();
      next();
      parse_type();
      return;
    }
  }
  parse_type();
}

bool Parser::is_start_of_function_type() const {
  if (at("<") || at("new")) return true;
  if (at("abstract")) return peek(token_).is("new");
  if (!at("(")) return false;
  // isUnambiguouslyStartOfFunctionType
  Token token = peek(token_);
  if (token.is(")") || token.is("...")) return true;
  while (token.kind == TokenKind::kIdentifier && !token.escaped &&
         (token.is("public") || token.is("private") || token.is("protected") ||
          token.is("readonly")) &&
         peek(token).kind == TokenKind::kIdentifier) {
    token = peek(token);
  }
  if (is_identifier(token) || token.is("this")) {
    token = peek(token);
  } else if (token.is("[") || token.is("{")) {
    skip_balanced(token);
  } else {
    return false;
  }
  if (token.is(":") || token.is(",") || token.is("?") || token.is("=")) return true;
  return token.is(")") && peek(token).is("=>");
}

// From an opening `[`, `{` or `(` to the token after its match (or the end), on lookahead.
void Parser::skip_balanced(Token& token) const {
  int depth = 0;
  do {
    if (token.is("[") || token.is("{") || token.is("(") || token.kind == TokenKind::kTemplateHead) {
      ++depth;
    } else if (token.is("]") || token.is("}") || token.is(")")) {
      --depth;
    }
    token = peek(token);
  } while (depth > 0 && token.kind != TokenKind::kEnd && token.kind != TokenKind::kError);
}

void Parser::parse_union_type() {
  eat("|");
  parse_intersection_type();
  while (eat("|")) parse_intersection_type();
}

void Parser::parse_intersection_type() {
  eat("&");
  parse_type_operator();
  while (eat("&")) parse_type_operator();
}

void Parser::parse_type_operator() {
  DepthGuard guard(*this);
  if (is_start_of_function_type()) {  // an error in TypeScript, parsed all the same
    parse_function_type();
    return;
  }
  if (at("keyof") || at("unique") || at("readonly")) {
    next();
    parse_type_operator();
    return;
  }
  if (at("infer")) {
    next();
    if (!at_identifier_or_keyword()) fail();
    next();
    if (at("extends")) {  // tryParseConstraintOfInferType
      const bool outer_no_conditional = no_conditional_types_;
      speculate([&] {
        next();
        {
          FlagScope no_conditional(no_conditional_types_, true);
          parse_type();
        }
        return outer_no_conditional || !at("?");
      });
    }
    return;
  }
  parse_postfix_type();
}

// parsePostfixTypeOrHigher: `T[]`, `T[K]`, and the JSDoc postfixes `T!` and `T?`. Inside it
// (brackets, parentheses, type arguments) conditional types are allowed again.
void Parser::parse_postfix_type() {
  FlagScope conditional(no_conditional_types_, false);
  parse_non_array_type();
  while (!token_.newline_before) {
    if (at("!")) {
      next();
    } else if (at("?")) {
      if (is_start_of_type(peek(token_))) return;  // a conditional expression's `?`
      next();
    } else if (eat("[")) {
      if (!at("]")) parse_type();
      expect("]");
    } else {
      return;
    }
  }
}

void Parser::parse_non_array_type() {
  DepthGuard guard(*this);
  switch (token_.kind) {
    case TokenKind::kString:
    case TokenKind::kNumber:
      next();
      return;
    case TokenKind::kTemplate:
    case TokenKind::kTemplateHead:
      if (token_.text[0] != '`') fail();
      parse_template_type();
      return;
    case TokenKind::kIdentifier:
      if (at("this")) {
        next();
        if (at("is") && !token_.newline_before) {
          next();
          parse_type();
        }
        return;
      }
      if (at("typeof")) {
        next();
        if (at("import")) {
          parse_import_type();
          return;
        }
        parse_type_reference();
        return;
      }
      if (at("import")) {
        parse_import_type();
        return;
      }
      if (at("asserts")) {
        const Token after = peek(token_);
        if (!after.newline_before && after.kind == TokenKind::kIdentifier) {
          next();
          next();
          if (at("is") && !token_.newline_before) {
            next();
            parse_type();
          }
          return;
        }
      }
      parse_type_reference();
      return;
    case TokenKind::kPunctuator:
      if (at("{")) {
        if (is_start_of_mapped_type()) {
          parse_mapped_type();
        } else {
          parse_object_type();
        }
        return;
      }
      if (at("[")) {
        parse_tuple_type();
        return;
      }
      if (eat("(")) {
        parse_type();
        expect(")");
        return;
      }
      if (at("-") && peek(token_).kind == TokenKind::kNumber) {
        next();
        next();
        return;
      }
      fail();
    default:
      fail();
  }
}

// `import("module").Name<T>`, and after `typeof`.
void Parser::parse_import_type() {
  next();  // import
  expect("(");
  parse_type();
  if (eat(",")) parse_object_literal();  // import attributes
  eat(",");
  expect(")");
  while (eat(".")) {
    if (!at_identifier_or_keyword()) fail();
    next();
  }
  if (at("<") && !token_.newline_before) parse_type_arguments();
}

// parseTypeReference: a dotted name (keywords allowed, as in `as const`), then type arguments on
// the same line.
void Parser::parse_type_reference() {
  if (!at_identifier_or_keyword()) fail();
  next();
  while (eat(".")) {
    if (!at_identifier_or_keyword() && token_.kind != TokenKind::kPrivateName) fail();
    next();
  }
  if (at("<") && !token_.newline_before && raw(token_.start + 1) != '=') parse_type_arguments();
}

void Parser::parse_type_arguments() {
  expect("<");
  while (!at(">")) {
    parse_type();
    if (!at(">")) expect(",");
  }
  next();
}

// `<const T extends U = V, in out W>`.
void Parser::parse_type_parameters() {
  expect("<");
  while (!at(">")) {
    while ((at("const") || at("in") || at("out")) && peek(token_).kind == TokenKind::kIdentifier) {
      next();
    }
    if (!at_identifier()) fail();
    next();
    if (eat("extends")) parse_type();
    if (eat("=")) parse_type();
    if (!at(">")) expect(",");
  }
  next();
}

void Parser::parse_object_type() {
  expect("{");
  while (!at("}")) {
    if (token_.kind == TokenKind::kEnd) fail();
    parse_type_member();
    // parseTypeMemberSemicolon: `,`, `;`, or a line break (or the closing brace).
    if (!eat(",") && !eat(";") && !at("}") && !token_.newline_before) fail();
  }
  next();
}

// A property, method, call, construct or index signature, or a get/set accessor signature.
void Parser::parse_type_member() {
  DepthGuard guard(*this);
  if (at("(") || at("<")) {
    parse_signature_rest();
    if (eat(":")) parse_return_type();
    return;
  }
  if (at("new") && (peek(token_).is("(") || peek(token_).is("<"))) {
    next();
    parse_signature_rest();
    if (eat(":")) parse_return_type();
    return;
  }
  while (at("readonly") || at("public") || at("private") || at("protected") || at("static") ||
         at("declare") || at("abstract") || at("override")) {
    const Token after = peek(token_);
    if (after.newline_before || after.is("?") || after.is(":") || after.is("(") || after.is("<") ||
        after.is(",") || after.is(";") || after.is("}")) {
      break;
    }
    next();
  }
  if (at("[") && is_index_signature()) {
    parse_index_signature();
    return;
  }
  if (at("get") || at("set")) {
    const Token after = peek(token_);
    if (!after.is("(") && !after.is("<") && !after.is("?") && !after.is(":") && !after.is(",") &&
        !after.is(";") && !after.is("}") && !after.newline_before) {
      next();
    }
  }
  parse_property_name();
  eat("?");
  if (at("(") || at("<")) {
    parse_signature_rest();
    if (eat(":")) parse_return_type();
    return;
  }
  if (eat(":")) parse_type();
}

bool Parser::is_start_of_mapped_type() const {
  Token token = peek(token_);
  if (token.is("+") || token.is("-")) {
    token = peek(token);
    if (!token.is("readonly")) return false;
    token = peek(token);
  } else if (token.is("readonly")) {
    token = peek(token);
  }
  if (!token.is("[")) return false;
  token = peek(token);
  if (token.kind != TokenKind::kIdentifier) return false;
  return peek(token).is("in");
}

// `{ readonly [K in keyof T as U]-?: T[K] }`.
void Parser::parse_mapped_type() {
  expect("{");
  if (eat("+") || eat("-")) {
    expect("readonly");
  } else {
    eat("readonly");
  }
  expect("[");
  next();  // the name
  expect("in");
  parse_type();
  if (eat("as")) parse_type();
  expect("]");
  if (eat("+") || eat("-")) {
    expect("?");
  } else {
    eat("?");
  }
  if (eat(":")) parse_type();
  if (!eat(";")) eat(",");
  expect("}");
}

// `[a: T, b?: U, ...rest: V[]]` or `[T, U?, ...V[]]`.
void Parser::parse_tuple_type() {
  expect("[");
  while (!at("]")) {
    Token name = token_;
    if (name.is("...")) name = peek(name);
    const Token after = peek(name);
    const bool named = name.kind == TokenKind::kIdentifier &&
                       (after.is(":") || (after.is("?") && peek(after).is(":")));
    if (named) {
      eat("...");
      next();
      eat("?");
      expect(":");
    } else {
      eat("...");
    }
    parse_type();
    if (!at("]")) expect(",");
  }
  next();
}

// `` `prefix${T}middle${U}` ``.
void Parser::parse_template_type() {
  if (token_.kind == TokenKind::kTemplate) {
    next();
    return;
  }
  for (;;) {
    next();
    parse_type();
    if (!at("}")) fail();
    token_ = scanner_.rescan_template(token_);
    if (token_.kind == TokenKind::kTemplate) break;
    if (token_.kind != TokenKind::kTemplateHead) fail();
  }
  next();
}

// isStartOfType, for `token`.
bool Parser::is_start_of_type(const Token& token, bool in_start_of_parameter) const {
  switch (token.kind) {
    case TokenKind::kString:
    case TokenKind::kNumber:
    case TokenKind::kTemplate:
    case TokenKind::kTemplateHead:
      return true;
    case TokenKind::kIdentifier:
      if (token.is("function")) return !in_start_of_parameter;
      return !is_reserved_word(token) || token.is("this") || token.is("typeof") ||
             token.is("void") || token.is("null") || token.is("true") || token.is("false") ||
             token.is("new") || token.is("import");
    case TokenKind::kPunctuator: {
      static constexpr std::string_view kStarts[] = {"{", "[", "<", "|", "&", "*", "?", "!", "..."};
      for (std::string_view start : kStarts) {
        if (token.is(start)) return true;
      }
      if (token.is("-")) return !in_start_of_parameter && peek(token).kind == TokenKind::kNumber;
      if (token.is("(")) {
        if (in_start_of_parameter) return false;
        const Token after = peek(token);
        return after.is(")") || after.is("...") || after.kind == TokenKind::kIdentifier ||
               after.is("[") || after.is("{") || after.is("@") || after.is("(") || after.is("<") ||
               after.is("|") || after.is("&") || after.is("-") ||
               after.kind == TokenKind::kString || after.kind == TokenKind::kNumber ||
               after.kind == TokenKind::kTemplate || after.kind == TokenKind::kTemplateHead;
      }
      return false;
    }
    default:
      return false;
  }
}

}  // namespace codemode::worker::typescript
