// Reads JavaScript source as a flat sequence of significant tokens, each with its bracket depth, so
// that a caller can find where a brace, parenthesis or bracket closes without a parser. It exists
// for code_input.h, which must tell a function expression from a function body written by a model.
//
// What it understands: blank space and line breaks (\n, \r), line and block comments, string
// literals ('...' and "..." with backslash escapes), template literals with `${ ... }`
// substitutions nested to any depth (the substitutions are scanned as code), regular-expression
// literals (with [...] classes and escapes), identifiers, numbers, `=>`, and any other character as
// a one-character punctuator. A `/` starts a regular expression when the previous token is not an
// operand: at the start, after a punctuator other than `)` and `]`, after a template chunk that
// opens a substitution, and after a prefix keyword (is_prefix_keyword: return, typeof, ...) unless
// it follows a `.`. After an identifier, a number, a string, a regular expression, a finished
// template, `)` or `]` it is division. The usual heuristic, and it misreads a few texts:
// `if (x) /re/` reads the `/` as division, `{} / 2` (an object literal divided) reads it as a
// regular expression.
//
// What it does not understand: the grammar (it never checks that tokens make sense together),
// U+2028 and U+2029 as line breaks, HTML-like comments (`<!--`), a hashbang line, multi-character
// operators other than `=>`, and escapes in identifiers. An unterminated string, template, regular
// expression or block comment, a closer that does not match the innermost opener, and the end of
// the text with brackets still open all end the scan with kUnreadable: a caller must then not
// trust the depths it has read so far to describe the whole text.
//
// Linear in the text: every character is read once, and nesting is an explicit stack.
#ifndef CODEMODE_MCP_CODE_TOOL_JS_BRACE_SCANNER_H_
#define CODEMODE_MCP_CODE_TOOL_JS_BRACE_SCANNER_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace codemode::mcp {

enum class JsTokenKind {
  kIdentifier,  // also keywords and non-ASCII words
  kNumber,
  kString,
  kTemplate,  // one chunk: from ` or the } closing a substitution, to ` or the ${ opening one
  kRegex,
  kPunctuator,  // one character, or `=>`
  kEnd,         // the whole text was read and every bracket closed
  kUnreadable,  // see above; the scan is over
};

struct JsToken {
  JsTokenKind kind = JsTokenKind::kEnd;
  std::string_view text;          // a view into the scanned source
  std::size_t depth = 0;          // open brackets around it; an opener and its closer share one
  bool after_line_break = false;  // a line break (maybe inside a comment) comes before it
};

// True for the keywords that an operand or a name must follow (`return`, `typeof`, `in`, `await`,
// `function`, `class`, ...): such a word never ends an expression.
bool is_prefix_keyword(std::string_view word);

class JsBraceScanner {
 public:
  // REQUIRES: `source` outlives the scanner and every token it returns.
  explicit JsBraceScanner(std::string_view source) : source_(source) {}

  // The next token. After kEnd or kUnreadable, returns that same kind again.
  JsToken next();

 private:
  bool skip_blanks_and_comments();  // false on an unterminated block comment
  JsToken scan_token();
  JsToken scan_quoted(char quote);
  JsToken scan_template(std::size_t from);
  JsToken scan_regex();
  JsToken scan_word(JsTokenKind kind);
  JsToken scan_bracket(char c);
  JsToken make(JsTokenKind kind, std::size_t end);
  JsToken unreadable();
  void note_regex_allowed(const JsToken& token);

  std::string_view source_;
  std::size_t pos_ = 0;
  std::vector<char> open_;  // '(', '[', '{', or '`' for a template substitution
  bool regex_allowed_ = true;
  bool after_dot_ = false;
  bool line_break_ = false;
  bool over_ = false;  // kEnd or kUnreadable was returned: `final_` is the answer from now on
  JsToken final_;
};

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_JS_BRACE_SCANNER_H_
