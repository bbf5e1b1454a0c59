// The parser's tokens, erasure helpers and ASI rule. The grammar is split by kind: statements,
// expressions, functions and classes, types.
#include "worker/typescript/ts_parser.h"

#include <array>
#include <utility>

namespace codemode::worker::typescript {
namespace {

// ECMAScript's reserved words, which TypeScript's isIdentifier() refuses (the strict-mode ones and
// the contextual keywords stay identifiers there, and so here).
constexpr std::array<std::string_view, 36> kReservedWords = {
    "break",  "case",     "catch",  "class",  "const",  "continue",   "debugger", "default",
    "delete", "do",       "else",   "enum",   "export", "extends",    "false",    "finally",
    "for",    "function", "if",     "import", "in",     "instanceof", "new",      "null",
    "return", "super",    "switch", "this",   "throw",  "true",       "try",      "typeof",
    "var",    "void",     "while",  "with"};

}  // namespace

Parser::Parser(std::string_view source, EditList& edits)
    : source_(source),
      scanner_(source),
      edits_(edits),
      // Every byte is scanned a few times at most (peeks, speculation that gives up); the budget
      // leaves room for that on any program and stops inputs built to make speculation repeat.
      work_budget_(16 * static_cast<std::uint64_t>(source.size()) + 100'000) {
  token_ = scanner_.scan(0);
}

void Parser::count_work(std::uint32_t from, std::uint32_t to) {
  work_ += to - from + 1;
  if (work_ > work_budget_) throw ParseStop{ParseStop::Kind::kTooComplex, token_.start, {}, {}};
}

void Parser::next() {
  prev_end_ = token_.end;
  prev_word_ = token_.kind == TokenKind::kIdentifier ? token_.text : std::string_view();
  token_ = scanner_.scan(token_.end);
  count_work(prev_end_, token_.end);
}

Token Parser::peek(const Token& after) const {
  const Token token = scanner_.scan(after.end);
  const_cast<Parser*>(this)->count_work(after.end, token.end);
  return token;
}

void Parser::advance_to(std::uint32_t offset) {
  prev_end_ = offset;
  prev_word_ = {};
  token_ = scanner_.scan(offset);
  count_work(offset, token_.end);
}

bool Parser::eat(std::string_view text) {
  if (!at(text)) return false;
  next();
  return true;
}

void Parser::expect(std::string_view text) {
  if (!eat(text)) fail();
}

bool Parser::is_reserved_word(const Token& token) {
  if (token.kind != TokenKind::kIdentifier || token.escaped) return false;
  for (std::string_view word : kReservedWords) {
    if (token.text == word) return true;
  }
  return false;
}

void Parser::restore(const State& state) {
  token_ = state.token;
  prev_end_ = state.prev_end;
  asi_at_ = state.asi_at;
  prev_word_ = state.prev_word;
  single_statement_ = state.single_statement;
  edits_.rewind(state.mark);
}

void Parser::fail() const { throw ParseStop{ParseStop::Kind::kSyntax, token_.start, {}, {}}; }

void Parser::refuse(std::string construct, std::string advice, std::uint32_t offset) const {
  throw ParseStop{ParseStop::Kind::kUnsupported, offset, std::move(construct), std::move(advice)};
}

void Parser::erase_whole(std::uint32_t start, const State& before) {
  edits_.rewind(before.mark);
  blank(start, prev_end_);
  // The statement before ended by automatic semicolon insertion at this line break; once this one
  // is blank, the next line could continue it (`let x = 1` / `interface I {}` / `(f)()`). Or this
  // is the body of an if, a loop or a label, which must remain a statement.
  if ((before.asi_at == before.prev_end && before.prev_end != 0) || before.single_statement) {
    edits_.put(source_, {start, prev_end_}, ';', /*from_back=*/false);
  }
}

bool Parser::can_parse_semicolon() const {
  return at(";") || at("}") || token_.kind == TokenKind::kEnd || token_.newline_before;
}

void Parser::parse_semicolon() {
  if (eat(";")) return;
  if (!can_parse_semicolon()) fail();
  asi_at_ = prev_end_;
  if (!token_.newline_before || at("}") || token_.kind == TokenKind::kEnd) return;
  // TypeScript ended the statement at a line break after type syntax (`x as T`, `let y: T`). Once
  // that is blank, JavaScript might read the next line as a continuation (`(`, `[`, a template,
  // an operator), so the semicolon TypeScript inserted is written into the blank.
  const TokenKind kind = token_.kind;
  if (kind == TokenKind::kIdentifier || kind == TokenKind::kNumber || kind == TokenKind::kString ||
      kind == TokenKind::kPrivateName || at("{")) {
    return;
  }
  const EditList::Span* last = edits_.last_blank();
  if (last != nullptr && last->end == prev_end_) {
    edits_.put(source_, *last, ';', /*from_back=*/false);
  }
}

void Parser::parse_program() {
  while (token_.kind != TokenKind::kEnd) {
    if (at("}")) fail();
    parse_statement();
  }
}

}  // namespace codemode::worker::typescript
