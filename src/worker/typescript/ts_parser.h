// The type eraser's parser: a recursive-descent parser of TypeScript that builds no tree. It walks
// the program as TypeScript's own parser does (src/compiler/parser.ts in TypeScript 5.x, whose
// functions the comments name), recording in an EditList the spans that are type syntax, and stops
// at the first construct that has no JavaScript meaning once types are gone.
//
// Where TypeScript guesses (is `(a, b)` an arrow function's head? is `f<T>(x)` a call with type
// arguments?) it parses speculatively and rewinds; so does this parser, with TypeScript's rules for
// when to try and when to accept, and its memo of parentheses that were no arrow head. Hostile
// input is bounded twice: a depth limit on recursion, and a budget of scanned tokens proportional
// to the input, which speculation cannot exceed either.
//
// Internal to type_eraser.cc; failures are thrown as ParseStop and caught there.
#ifndef CODEMODE_WORKER_TYPESCRIPT_TS_PARSER_H_
#define CODEMODE_WORKER_TYPESCRIPT_TS_PARSER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "worker/typescript/erasure_edits.h"
#include "worker/typescript/js_scanner.h"

namespace codemode::worker::typescript {

// Why parsing stopped. A kSyntax stop inside speculation only rewinds it.
struct ParseStop {
  enum class Kind { kSyntax, kUnsupported, kTooDeep, kTooComplex };
  Kind kind;
  std::uint32_t offset;
  std::string construct;  // for kUnsupported: "enum", "decorator", ...
  std::string advice;     // for kUnsupported: what to write instead
};

class Parser {
 public:
  // Recursion units (each nested statement, expression, type or pattern takes a few); past this
  // the program is refused as too deeply nested.
  static constexpr int kMaxDepth = 600;

  // `edits` receives what to erase; both must outlive the parser.
  Parser(std::string_view source, EditList& edits);

  // Parses the whole source. Throws ParseStop.
  void parse_program();

 private:
  struct State {
    Token token;
    std::uint32_t prev_end;
    std::uint32_t asi_at;
    std::string_view prev_word;
    bool single_statement;  // the statement starting here is the body of if, a loop or a label
    EditList::Mark mark;
  };
  class DepthGuard;
  enum class Tristate { kFalse, kTrue, kUnknown };

  // ---- tokens (ts_parser.cc)
  void next();
  Token peek(const Token& after) const;
  bool at(std::string_view text) const { return token_.is(text); }
  bool eat(std::string_view text);
  void expect(std::string_view text);
  bool at_identifier() const { return is_identifier(token_); }
  static bool is_reserved_word(const Token& token);
  static bool is_identifier(const Token& token) {  // an identifier that is no reserved word
    return token.kind == TokenKind::kIdentifier && !is_reserved_word(token);
  }
  bool at_identifier_or_keyword() const { return token_.kind == TokenKind::kIdentifier; }
  char raw(std::uint32_t offset) const { return offset < source_.size() ? source_[offset] : '\0'; }
  void advance_to(std::uint32_t offset);  // rescans from `offset` (after a composed operator)
  State save() const {
    return {token_, prev_end_, asi_at_, prev_word_, single_statement_, edits_.mark()};
  }
  void restore(const State& state);
  [[noreturn]] void fail() const;
  [[noreturn]] void refuse(std::string construct, std::string advice, std::uint32_t offset) const;
  void count_work(std::uint32_t from, std::uint32_t to);  // bytes scanned, against the budget
  // Runs `parse` speculatively: true when it returned true; otherwise (also when it met a syntax
  // error) the parser is back where it was.
  template <typename Parse>
  bool speculate(Parse parse);

  // ---- erasure (ts_parser.cc)
  // Records [start, end) as erased; inside a type nothing is, as the whole type will be (so spans
  // never nest, and applying them stays linear).
  void blank(std::uint32_t start, std::uint32_t end) {
    if (!in_type_) edits_.blank(start, end);
  }
  // Erases a statement or class member that is wholly type syntax, from `start` to the last token
  // parsed; `before` is the state at its start.
  void erase_whole(std::uint32_t start, const State& before);
  bool can_parse_semicolon() const;
  void parse_semicolon();

  // ---- statements (ts_parser_statements.cc); each returns true when it was wholly erased
  bool parse_statement();
  bool parse_body_statement();              // the body of if, else, a loop or a label
  bool parse_statement_list_until_brace();  // true when every statement was erased
  void parse_block();
  void parse_variable_declarations(bool no_in);
  void parse_for();
  void parse_switch();
  void parse_try();
  std::optional<bool> parse_typescript_declaration(const State& before);
  bool parse_namespace(const State& before);
  void parse_enum_body();
  bool parse_import(const State& before);
  bool parse_export(const State& before);
  bool parse_module_specifiers();
  bool is_type_specifier_modifier()
      const;  // `{ ... }` of an import or export; true when all are types

  // ---- expressions (ts_parser_expressions.cc)
  void parse_expression();
  void parse_assignment(bool allow_return_type = true);
  void parse_conditional_rest(bool allow_return_type);
  void parse_binary(int min_precedence);
  void parse_unary();
  void parse_type_assertion();
  void parse_left_hand_side();
  void parse_member_rest(bool allow_optional_chain);
  void parse_call_rest();
  void parse_primary();
  void parse_new();
  void parse_arguments();
  void parse_template();
  void parse_array_literal();
  void parse_object_literal();
  bool is_binary_operator() const;
  // The binary or assignment operator at the current token, composing `<`/`>` with what follows.
  struct Operator {
    int precedence = 0;  // 0: none
    bool assignment = false;
    std::uint32_t length = 0;
  };
  Operator current_operator() const;

  // ---- arrow heads and type arguments in expressions (ts_parser_speculation.cc)
  bool try_parenthesized_arrow(bool allow_return_type);
  Tristate is_parenthesized_arrow() const;
  bool parse_parenthesized_arrow(bool allow_ambiguity, bool allow_return_type);
  bool try_async_simple_arrow(bool allow_return_type);
  void parse_arrow_body(bool is_async, bool allow_return_type);
  bool try_type_arguments_in_expression();
  bool can_follow_type_arguments() const;
  bool is_start_of_expression() const;

  // ---- functions, parameters, classes (ts_parser_functions.cc)
  void parse_function(bool declaration_may_lack_body, bool* erased);
  void parse_function_rest(bool is_async, bool is_generator, bool body_optional, bool* has_body);
  void parse_function_body(bool is_async, bool is_generator);
  void parse_parameters();
  void parse_parameter();
  void parse_binding_target();
  void parse_binding_element();
  void parse_type_annotation_if_any();
  void parse_return_type_if_any();
  void parse_type_parameters_if_any();
  void parse_class(bool is_declaration);
  void parse_class_heritage();
  bool parse_class_member();
  bool is_class_modifier() const;
  bool next_can_follow_modifier() const;
  bool is_index_signature() const;
  void parse_property_name();
  void parse_method_rest(bool is_async, bool is_generator, bool* erased);
  void parse_index_signature();

  // ---- types (ts_parser_types.cc); types are erased by the callers, so these record nothing
  void parse_type();
  void parse_return_type();  // a type or a type predicate
  void parse_union_type();
  void parse_intersection_type();
  void parse_type_operator();
  void parse_postfix_type();
  void parse_non_array_type();
  void parse_type_reference();
  void parse_type_arguments();
  void parse_type_parameters();
  void parse_object_type();
  void parse_mapped_type();
  void parse_type_member();
  void parse_tuple_type();
  void parse_template_type();
  void parse_signature_rest();  // type parameters, parameters and return type of a signature
  bool is_start_of_type(const Token& token, bool in_start_of_parameter = false) const;
  void parse_function_type();
  void parse_import_type();
  void skip_balanced(Token& token) const;  // lookahead past a bracketed group
  bool is_start_of_function_type() const;
  bool is_start_of_mapped_type() const;

  std::string_view source_;
  Scanner scanner_;
  EditList& edits_;
  Token token_;
  std::uint32_t prev_end_ = 0;         // end of the last token consumed
  std::uint32_t asi_at_ = UINT32_MAX;  // where a semicolon was inserted last
  std::string_view prev_word_;         // the last token consumed, if a word
  int depth_ = 0;
  std::uint64_t work_ = 0;
  std::uint64_t work_budget_;
  std::unordered_set<std::uint32_t> not_arrow_;  // `(` offsets known to start no arrow function
  // Contexts.
  bool in_generator_ = false;
  bool in_async_ = false;
  bool no_in_ = false;                 // `in` is no operator (a for statement's head)
  bool no_conditional_types_ = false;  // in `extends` of a conditional type
  bool ambient_ = false;               // inside `declare`: bodies may be missing
  bool in_type_ = false;
  bool single_statement_ = false;  // the next statement parsed is a body that must stay one //
                                   // inside a type, which its reader blanks whole
  bool in_speculation_ = false;
};

// Sets a context flag for a scope and restores it on every exit, exceptions included.
class FlagScope {
 public:
  FlagScope(bool& flag, bool value) : flag_(flag), saved_(flag) { flag = value; }
  ~FlagScope() { flag_ = saved_; }
  FlagScope(const FlagScope&) = delete;
  FlagScope& operator=(const FlagScope&) = delete;

 private:
  bool& flag_;
  bool saved_;
};

// Counts one level of recursion for its scope; past kMaxDepth, stops the parse.
class Parser::DepthGuard {
 public:
  explicit DepthGuard(Parser& parser) : parser_(parser) {
    if (++parser_.depth_ > kMaxDepth) {
      throw ParseStop{ParseStop::Kind::kTooDeep, parser_.token_.start, {}, {}};
    }
  }
  ~DepthGuard() { --parser_.depth_; }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  Parser& parser_;
};

template <typename Parse>
bool Parser::speculate(Parse parse) {
  const State state = save();
  const bool was_speculating = in_speculation_;
  in_speculation_ = true;
  bool ok = false;
  try {
    ok = parse();
  } catch (const ParseStop& stop) {
    if (stop.kind != ParseStop::Kind::kSyntax) throw;
  }
  in_speculation_ = was_speculating;
  if (!ok) restore(state);
  return ok;
}

}  // namespace codemode::worker::typescript

#endif  // CODEMODE_WORKER_TYPESCRIPT_TS_PARSER_H_
