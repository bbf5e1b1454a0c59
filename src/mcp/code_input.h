// What a model sends as the `code` tool's `code`, made into something the code tool can wrap.
// Models write either an async function body (statements, top-level await, `return`) or a whole
// function expression (`async () => { ... }`), often inside a markdown fence; both are accepted
// (docs/mcp.md, "Code mode"). This decides which one a text is, by its first tokens: the
// decision only chooses how the text is wrapped, and a text that is neither fails to compile in
// the sandbox like any other syntax error.
#ifndef CODEMODE_MCP_CODE_INPUT_H_
#define CODEMODE_MCP_CODE_INPUT_H_

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
// the blank space around it, then classifies the rest: a function expression starts with
// `function`, `async function`, `async (...) =>`, `async x =>`, `(...) =>` or `x =>`; anything
// else is a body.
CodeInput normalize_code_input(std::string_view code);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_INPUT_H_
