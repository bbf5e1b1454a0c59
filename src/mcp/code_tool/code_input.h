// What a model sends as the `code` tool's `code`, made into something the code tool can wrap.
// Models write either an async function body (statements, top-level await, `return`) or a whole
// function expression (`async () => { ... }`), often inside a markdown fence; both are accepted
// (docs/mcp.md, "Code mode"). The decision only chooses how the text is wrapped: a text that is
// neither fails to compile in the sandbox like any other syntax error.
#ifndef CODEMODE_MCP_CODE_TOOL_CODE_INPUT_H_
#define CODEMODE_MCP_CODE_TOOL_CODE_INPUT_H_

#include <string>
#include <string_view>

namespace codemode::mcp {

enum class CodeForm {
  kFunctionBody,        // statements, run as the body of an async function
  kFunctionExpression,  // one function or arrow function expression, called with no arguments
};

struct CodeInput {
  std::string source;  // without the fence and the surrounding blank space
  CodeForm form = CodeForm::kFunctionBody;
};

// Removes one markdown fence around the whole text (```, ```js, ```javascript, ```ts, ...) and
// the blank space around it, then classifies the rest. It is a function expression only when the
// whole text is one (read with js_brace_scanner.h, no parser):
//  - `function ... (...) { ... }` or `async function ...`, or an arrow with a block body,
//    `(...) => { ... }`, `async (...) => { ... }`, `x => { ... }`, `async x => { ... }`, where
//    after the body's closing brace come only blanks, comments and semicolons;
//  - an arrow with a concise body (`async () => 40 + 2`), unless a statement follows it at the top
//    level: after a `;`, or after a line break that ends the statement by automatic semicolon
//    insertion (a word, number or string on a new line after a word, number, string, regular
//    expression, template, `)`, `]` or `}`: `x => x` then `return 1` on the next line).
// An arrow's parameters must each start with a name, `[`, `{` or `...`. Anything else is a body:
// `function f() {}` followed by `return f();`, or `(function () { ... })()`.
// A text that starts like a function expression (`function`, `async function`, an arrow's head)
// is a body only when the scanner reads all of it: when the scan cannot finish (an unterminated
// string, unbalanced brackets, often the trace of a regular expression misread as division), it
// stays a function expression, as before this scan existed. A function expression misread as a
// body would silently return nothing; a body misread as an expression fails loudly, with a syntax
// error. An arrow head that cannot be read (`(a = ') => 1`) is a body, as before.
// The source of a function expression ends where the expression does: trailing semicolons and
// comments are dropped, so that code_program.h can wrap it in parentheses.
CodeInput normalize_code_input(std::string_view code);

// The model profile's reading, which leaves the rest to the worker: the text as sent, with the
// lines of one markdown fence that encloses all of it blanked out (spaces), so that every line
// and column in an error is the one in the text the model sent. The form is left as
// kFunctionBody: the worker decides.
CodeInput unfence_code_input(std::string_view code);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_CODE_INPUT_H_
