#include "worker/engine/engine_errors.h"

#include <array>
#include <optional>
#include <string>

#include <js/Conversions.h>
#include <js/ErrorReport.h>
#include <js/Exception.h>
#include <js/PropertyDescriptor.h>
#include <js/Proxy.h>
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

}  // namespace

ThrownError describe_thrown(JSContext* cx, JS::HandleValue value) {
  ThrownError thrown = value.isObject()
                           ? describe_object(cx, value)
                           : ThrownError{{"Error", describe_primitive(cx, value)}, false};
  JS_ClearPendingException(cx);  // describing must leave no trace (e.g. out of memory)
  return thrown;
}

ThrownError describe_pending_exception(JSContext* cx) {
  JS::RootedValue exception(cx);
  if (!JS_GetPendingException(cx, &exception)) exception.setUndefined();
  JS_ClearPendingException(cx);
  return describe_thrown(cx, exception);
}

}  // namespace codemode::worker
