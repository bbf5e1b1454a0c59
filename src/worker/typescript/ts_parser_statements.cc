// Statements, and TypeScript's declarations: erased when they are types only (interface, type,
// declare, type-only imports and exports, namespaces holding only types), refused when they
// would be values (enum, namespace with values, import =, export =).
#include <optional>

#include "worker/typescript/ts_parser.h"

namespace codemode::worker::typescript {

bool Parser::parse_body_statement() {
  single_statement_ = true;
  return parse_statement();
}

bool Parser::parse_statement() {
  DepthGuard guard(*this);
  const State before = save();
  single_statement_ = false;
  const std::uint32_t start = token_.start;
  if (at("{")) {
    parse_block();
    return false;
  }
  if (eat(";")) return false;
  if (at("@")) refuse("decorator", "call a function on the class or method instead", start);
  if (at("enum") || (at("const") && peek(token_).is("enum"))) {
    if (!ambient_) refuse(at("enum") ? "enum" : "const enum", "use a plain object instead", start);
    if (at("const")) next();
    next();
    next();
    parse_enum_body();
    return true;
  }
  if (at("var") || at("const")) {
    next();
    parse_variable_declarations(false);
    parse_semicolon();
    return false;
  }
  if (at("let")) {
    const Token after = peek(token_);
    if (after.kind == TokenKind::kIdentifier || after.is("[") || after.is("{")) {
      next();
      parse_variable_declarations(false);
      parse_semicolon();
      return false;
    }
  }
  if (at("function") ||
      (at("async") && peek(token_).is("function") && !peek(token_).newline_before)) {
    bool erased = false;
    parse_function(/*declaration_may_lack_body=*/true, &erased);
    if (erased) erase_whole(start, before);
    return erased;
  }
  if (at("class")) {
    parse_class(/*is_declaration=*/true);
    return ambient_;
  }
  if (at("if")) {
    next();
    expect("(");
    parse_expression();
    expect(")");
    parse_body_statement();
    if (eat("else")) parse_body_statement();
    return false;
  }
  if (at("for")) {
    parse_for();
    return false;
  }
  if (at("while") || at("with")) {
    next();
    expect("(");
    parse_expression();
    expect(")");
    parse_body_statement();
    return false;
  }
  if (at("do")) {
    next();
    parse_body_statement();
    expect("while");
    expect("(");
    parse_expression();
    expect(")");
    eat(";");  // TypeScript, like engines, needs no line break after do-while
    return false;
  }
  if (at("switch")) {
    parse_switch();
    return false;
  }
  if (at("try")) {
    parse_try();
    return false;
  }
  if (at("return") || at("throw")) {
    next();
    if (!can_parse_semicolon()) parse_expression();
    parse_semicolon();
    return false;
  }
  if (at("break") || at("continue")) {
    next();
    if (at_identifier() && !token_.newline_before) next();
    parse_semicolon();
    return false;
  }
  if (at("debugger")) {
    next();
    parse_semicolon();
    return false;
  }
  if (at("import")) {
    const Token after = peek(token_);
    if (!after.is("(") && !after.is(".")) return parse_import(before);
  }
  if (at("export")) return parse_export(before);
  if (token_.kind == TokenKind::kIdentifier && !token_.escaped) {
    if (const std::optional<bool> erased = parse_typescript_declaration(before)) return *erased;
    if (at_identifier() && peek(token_).is(":")) {  // a label
      next();
      next();
      return parse_body_statement();
    }
  }
  parse_expression();
  parse_semicolon();
  return false;
}

// interface, type, declare, abstract class, namespace and module, each only when TypeScript's
// parser reads it as one (the name follows on the same line); otherwise it is an identifier, and
// the result empty. Else whether the declaration was erased.
std::optional<bool> Parser::parse_typescript_declaration(const State& before) {
  const std::uint32_t start = token_.start;
  const Token after = peek(token_);
  const bool same_line = !after.newline_before;
  if ((at("interface") || at("type")) && same_line && after.kind == TokenKind::kIdentifier) {
    const bool is_interface = at("interface");
    next();
    next();
    parse_type_parameters_if_any();
    if (is_interface) {
      if (eat("extends")) {
        do {
          parse_type_reference();
        } while (eat(","));
      }
      parse_object_type();
    } else {
      expect("=");
      parse_type();
      parse_semicolon();
    }
    erase_whole(start, before);
    return true;
  }
  if (at("declare") && same_line && after.kind == TokenKind::kIdentifier) {
    next();
    FlagScope ambient(ambient_, true);
    if (at("global")) {
      next();
      parse_block();
    } else {
      parse_statement();
    }
    erase_whole(start, before);
    return true;
  }
  if (at("abstract") && same_line && after.is("class")) {
    next();
    blank(start, prev_end_);
    parse_class(/*is_declaration=*/true);
    return ambient_;
  }
  if ((at("namespace") || at("module")) && same_line &&
      (after.kind == TokenKind::kIdentifier || after.kind == TokenKind::kString)) {
    return parse_namespace(before);
  }
  if (at("global") && ambient_ && after.is("{")) {
    next();
    parse_block();
    return true;
  }
  return std::nullopt;
}

bool Parser::parse_namespace(const State& before) {
  const std::uint32_t start = token_.start;
  next();  // namespace or module
  next();  // the name
  while (eat(".")) {
    if (!at_identifier_or_keyword()) fail();
    next();
  }
  if (ambient_ && !at("{")) {  // declare module "x";
    parse_semicolon();
    return true;
  }
  expect("{");
  const bool types_only = parse_statement_list_until_brace();
  expect("}");
  if (!types_only && !ambient_) {
    refuse("namespace", "use a plain object or separate functions instead", start);
  }
  erase_whole(start, before);
  return true;
}

bool Parser::parse_statement_list_until_brace() {
  bool all_erased = true;
  while (!at("}")) {
    if (token_.kind == TokenKind::kEnd) fail();
    if (!parse_statement()) all_erased = false;
  }
  return all_erased;
}

void Parser::parse_block() {
  expect("{");
  parse_statement_list_until_brace();
  expect("}");
}

void Parser::parse_variable_declarations(bool no_in) {
  do {
    parse_binding_target();
    if (at("!") && !token_.newline_before) {  // let x!: T, a definite assignment
      blank(token_.start, token_.end);
      next();
    }
    parse_type_annotation_if_any();
    if (eat("=")) {
      FlagScope in(no_in_, no_in);
      parse_assignment();
    }
  } while (eat(","));
}

void Parser::parse_for() {
  next();  // for
  eat("await");
  expect("(");
  {
    FlagScope in(no_in_, true);
    if (at("var") || at("const") ||
        (at("let") && (peek(token_).kind == TokenKind::kIdentifier || peek(token_).is("[") ||
                       peek(token_).is("{")))) {
      next();
      parse_variable_declarations(true);
    } else if (!at(";")) {
      parse_expression();
    }
  }
  if (eat("of")) {
    parse_assignment();
  } else if (eat("in")) {
    parse_expression();
  } else {
    expect(";");
    if (!at(";")) parse_expression();
    expect(";");
    if (!at(")")) parse_expression();
  }
  expect(")");
  parse_body_statement();
}

void Parser::parse_switch() {
  next();
  expect("(");
  parse_expression();
  expect(")");
  expect("{");
  while (!eat("}")) {
    if (eat("case")) {
      parse_expression();
    } else if (!eat("default")) {
      fail();
    }
    expect(":");
    while (!at("case") && !at("default") && !at("}")) {
      if (token_.kind == TokenKind::kEnd) fail();
      parse_statement();
    }
  }
}

void Parser::parse_try() {
  next();
  parse_block();
  if (eat("catch")) {
    if (eat("(")) {
      parse_binding_target();
      parse_type_annotation_if_any();  // catch (e: unknown)
      expect(")");
    }
    parse_block();
  }
  if (eat("finally")) parse_block();
}

// Only reached in ambient context (`declare enum`), where it is erased with the rest.
void Parser::parse_enum_body() {
  expect("{");
  while (!eat("}")) {
    parse_property_name();
    if (eat("=")) parse_assignment();
    if (!at("}")) expect(",");
  }
}

bool Parser::parse_import(const State& before) {
  const std::uint32_t start = token_.start;
  next();                                   // import
  if (token_.kind == TokenKind::kString) {  // import "module";
    next();
    parse_semicolon();
    return false;
  }
  bool type_only = false;
  if (at("type")) {
    const Token after = peek(token_);
    if (after.is("{") || after.is("*") ||
        (after.kind == TokenKind::kIdentifier && (!after.is("from") || peek(after).is("from")))) {
      next();
      type_only = true;
    }
  }
  bool values = false;
  bool more = true;
  if (at_identifier()) {
    next();
    if (at("=")) {
      // An alias or a CommonJS import: erased when it is types (`import type A = B.C`, or inside
      // `declare`), refused otherwise.
      if (!type_only && !ambient_) {
        refuse("import =", "the sandbox has no modules to require; use a local constant instead",
               start);
      }
      next();
      if (at("require") && peek(token_).is("(")) {
        next();
        next();
        if (token_.kind != TokenKind::kString) fail();
        next();
        expect(")");
      } else {
        parse_type_reference();
      }
      parse_semicolon();
      erase_whole(start, before);
      return true;
    }
    values = true;
    more = eat(",");
  }
  if (more && eat("*")) {
    expect("as");
    next();
    values = true;
  } else if (more && at("{")) {
    if (!parse_module_specifiers()) values = true;
  }
  expect("from");
  if (token_.kind != TokenKind::kString) fail();
  next();
  if ((at("assert") || at("with")) && !token_.newline_before) {
    next();
    parse_object_literal();
  }
  parse_semicolon();
  if (type_only || !values) {
    erase_whole(start, before);
    return true;
  }
  return false;
}

// Whether `type` at the current token modifies the import or export specifier after it, as
// TypeScript's parseImportOrExportSpecifier decides: `{ type }` and `{ type as x }` name `type`,
// `{ type as }` and `{ type X }` are type-only.
bool Parser::is_type_specifier_modifier() const {
  const Token after = peek(token_);
  if (after.kind != TokenKind::kIdentifier && after.kind != TokenKind::kString) return false;
  if (!after.is("as")) return true;
  const Token second = peek(after);
  if (second.kind != TokenKind::kIdentifier) return true;
  const Token third = peek(second);
  return !third.is(",") && !third.is("}");
}

// `{ a, type B, c as d }`: erases each `type` specifier (with its comma); true when every
// specifier was one (an empty list counts as values, as TypeScript keeps `import {} from "m"`).
bool Parser::parse_module_specifiers() {
  expect("{");
  bool any = false;
  bool all_types = true;
  while (!at("}")) {
    const std::uint32_t start = token_.start;
    bool is_type = false;
    if (at("type") && is_type_specifier_modifier()) {
      next();
      is_type = true;
    }
    if (token_.kind != TokenKind::kIdentifier && token_.kind != TokenKind::kString) fail();
    next();
    if (eat("as")) {
      if (token_.kind != TokenKind::kIdentifier && token_.kind != TokenKind::kString) fail();
      next();
    }
    any = true;
    if (!is_type) all_types = false;
    if (!at("}")) expect(",");
    if (is_type) blank(start, prev_end_);
  }
  next();  // }
  return any && all_types;
}

bool Parser::parse_export(const State& before) {
  const std::uint32_t start = token_.start;
  next();  // export
  if (at("=") && !ambient_) refuse("export =", "return the value from the program instead", start);
  if (eat("=")) {  // export = in a declared module
    parse_expression();
    parse_semicolon();
    erase_whole(start, before);
    return true;
  }
  if (at("import") && !ambient_) {
    refuse("import =", "the sandbox has no modules to require; use a local constant instead",
           start);
  }
  if (at("as") && peek(token_).is("namespace")) {  // export as namespace N;
    next();
    next();
    next();
    parse_semicolon();
    erase_whole(start, before);
    return true;
  }
  if (at("type") && (peek(token_).is("{") || peek(token_).is("*"))) {
    next();
    if (eat("*")) {
      if (eat("as")) next();
    } else {
      parse_module_specifiers();
    }
    if (eat("from")) next();
    parse_semicolon();
    erase_whole(start, before);
    return true;
  }
  if (at("{") || at("*")) {
    bool types_only = false;
    if (eat("*")) {
      if (eat("as")) next();
    } else {
      types_only = parse_module_specifiers();
    }
    if (eat("from")) {
      if (token_.kind != TokenKind::kString) fail();
      next();
    }
    parse_semicolon();
    if (types_only) erase_whole(start, before);
    return types_only;
  }
  if (eat("default")) {
    if (at("interface") || (at("abstract") && peek(token_).is("class")) || at("function") ||
        at("class") || (at("async") && peek(token_).is("function"))) {
      if (parse_statement()) {
        erase_whole(start, before);
        return true;
      }
      return false;
    }
    parse_assignment();
    parse_semicolon();
    return false;
  }
  if (parse_statement()) {
    erase_whole(start, before);
    return true;
  }
  return false;
}

}  // namespace codemode::worker::typescript
