// The MCP code tool's model code, compiled in the worker (model profile): the code tool's prelude
// calls __codemodeCompileCode(code) with the text a model sent, and gets back the function to run.
// The text is untrusted, so reading it happens here, in the confined worker, never in the host:
//   - it is a function expression when it parses as exactly one (async) function or arrow
//     expression, or one non-generator function declaration; that function is called with no
//     arguments. Anything else is the body of an async function (statements, top-level await,
//     `return`);
//   - TypeScript: text that does not compile as JavaScript is compiled again with its type syntax
//     erased (worker/typescript/type_eraser.h), so plain JavaScript runs byte for byte as sent;
//   - both forms compile through the AsyncFunction constructor in strict mode, whose body must be
//     exactly a FunctionBody: text that would close the function early is a SyntaxError;
//   - a SyntaxError carries its line and column in the model's own text (ModelCode::syntax_error),
//     and later errors are located through the compiled function's script (ModelCode::compiled).
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_MODEL_CODE_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_MODEL_CODE_H_

#include <optional>
#include <string>

#include <jsapi.h>

#include "codemode/sandbox.h"

#include "worker/program_location.h"

namespace codemode::worker {

// What the engine keeps of the model's code of one execution.
struct ModelCode {
  explicit ModelCode(JSContext* cx) : classify(cx), async_function(cx), syntax_error(cx) {}

  // Prepared before any program runs: the trusted realm's classifier (text) -> null or
  // [endLine, endColumn] of the one function, and the model realm's AsyncFunction constructor.
  JS::PersistentRootedObject classify;
  JS::PersistentRootedObject async_function;

  std::string text;                         // the model's code as sent (its lines are shown)
  std::optional<CompiledText> compiled;     // set once it compiled
  JS::PersistentRootedObject syntax_error;  // the SyntaxError compiling it threw, if any
  std::optional<ProgramErrorLocation> syntax_location;
};

// In the trusted global (entered): the classifier above.
JSObject* create_model_code_classifier(JSContext* cx);

// __codemodeCompileCode(code) -> function, defined on `global` (the model profile's, entered),
// compiling into `model` (which must outlive the global).
bool define_model_code_compiler(JSContext* cx, JS::HandleObject global, ModelCode* model);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_MODEL_CODE_H_
