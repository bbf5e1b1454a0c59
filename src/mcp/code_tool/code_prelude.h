// The JavaScript around the model's code in a code-mode program (code_program.h assembles it):
//
//   async (input, tools) => {
//     'use strict';
//     const {main, checked, envelope, caught} = (new Function('input', 'tools', "<text>"))(input,
//     tools); <epilogue>    runs main and returns the envelope below
//   }
//
// where <text>, one JSON string, is
//
//   'use strict';
//   <prelude>     const {main, ...} = (() => { ...; return {main: new AsyncFunction(<body>)}})();
//   return {main, checked, envelope, caught};
//
// The prelude is compiled from a string, as the model's code is, for speed alone: the worker
// checks a program's shape with Reflect.parse, which builds the whole syntax tree as objects (for
// a prelude with the repository tools' method table, 1.5-2.5 ms of CPU per call); a string
// literal is one node of that tree. `Function` is looked up before anything of the program runs,
// and compiles the text once, lazily as any source is compiled (docs/performance.md, "codemode
// mcp: one tools/call end to end"). The prelude is synchronous and the epilogue stays in the
// program's own async arrow, so the arrow returns the prototype-less envelope itself, never a
// promise whose `then` a program could have replaced.
//
// The model's code is never program source: the prelude compiles it, from a JSON string, as the
// whole body of an async function of its own (CreateDynamicFunction: the body must be exactly a
// FunctionBody, so a text whose braces would close it is a SyntaxError, thrown before the model's
// code runs, which ends the program as its own error, as a compile error would). That function is
// compiled in the global scope: the prelude's and epilogue's names are not in its scope, not even
// to a direct eval, and it sees `codemode`, `console` (with console capture), `input` and `tools`
// as read-only globals the prelude defines, which its own declarations may shadow. Everything the
// wrapper uses after the model's code started is captured before (closures, not globals), and the
// envelope and its parts have no prototype, so a `then` or `toJSON` the program puts on
// Object.prototype cannot replace them. This relies on the AsyncFunction constructor, which the
// worker leaves to programs (eval and Function work there: tests/worker/worker_globals_test.cc).
//
// The envelope is the program's whole result; the code tool takes it apart (code_result.h):
//   {result: <value, undefined as null>, logs?: [string]}    main returned
//   {error: {code: "host_calls_limit"}, logs?}               main threw one of the prelude's own
//                                                            host_calls_limit errors (or
//                                                            server_host_operations_limit ones)
//   {error: {code: "final_result_bytes_limit", bytes}, logs?}
//                                                            main returned a value whose JSON is
//                                                            `bytes` (> final_result_bytes) long
//   {error: {code: "code_rejected", message}, logs}          main threw anything else, with
//                                                            console capture on (message: the
//                                                            thrown value's, <= 1,024 units)
//   (with console capture off, any other throw is rethrown as is)
// A returned value that is not JSON as it is (a cycle, a BigInt, a throwing toJSON, NaN or an
// infinity) counts as a throw of a TypeError saying so: code_rejected, never a changed result.
// `logs` is present exactly when console capture is on.
//
// codemode.<ns>.<method>(args) throws an Error with enumerable `code` and `operation`: the code is
// the rule of tools.call's error mapped through the rule table (code_program.h), else the rule
// itself; the message is the table's, else codemode's fixed message for the call.
//
// console (only with console capture on): log, info, warn, error and debug append one line each:
// the arguments rendered (a string as is; any other value as JSON, else String(value); never
// throwing) joined by spaces, after "[info] ", "[warn] ", "[error] " or "[debug] ". Lone
// surrogates become U+FFFD. The lines, as a compact JSON array, stay within the byte cap: the line
// that would pass it is cut to what fits, then "[logs truncated]" ends the logs and later lines
// are dropped. Lines logged after main settled are dropped too.
//
// Thread-safety: pure functions.
#ifndef CODEMODE_MCP_CODE_TOOL_CODE_PRELUDE_H_
#define CODEMODE_MCP_CODE_TOOL_CODE_PRELUDE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "codemode/json.h"

namespace codemode::mcp {

inline constexpr std::string_view kLogsTruncatedMarker = "[logs truncated]";

// The program source of every invocation of one code tool, built once: everything but the model's
// function body is fixed for the tool's life, so each call only escapes its own code and joins
// three strings (the tables alone are tens of kilobytes of JSON with a few configured servers).
class ProgramText {
 public:
  // `methods`: rows [namespace, method, tool id, description, input schema]; `rules`: {rule:
  // [code, message]}; `console_log_bytes`: the logs' cap, 0 for no console;
  // `final_result_bytes`: the result's cap as compact JSON.
  // `model_code`: the model profile, whose worker compiles the model's code as sent
  // (__codemodeCompileCode: it decides between body and function, and erases TypeScript);
  // otherwise the prelude compiles the body it is given with the AsyncFunction constructor.
  ProgramText(const Json& methods, const Json& rules, std::int64_t console_log_bytes,
              std::int64_t final_result_bytes, bool model_code = false);

  // The program: `function_body` (the body of the model's function, code_program.h) compiled as
  // it is.
  std::string source(std::string_view function_body) const;

 private:
  std::string before_;  // up to the model's body, inside the prelude's string
  std::string after_;   // from the end of the model's body
};

// `text` as a JSON string's content: escaped, without the quotes.
std::string json_string_content(std::string_view text);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_CODE_TOOL_CODE_PRELUDE_H_
