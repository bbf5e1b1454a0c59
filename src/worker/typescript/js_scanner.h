// The tokenizer of the type eraser: JavaScript's tokens plus the few TypeScript adds, scanned one
// at a time from a byte offset the parser chooses. The parser, not the scanner, decides what a `/`
// or a `}` means (a regular expression or a division, the end of a block or the rest of a
// template), as JavaScript's grammar does, by asking for a rescan at that token's start.
//
// `<` and `>` are always single tokens: the parser composes `<=`, `>>`, `>>>=` and the others
// from the bytes that follow when it reads an operator, so that `Map<K, Set<V>>` needs no
// splitting. Source is UTF-8; a byte that is not well-formed UTF-8 is an identifier character, as
// the engine decides what it means.
//
// Thread-safety: a Scanner is used by one thread; it borrows the source, which must outlive it.
#ifndef CODEMODE_WORKER_TYPESCRIPT_JS_SCANNER_H_
#define CODEMODE_WORKER_TYPESCRIPT_JS_SCANNER_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace codemode::worker::typescript {

enum class TokenKind : std::uint8_t {
  kEnd,           // end of the source
  kIdentifier,    // identifiers and keywords alike; `escaped` says whether \u escapes spell it
  kPrivateName,   // #name
  kNumber,        // numeric and BigInt literals
  kString,        // '...' or "..."
  kTemplate,      // `...` with no substitution, or the tail `}...` of one
  kTemplateHead,  // `...${ or the middle }...${ of a template
  kRegex,         // /.../flags, only from rescan_regex
  kPunctuator,    // everything else, longest match except `<` and `>`
  kError,         // an unterminated string, template, comment or regex, or a stray byte
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::uint32_t start = 0;
  std::uint32_t end = 0;
  bool newline_before = false;  // a line terminator lies between the previous token and this one
  bool escaped = false;         // an identifier spelled with escapes is never a keyword
  std::string_view text;

  bool is(std::string_view punctuator_or_word) const {
    return text.size() == punctuator_or_word.size() && !text.empty() &&
           text[0] == punctuator_or_word[0] &&
           (kind == TokenKind::kPunctuator || (kind == TokenKind::kIdentifier && !escaped)) &&
           text == punctuator_or_word;
  }
};

class Scanner {
 public:
  // REQUIRES: source.size() < 2^32.
  explicit Scanner(std::string_view source) : source_(source) {}

  // The first token at or after byte `offset` (whitespace and comments skipped).
  Token scan(std::uint32_t offset) const;
  // A regular expression literal starting at `slash` (a `/` or `/=` token's start).
  Token rescan_regex(const Token& slash) const;
  // The rest of a template after a substitution: `brace` is the `}` token closing it.
  Token rescan_template(const Token& brace) const;

  std::string_view source() const { return source_; }

 private:
  // Skips whitespace and comments from `offset`; sets `newline` when a line terminator was seen,
  // `error` when a block comment does not end.
  std::uint32_t skip_trivia(std::uint32_t offset, bool& newline, bool& error) const;
  std::uint32_t scan_identifier_rest(std::uint32_t offset, bool& escaped) const;
  std::uint32_t scan_number(std::uint32_t offset) const;
  // The end of a string or template part; sets `kind` (kError when unterminated).
  std::uint32_t scan_string(std::uint32_t offset, TokenKind& kind) const;
  std::uint32_t scan_template_part(std::uint32_t offset, TokenKind& kind) const;
  std::uint32_t scan_punctuator(std::uint32_t offset) const;

  std::string_view source_;
};

// Character classes, shared with the edit list (erasure_edits.h).
// The length in bytes of the line terminator at `offset`, or 0: \n, \r, U+2028, U+2029.
std::size_t line_terminator_length(std::string_view source, std::size_t offset);
// The length of the well-formed UTF-8 sequence at `offset`, or 1 when none starts there.
std::size_t utf8_sequence_length(std::string_view source, std::size_t offset);

}  // namespace codemode::worker::typescript

#endif  // CODEMODE_WORKER_TYPESCRIPT_JS_SCANNER_H_
