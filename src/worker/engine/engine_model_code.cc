#include "worker/engine/engine_model_code.h"

#include <cstddef>
#include <cstdint>
#include <new>
#include <string_view>
#include <variant>

#include <js/CallAndConstruct.h>
#include <js/CompilationAndEvaluation.h>
#include <js/ErrorReport.h>
#include <js/Exception.h>
#include <js/SourceText.h>

#include "codemode/program.h"

#include "worker/engine/engine_guest.h"
#include "worker/engine/engine_strings.h"
#include "worker/typescript/type_eraser.h"

namespace codemode::worker {
namespace {

// The trusted realm's reading of the text (Reflect.parse builds its whole tree, so only a text
// that may be one function is read: it names `function` or has an arrow).
constexpr std::string_view kClassifier = R"js((function classifyModelCode(source) {
  'use strict';
  // An anonymous function (`async function () { ... }`) is an expression only: read in
  // parentheses, it ends one column to the left on its first line.
  let body;
  let shifted = false;
  try {
    body = Reflect.parse(source, { source: 'code' }).body;
  } catch (_) {
    try {
      body = Reflect.parse('(' + source + '\n)', { source: 'code' }).body;
      shifted = true;
    } catch (_) {
      return null;
    }
  }
  // Semicolons after the function (`async function main() {};`) are empty statements.
  const statements = body.filter((statement) => statement.type !== 'EmptyStatement');
  if (statements.length !== 1) return null;
  const only = statements[0];
  let node = null;
  if (only.type === 'ExpressionStatement' &&
      (only.expression.type === 'ArrowFunctionExpression' ||
       only.expression.type === 'FunctionExpression')) {
    node = only.expression;
  } else if (only.type === 'FunctionDeclaration') {
    node = only;
  }
  if (node === null || node.generator) return null;
  const end = node.loc.end;
  return [end.line, shifted && end.line === 1 ? end.column - 1 : end.column];
}))js";

// What the AsyncFunction constructor puts before the body: "async function anonymous(\n) {\n".
constexpr std::int64_t kDynamicFunctionLines = 2;
constexpr std::string_view kBodyPrefix = "'use strict';";
constexpr std::string_view kExpressionPrefix = "'use strict';return (";
constexpr std::string_view kExpressionSuffix = "\n)();";

// The byte offset in UTF-8 `text` of (1-based) `line` and (0-based, UTF-16) `column`.
std::optional<std::size_t> offset_of(std::string_view text, std::uint32_t line,
                                     std::uint32_t column) {
  std::size_t at = 0;
  for (std::uint32_t current = 1; current < line; ++current) {
    for (;;) {
      if (at >= text.size()) return std::nullopt;
      const auto byte = static_cast<unsigned char>(text[at]);
      if (byte == '\n') {
        ++at;
        break;
      }
      if (byte == '\r') {
        at += at + 1 < text.size() && text[at + 1] == '\n' ? 2 : 1;
        break;
      }
      if (byte == 0xE2 && at + 2 < text.size() &&
          static_cast<unsigned char>(text[at + 1]) == 0x80 &&
          (static_cast<unsigned char>(text[at + 2]) == 0xA8 ||
           static_cast<unsigned char>(text[at + 2]) == 0xA9)) {
        at += 3;
        break;
      }
      ++at;
    }
  }
  for (std::uint32_t units = 0; units < column; ++at) {
    if (at >= text.size()) return std::nullopt;
    const auto byte = static_cast<unsigned char>(text[at]);
    if ((byte & 0xC0) == 0x80) continue;  // continuation bytes add nothing
    units += byte >= 0xF0 ? 2 : 1;        // four-byte characters are surrogate pairs
  }
  return at;
}

// Where the one function of `text` ends, when the classifier says it is one.
bool function_end(JSContext* cx, const ModelCode& model, std::string_view text,
                  std::optional<std::size_t>& end) {
  end.reset();
  if (text.find("=>") == std::string_view::npos &&
      text.find("function") == std::string_view::npos) {
    return true;
  }
  JS::RootedObject classify(cx, model.classify);
  JSAutoRealm realm(cx, classify);
  JS::RootedValueArray<1> args(cx);
  JS::RootedString source(cx, new_string(cx, text));
  if (!source) return false;
  args[0].setString(source);
  JS::RootedValue verdict(cx);
  if (!JS::Call(cx, JS::UndefinedHandleValue, classify, args, &verdict)) return false;
  if (!verdict.isObject()) return true;
  JS::RootedObject pair(cx, &verdict.toObject());
  JS::RootedValue line(cx);
  JS::RootedValue column(cx);
  if (!JS_GetElement(cx, pair, 0, &line) || !JS_GetElement(cx, pair, 1, &column)) return false;
  if (line.isInt32() && column.isInt32() && line.toInt32() >= 1 && column.toInt32() >= 0) {
    end = offset_of(text, static_cast<std::uint32_t>(line.toInt32()),
                    static_cast<std::uint32_t>(column.toInt32()));
  }
  return true;
}

// The model's code compiled as one form; false with the engine's exception pending when it does
// not compile.
bool compile_as(JSContext* cx, ModelCode& model, std::string_view text, bool& located,
                JS::MutableHandleValue main) {
  std::optional<std::size_t> end;
  if (!function_end(cx, model, text, end)) return false;
  const bool expression = end.has_value();
  const std::string body = expression ? std::string(kExpressionPrefix) +
                                            std::string(text.substr(0, *end)) +
                                            std::string(kExpressionSuffix)
                                      : std::string(kBodyPrefix) + std::string(text);
  CompiledText compiled{.filename = {},
                        .text = model.text,
                        .line_offset = kDynamicFunctionLines,
                        .first_line_columns = static_cast<std::int64_t>(
                            (expression ? kExpressionPrefix : kBodyPrefix).size())};
  JS::RootedValueArray<1> args(cx);
  JS::RootedString source(cx, new_string(cx, body));
  if (!source) return false;
  args[0].setString(source);
  JS::RootedValue constructor(cx, JS::ObjectValue(*model.async_function));
  JS::RootedObject function(cx);
  if (!JS::Construct(cx, constructor, args, &function)) {
    JS::RootedValue exception(cx);
    if (!JS_GetPendingException(cx, &exception) || !exception.isObject()) return false;
    JS::RootedObject error(cx, &exception.toObject());
    const JSErrorReport* report = JS_ErrorFromException(cx, error);
    if (report && report->exnType == JSEXN_SYNTAXERR) {
      model.syntax_error = error;
      model.syntax_location = locate(compiled, report->lineno, std::int64_t{report->column} + 1);
      located = true;
    }
    return false;
  }
  JS::RootedValue function_value(cx, JS::ObjectValue(*function));
  JS::RootedFunction fun(cx, JS_ValueToFunction(cx, function_value));
  JSScript* script = fun ? JS_GetFunctionScript(cx, fun) : nullptr;
  const char* filename = script ? JS_GetScriptFilename(script) : nullptr;
  if (filename) compiled.filename = filename;
  model.compiled = std::move(compiled);
  main.setObject(*function);
  return true;
}

// Throws a SyntaxError for what the eraser refused, located where it says.
bool throw_refusal(JSContext* cx, ModelCode& model, const ErasureRefusal& refusal) {
  JS::RootedString message(cx, new_string(cx, refusal.message));
  JS::RootedString file(cx, new_string(cx, "code"));
  if (!message || !file) return false;
  JS::RootedValue error(cx);
  JS::Rooted<mozilla::Maybe<JS::Value>> no_cause(cx, mozilla::Nothing());
  if (!JS::CreateError(cx, JSEXN_SYNTAXERR, nullptr, file, static_cast<std::uint32_t>(refusal.line),
                       static_cast<std::uint32_t>(refusal.column), nullptr, message, no_cause,
                       &error) ||
      !error.isObject()) {
    return false;
  }
  model.syntax_error = &error.toObject();
  model.syntax_location =
      locate({.filename = "code", .text = model.text}, refusal.line, refusal.column);
  JS_SetPendingException(cx, error);
  return false;
}

// __codemodeCompileCode(code) -> async function of no arguments
bool compile_code_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  GuestHost* host = guest_host(cx);
  if (!host || !host->model_code || host->model_code->compiled) {
    JS_ReportErrorASCII(cx, "__codemodeCompileCode runs once per execution.");
    return false;
  }
  ModelCode& model = *host->model_code;
  try {
    std::optional<std::string> text = copy_string_argument(cx, args.get(0), kMaxSourceBytes);
    if (!text) {
      if (!JS_IsExceptionPending(cx)) JS_ReportErrorASCII(cx, "The code is not a string.");
      return false;
    }
    model.text = std::move(*text);
    bool located = false;
    if (compile_as(cx, model, model.text, located, args.rval())) return true;
    // Plain JavaScript runs as sent; only a text that does not compile is read as TypeScript.
    if (!located || !JS_IsExceptionPending(cx)) return false;
    std::variant<std::string, ErasureRefusal> erased = erase_types(model.text);
    if (const ErasureRefusal* refusal = std::get_if<ErasureRefusal>(&erased)) {
      // A construct TypeScript has and JavaScript lacks (an enum): say so. Text that is neither
      // keeps the engine's own SyntaxError.
      if (refusal->reason != ErasureRefusal::Reason::kUnsupported) return false;
      JS_ClearPendingException(cx);
      return throw_refusal(cx, model, *refusal);
    }
    const std::string& javascript = std::get<std::string>(erased);
    if (javascript == model.text) return false;
    JS_ClearPendingException(cx);
    model.syntax_error = nullptr;
    model.syntax_location.reset();
    return compile_as(cx, model, javascript, located, args.rval());
  } catch (const std::bad_alloc&) {
    JS_ReportOutOfMemory(cx);
    return false;
  }
}

}  // namespace

JSObject* create_model_code_classifier(JSContext* cx) {
  JS::CompileOptions options(cx);
  options.setFileAndLine("codemode-classify.js", 1).setForceStrictMode();
  JS::SourceText<mozilla::Utf8Unit> source;
  JS::RootedValue classify(cx);
  if (!source.init(cx, kClassifier.data(), kClassifier.size(), JS::SourceOwnership::Borrowed) ||
      !JS::Evaluate(cx, options, source, &classify) || !classify.isObject()) {
    return nullptr;
  }
  return &classify.toObject();
}

bool define_model_code_compiler(JSContext* cx, JS::HandleObject global, ModelCode* model) {
  JS::CompileOptions options(cx);
  options.setFileAndLine("codemode-async-function.js", 1);
  constexpr std::string_view kAsyncFunction = "(async function () {}).constructor";
  JS::SourceText<mozilla::Utf8Unit> source;
  JS::RootedValue constructor(cx);
  if (!source.init(cx, kAsyncFunction.data(), kAsyncFunction.size(),
                   JS::SourceOwnership::Borrowed) ||
      !JS::Evaluate(cx, options, source, &constructor) || !constructor.isObject()) {
    return false;
  }
  model->async_function = &constructor.toObject();
  return JS_DefineFunction(cx, global, "__codemodeCompileCode", compile_code_native, 1, 0) !=
         nullptr;
}

}  // namespace codemode::worker
