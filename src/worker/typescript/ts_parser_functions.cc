// Functions, parameters and binding patterns, and classes: the places where type syntax sits
// between values (parameter and return types, `this` parameters, overloads, modifiers, index
// signatures, `implements`), and where TypeScript adds runtime meaning that is refused
// (parameter properties, decorators, auto-accessors).
#include "worker/typescript/ts_parser.h"

namespace codemode::worker::typescript {
namespace {

bool can_follow_modifier(const Token& token) {
  return token.is("[") || token.is("{") || token.is("*") || token.is("...") ||
         token.kind == TokenKind::kIdentifier || token.kind == TokenKind::kString ||
         token.kind == TokenKind::kNumber || token.kind == TokenKind::kPrivateName;
}

bool is_parameter_modifier(const Token& token) {
  return token.is("public") || token.is("private") || token.is("protected") ||
         token.is("readonly") || token.is("override");
}

}  // namespace

void Parser::parse_function(bool declaration_may_lack_body, bool* erased) {
  const bool is_async = eat("async");
  expect("function");
  const bool is_generator = eat("*");
  if (token_.kind == TokenKind::kIdentifier && !at("(") && !at("<")) {
    if (!at_identifier() && !at("yield") && !at("await")) fail();
    next();
  }
  bool has_body = true;
  parse_function_rest(is_async, is_generator, declaration_may_lack_body, &has_body);
  if (erased != nullptr) *erased = !has_body;
}

// Type parameters, parameters, return type, then a body, or (an overload, or inside `declare`)
// none when `body_optional` and a semicolon can end it.
void Parser::parse_function_rest(bool is_async, bool is_generator, bool body_optional,
                                 bool* has_body) {
  parse_type_parameters_if_any();
  {
    FlagScope async(in_async_, is_async);
    FlagScope generator(in_generator_, is_generator);
    parse_parameters();
  }
  parse_return_type_if_any();
  if (!at("{") && (body_optional || ambient_) && can_parse_semicolon()) {
    parse_semicolon();
    *has_body = false;
    return;
  }
  parse_function_body(is_async, is_generator);
}

void Parser::parse_function_body(bool is_async, bool is_generator) {
  FlagScope async(in_async_, is_async);
  FlagScope generator(in_generator_, is_generator);
  FlagScope in(no_in_, false);
  parse_block();
}

// `(a?: T, ...rest: U[])`; a `this` parameter (first only) is erased with its comma.
void Parser::parse_parameters() {
  expect("(");
  FlagScope in(no_in_, false);
  bool first = true;
  while (!at(")")) {
    const std::uint32_t start = token_.start;
    if (first && at("this")) {
      next();
      parse_type_annotation_if_any();
      eat(",");
      blank(start, prev_end_);
    } else {
      parse_parameter();
      if (!at(")")) expect(",");
    }
    first = false;
  }
  next();
}

void Parser::parse_parameter() {
  DepthGuard guard(*this);
  const std::uint32_t start = token_.start;
  if (at("@")) refuse("decorator", "call a function on the value instead", start);
  if (is_parameter_modifier(token_)) {
    const Token after = peek(token_);
    if (!after.newline_before && can_follow_modifier(after)) {
      refuse("parameter property", "declare the field and assign it in the constructor instead",
             start);
    }
  }
  eat("...");
  parse_binding_target();
  if (at("?")) {
    blank(token_.start, token_.end);
    next();
  }
  parse_type_annotation_if_any();
  if (eat("=")) parse_assignment();
}

void Parser::parse_binding_target() {
  DepthGuard guard(*this);
  if (eat("[")) {
    while (!at("]")) {
      if (eat(",")) continue;
      parse_binding_element();
      if (!at("]")) expect(",");
    }
    next();
    return;
  }
  if (eat("{")) {
    while (!at("}")) {
      if (eat("...")) {
        parse_binding_target();
      } else {
        const bool shorthand_candidate = at_identifier();
        parse_property_name();
        if (eat(":")) {
          parse_binding_element();
        } else if (!shorthand_candidate) {
          fail();
        } else if (eat("=")) {
          FlagScope in(no_in_, false);
          parse_assignment();
        }
      }
      if (!at("}")) expect(",");
    }
    next();
    return;
  }
  if (!at_identifier() && !at("yield") && !at("await")) fail();
  next();
}

void Parser::parse_binding_element() {
  eat("...");
  parse_binding_target();
  if (eat("=")) {
    FlagScope in(no_in_, false);
    parse_assignment();
  }
}

void Parser::parse_type_annotation_if_any() {
  if (!at(":")) return;
  const std::uint32_t start = token_.start;
  next();
  parse_type();
  blank(start, prev_end_);
}

void Parser::parse_return_type_if_any() {
  if (!at(":")) return;
  const std::uint32_t start = token_.start;
  next();
  parse_return_type();
  blank(start, prev_end_);
}

void Parser::parse_type_parameters_if_any() {
  if (!at("<")) return;
  const std::uint32_t start = token_.start;
  parse_type_parameters();
  blank(start, prev_end_);
}

void Parser::parse_class(bool is_declaration) {
  next();  // class
  if (at_identifier() && !(at("implements") && peek(token_).kind == TokenKind::kIdentifier)) {
    next();
  } else if (is_declaration && !at("{") && !at("extends") && !at("implements") && !at("<")) {
    fail();
  }
  parse_type_parameters_if_any();
  parse_class_heritage();
  expect("{");
  while (!at("}")) {
    if (token_.kind == TokenKind::kEnd) fail();
    parse_class_member();
  }
  next();
}

// `extends Base<T>` (type arguments erased) and `implements A, B` (erased whole).
void Parser::parse_class_heritage() {
  for (;;) {
    if (eat("extends")) {
      parse_left_hand_side();
      if (at("<")) {
        const std::uint32_t start = token_.start;
        parse_type_arguments();
        blank(start, prev_end_);
      }
    } else if (at("implements")) {
      const std::uint32_t start = token_.start;
      next();
      do {
        parse_type_reference();
      } while (eat(","));
      blank(start, prev_end_);
    } else {
      return;
    }
  }
}

bool Parser::is_class_modifier() const {
  return at("public") || at("private") || at("protected") || at("readonly") || at("static") ||
         at("abstract") || at("declare") || at("override") || at("async") || at("accessor");
}

// nextTokenCanFollowModifier for class members: `static` may end a line, the others may not.
bool Parser::next_can_follow_modifier() const {
  const Token after = peek(token_);
  if (!at("static") && after.newline_before) return false;
  return can_follow_modifier(after);
}

// isUnambiguouslyIndexSignature, at `[`.
bool Parser::is_index_signature() const {
  Token token = peek(token_);
  if (token.is("...") || token.is("]")) return true;
  if (token.kind == TokenKind::kIdentifier && !token.escaped &&
      (is_parameter_modifier(token) || token.is("static") || token.is("declare") ||
       token.is("abstract") || token.is("export") || token.is("async"))) {
    token = peek(token);
    if (is_identifier(token)) return true;
  } else if (!is_identifier(token)) {
    return false;
  } else {
    token = peek(token);
  }
  if (token.is(":") || token.is(",")) return true;
  if (!token.is("?")) return false;
  token = peek(token);
  return token.is(":") || token.is(",") || token.is("]");
}

void Parser::parse_index_signature() {
  expect("[");
  do {
    while (is_parameter_modifier(token_) && peek(token_).kind == TokenKind::kIdentifier) next();
    eat("...");
    if (!at_identifier_or_keyword()) fail();
    next();
    eat("?");
    if (eat(":")) parse_type();
  } while (eat(","));
  expect("]");
  if (eat(":")) parse_type();
}

// One class member; true when it was erased whole (an index signature, an overload, an abstract
// or `declare` member).
bool Parser::parse_class_member() {
  DepthGuard guard(*this);
  const State before = save();
  const std::uint32_t start = token_.start;
  if (eat(";")) return false;
  if (at("@")) refuse("decorator", "call a function on the class or method instead", start);
  if (at("static") && peek(token_).is("{")) {
    next();
    parse_function_body(/*is_async=*/false, /*is_generator=*/false);
    return false;
  }
  bool type_only = false;
  bool is_async = false;
  while (is_class_modifier() && next_can_follow_modifier()) {
    if (at("accessor")) refuse("accessor", "write a getter and a setter instead", start);
    if (at("declare") || at("abstract")) type_only = true;
    if (at("async")) {
      is_async = true;
    } else if (!at("static")) {
      blank(token_.start, token_.end);
    }
    next();
  }
  if (at("[") && is_index_signature()) {
    parse_index_signature();
    if (!eat(",")) parse_semicolon();
    erase_whole(start, before);
    return true;
  }
  const bool is_generator = eat("*");
  bool accessor = false;
  if ((at("get") || at("set")) && !is_async && !is_generator) {
    const Token after = peek(token_);
    if (after.is("[") || after.kind == TokenKind::kPrivateName ||
        after.kind == TokenKind::kIdentifier || after.kind == TokenKind::kString ||
        after.kind == TokenKind::kNumber) {
      next();
      accessor = true;
    }
  }
  parse_property_name();
  if ((at("?") || at("!")) && !accessor) {
    blank(token_.start, token_.end);
    next();
  }
  if (at("(") || at("<") || accessor || is_async || is_generator) {
    bool erased = false;
    parse_method_rest(is_async, is_generator, &erased);
    if (erased || type_only) {
      erase_whole(start, before);
      return true;
    }
    return false;
  }
  parse_type_annotation_if_any();
  if (eat("=")) {
    FlagScope async(in_async_, false);
    FlagScope generator(in_generator_, false);
    parse_assignment();
  }
  parse_semicolon();
  if (type_only) erase_whole(start, before);
  return type_only;
}

void Parser::parse_property_name() {
  if (token_.kind == TokenKind::kIdentifier || token_.kind == TokenKind::kString ||
      token_.kind == TokenKind::kNumber || token_.kind == TokenKind::kPrivateName) {
    next();
    return;
  }
  if (!eat("[")) fail();
  FlagScope in(no_in_, false);
  parse_assignment();
  expect("]");
}

// After a method's name: type parameters, parameters, return type, body. A class method's body
// may be missing (an overload or abstract method: `erased` is set then); an object literal's not.
void Parser::parse_method_rest(bool is_async, bool is_generator, bool* erased) {
  bool has_body = true;
  parse_function_rest(is_async, is_generator, erased != nullptr, &has_body);
  if (erased != nullptr) *erased = !has_body;
}

}  // namespace codemode::worker::typescript
