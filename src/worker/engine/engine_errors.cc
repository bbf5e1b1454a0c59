#include "worker/engine/engine_errors.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include <js/Conversions.h>
#include <js/ErrorReport.h>
#include <js/Exception.h>
#include <js/PropertyDescriptor.h>
#include <js/Proxy.h>
#include <js/SavedFrameAPI.h>
#include <js/Symbol.h>

#include "worker/engine/engine_strings.h"

namespace codemode::worker {
namespace {

// Longest prototype chain walked for a name or message; real chains are a handful deep.
constexpr int kMaxPrototypeWalk = 64;

// Names of JSExnType, in its order.
constexpr std::array<const char*, 9> kErrorTypeNames{
    "Error",          "InternalError", "AggregateError", "EvalError", "RangeError",
    "ReferenceError", "SyntaxError",   "TypeError",      "URIError"};

// The data property `name` of `object` or of its prototypes. Stops (nullopt) at a proxy, whose
// traps are program code, at an accessor, whose getter is program code, and on any failure.
std::optional<JS::Value> find_data_property(JSContext* cx, JS::HandleObject object,
                                            const char* name) {
  JS::RootedObject current(cx, object);
  for (int depth = 0; current && depth < kMaxPrototypeWalk; ++depth) {
    if (js::IsProxy(current)) return std::nullopt;
    JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> found(cx);
    if (!JS_GetOwnPropertyDescriptor(cx, current, name, &found)) return std::nullopt;
    if (found.isSome()) {
      if (!found->isDataDescriptor()) return std::nullopt;
      return found->value();
    }
    if (!JS_GetPrototype(cx, current, &current)) return std::nullopt;
  }
  return std::nullopt;
}

// The string data property `name`, capped; nullopt when absent or not a string.
std::optional<std::string> string_property(JSContext* cx, JS::HandleObject object, const char* name,
                                           std::size_t max_units) {
  std::optional<JS::Value> found = find_data_property(cx, object, name);
  if (!found || !found->isString()) return std::nullopt;
  JS::RootedString text(cx, found->toString());
  return copy_capped_string(cx, text, max_units);
}

std::string utf8_capped(const char* text, std::size_t max_units, JSContext* cx) {
  JS::RootedString str(cx, new_string(cx, text ? text : ""));
  std::optional<std::string> copy = str ? copy_capped_string(cx, str, max_units) : std::nullopt;
  return copy.value_or("");
}

ThrownError describe_object(JSContext* cx, JS::HandleValue value) {
  JS::RootedObject object(cx, &value.toObject());
  ThrownError thrown{{"Error", ""}, false};
  JS::ErrorReportBuilder builder(cx);
  const JSErrorReport* report = nullptr;
  const JSErrorReport* own_report = JS_ErrorFromException(cx, object);
  if (own_report) thrown.error_number = own_report->errorNumber;
  if (own_report != nullptr && builder.init(cx, JS::ExceptionStack(cx, value, nullptr),
                                            JS::ErrorReportBuilder::NoSideEffects)) {
    report = builder.report();
  }
  if (report && report->exnType >= 0 &&
      static_cast<std::size_t>(report->exnType) < kErrorTypeNames.size()) {
    thrown.error.name = kErrorTypeNames[report->exnType];
    thrown.over_recursion = report->exnType == JSEXN_INTERNALERR;
  }
  if (report)
    thrown.error.message = utf8_capped(report->message().c_str(), kMaxErrorMessageUnits, cx);
  if (auto name = string_property(cx, object, "name", kMaxErrorNameUnits))
    thrown.error.name = *name;
  if (auto message = string_property(cx, object, "message", kMaxErrorMessageUnits)) {
    thrown.error.message = *message;
  }
  return thrown;
}

// A primitive as a string without program code: String(v) is pure for every primitive but a
// Symbol, which has no conversion; it is described as Symbol(description).
std::string describe_primitive(JSContext* cx, JS::HandleValue value) {
  JS::RootedString text(cx);
  if (value.isSymbol()) {
    JS::RootedSymbol symbol(cx, value.toSymbol());
    JS::RootedString description(cx, JS::GetSymbolDescription(symbol));
    text = description ? description.get() : JS_GetEmptyString(cx);
    std::optional<std::string> inner = copy_capped_string(cx, text, kMaxErrorMessageUnits - 8);
    return "Symbol(" + inner.value_or("") + ")";
  }
  text = JS::ToString(cx, value);
  std::optional<std::string> copy =
      text ? copy_capped_string(cx, text, kMaxErrorMessageUnits) : std::nullopt;
  return copy.value_or("");
}

// Frames walked looking for one in the program's text; an error thrown deep inside a library
// keeps its program frame within a few.
constexpr int kMaxFramesWalked = 128;

// The innermost frame of `object`'s stack (following async parents past an await) whose script
// is one of `texts`, located in that text.
std::optional<ProgramErrorLocation> locate_in_stack(JSContext* cx, JS::HandleObject object,
                                                    std::span<const CompiledText> texts) {
  if (texts.empty()) return std::nullopt;
  JS::RootedObject frame(cx, JS::ExceptionStackOrNull(object));
  for (int walked = 0; frame && walked < kMaxFramesWalked; ++walked) {
    JS::RootedString source(cx);
    std::uint32_t line = 0;
    std::uint32_t column = 0;
    constexpr auto kExclude = JS::SavedFrameSelfHosted::Exclude;
    if (JS::GetSavedFrameSource(cx, nullptr, frame, &source, kExclude) ==
            JS::SavedFrameResult::Ok &&
        JS::GetSavedFrameLine(cx, nullptr, frame, &line, kExclude) == JS::SavedFrameResult::Ok &&
        JS::GetSavedFrameColumn(cx, nullptr, frame, &column, kExclude) ==
            JS::SavedFrameResult::Ok &&
        source) {
      std::optional<std::string> name = copy_capped_string(cx, source, 4096);
      for (const CompiledText& text : texts) {
        if (name && *name == text.filename) return locate(text, line, column);
      }
    }
    JS::RootedObject next(cx);
    if (JS::GetSavedFrameParent(cx, nullptr, frame, &next, kExclude) != JS::SavedFrameResult::Ok) {
      return std::nullopt;
    }
    if (!next && JS::GetSavedFrameAsyncParent(cx, nullptr, frame, &next, kExclude) !=
                     JS::SavedFrameResult::Ok) {
      return std::nullopt;
    }
    frame = next;
  }
  return std::nullopt;
}

}  // namespace

ThrownError describe_thrown(JSContext* cx, JS::HandleValue value,
                            std::span<const CompiledText> texts) {
  ThrownError thrown = value.isObject()
                           ? describe_object(cx, value)
                           : ThrownError{{"Error", describe_primitive(cx, value)}, false};
  if (value.isObject()) {
    JS::RootedObject object(cx, &value.toObject());
    thrown.error.location = locate_in_stack(cx, object, texts);
  }
  JS_ClearPendingException(cx);  // describing must leave no trace (e.g. out of memory)
  return thrown;
}

ThrownError describe_pending_exception(JSContext* cx, std::span<const CompiledText> texts) {
  JS::RootedValue exception(cx);
  if (!JS_GetPendingException(cx, &exception)) exception.setUndefined();
  JS_ClearPendingException(cx);
  return describe_thrown(cx, exception, texts);
}

ThrownError describe_compile_error(JSContext* cx, const CompiledText& text) {
  JS::RootedValue exception(cx);
  if (!JS_GetPendingException(cx, &exception)) exception.setUndefined();
  JS_ClearPendingException(cx);
  ThrownError thrown = describe_thrown(cx, exception);
  if (exception.isObject()) {
    JS::RootedObject object(cx, &exception.toObject());
    const JSErrorReport* report = JS_ErrorFromException(cx, object);
    // Compiling (or the shape check's parse of) exactly this text threw it: its report's position
    // is in the text as compiled, whatever file name the parser gave it.
    if (report && report->exnType == JSEXN_SYNTAXERR && report->lineno >= 1) {
      // The report's column is zero-based.
      thrown.error.location = locate(text, report->lineno, std::int64_t{report->column} + 1);
    }
  }
  JS_ClearPendingException(cx);
  return thrown;
}

}  // namespace codemode::worker
