#include "worker/engine/engine_guest.h"

#include <chrono>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include <js/CallAndConstruct.h>
#include <js/CompilationAndEvaluation.h>
#include <js/GlobalObject.h>
#include <js/Object.h>
#include <js/Promise.h>
#include <js/PropertyAndElement.h>
#include <js/PropertySpec.h>
#include <js/Realm.h>
#include <js/RealmOptions.h>
#include <js/SourceText.h>
#include <js/String.h>

#include "worker/engine/engine_strings.h"
#include "worker/engine/model_natives.h"
#include "worker/engine/scripts/model_globals.js.h"
#include "worker/engine/scripts/standard_library.js.h"
#include "worker/engine/scripts/timers.js.h"
#include "worker/test_hooks.h"

namespace codemode::worker {
namespace {

constexpr std::size_t kHostSlot = 0;

constexpr JSClass kGlobalClass = {"global", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps};

// Non-standard or legacy globals that InitRealmStandardClasses defines anyway.
constexpr const char* kRemovedGlobals[] = {"InternalError", "escape", "unescape"};

// Builds `tools` from the bridge. Everything it calls is captured before the program runs, so a
// program that replaces JSON, Object.freeze or Array.prototype.push does not change what is sent.
// `await` is not captured: it looks up the bridge promise's `constructor` and, when that is not
// the original Promise (a program's getter on Promise.prototype.constructor can say so), its
// `then`, so such a program's own `then` sees the answer first and may change what its own
// tools.call resolves to. That is the program's own view only: the call was sent before the await,
// and a forged answer reaches only what the program returns. Wrapping JavaScript that must trust
// answers never awaits them (the MCP code tool's prelude registers with a captured then).
constexpr std::string_view kPrelude = R"js((function () {
  'use strict';
  const bridge = globalThis.__codemodeToolCall;
  delete globalThis.__codemodeToolCall;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const call = async function call(toolId, input) {
    const text = stringify(input);
    return parse(await bridge(toolId, text === undefined ? 'null' : text));
  };
  return freeze({ call: freeze(call) });
})())js";

constexpr std::string_view kShapeCheck = R"js((function checkProgramShape(source) {
  'use strict';
  const body = Reflect.parse(source, { loc: false, source: 'program.js' }).body;
  if (body.length !== 1 || body[0].type !== 'ExpressionStatement') return false;
  const expression = body[0].expression;
  return (expression.type === 'ArrowFunctionExpression' ||
          expression.type === 'FunctionExpression') && !expression.generator;
}))js";

// The first local-time computation reads /etc/localtime (glibc tzset) and readlinks it (ICU's
// default zone); Date.prototype.toString makes both. Measured with strace: after it, nothing in
// Date or Intl opens a file (other zones and locales come from the ICU data inside libmozjs), and
// a worker test runs them all under the filter. The collator lines are cheap (under 1 ms) and
// keep that true if a later engine defers more. Intl.DateTimeFormat (also behind
// toLocaleString) is deliberately not warmed up: its first use costs 10-15 ms and opens nothing.
constexpr std::string_view kWarmUps = R"js('use strict';
new Date(0).toString();
'a'.localeCompare('b');
new Intl.Collator().compare('a', 'b');
)js";

bool evaluate(JSContext* cx, const char* filename, std::string_view code,
              JS::MutableHandleValue result) {
  JS::CompileOptions options(cx);
  options.setFileAndLine(filename, 1).setForceStrictMode();
  JS::SourceText<mozilla::Utf8Unit> source;
  return source.init(cx, code.data(), code.size(), JS::SourceOwnership::Borrowed) &&
         JS::Evaluate(cx, options, source, result);
}

bool resolve_with_text(JSContext* cx, JS::HandleObject promise, std::string_view text) {
  JS::RootedString answer(cx, new_string(cx, text));
  if (!answer) return false;
  JS::RootedValue value(cx, JS::StringValue(answer));
  return JS::ResolvePromise(cx, promise, value);
}

// Submits one call; false (no exception) ends the program when the host failed.
bool submit_call(JSContext* cx, GuestHost& host, const GuestToolCall& call,
                 JS::HandleObject promise) {
  Result<ToolCallAdmission> admission = host.tools->submit(call);
  if (!admission.ok()) {
    host.fail(cx);
    return false;
  }
  if (admission->call_id == 0) return resolve_with_text(cx, promise, admission->local_answer);
  return host.pending->add(admission->call_id, promise);
}

// __codemodeToolCall(toolId, inputJson) -> Promise<string>
//   The one native the guest sees, and only inside the prelude. Resolves with the JSON text of
//   {status:'succeeded', output} or {status, error:{code, rule, message}}; never rejects.
//   Arguments it cannot use (a non-string id, an oversized input) are answered as INVALID_INPUT by
//   the host.
bool tool_call_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  GuestHost* host = guest_host(cx);
  JS::RootedObject promise(cx, JS::NewPromiseObject(cx, nullptr));
  if (!host || !host->tools || !promise) return false;
  try {
    GuestToolCall call{copy_string_argument(cx, args.get(0), kMaxToolIdUnits),
                       copy_string_argument(cx, args.get(1), host->tools->max_input_units())};
    if (JS_IsExceptionPending(cx) || !submit_call(cx, *host, call, promise)) return false;
  } catch (const std::bad_alloc&) {
    JS_ReportOutOfMemory(cx);  // the host ran out of memory on the program's behalf
    return false;
  }
  args.rval().setObject(*promise);
  return true;
}

// ---- the model profile's natives, reached only by its installers (scripts/*.js) ----

// Longest console line kept, in UTF-16 code units: the whole log fits kMaxConsoleBytes anyway.
constexpr std::size_t kMaxConsoleLineUnits = 16u << 10;

// natives.log(line): one console line, a string (the installer renders every argument).
bool log_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  args.rval().setUndefined();
  GuestHost* host = guest_host(cx);
  if (!host || !host->console || !args.get(0).isString()) return true;
  JS::RootedString line(cx, args.get(0).toString());
  try {
    std::optional<std::string> text = copy_capped_string(cx, line, kMaxConsoleLineUnits);
    if (!text) return false;
    host->console->add(*text);
  } catch (const std::bad_alloc&) {
    JS_ReportOutOfMemory(cx);
    return false;
  }
  return true;
}

// The timer id of argument 0: a positive integer the installer chose.
std::optional<std::uint64_t> timer_id(const JS::CallArgs& args) {
  if (!args.get(0).isNumber()) return std::nullopt;
  const double id = args.get(0).toNumber();
  if (!(id >= 1 && id <= 9007199254740991.0) ||
      id != static_cast<double>(static_cast<std::uint64_t>(id))) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(id);
}

// natives.schedule(id, delayMillis): wakes the engine for `id` once the delay has passed.
bool schedule_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  args.rval().setUndefined();
  GuestHost* host = guest_host(cx);
  const std::optional<std::uint64_t> id = timer_id(args);
  if (!host || !host->timers || !id || !args.get(1).isNumber()) return true;
  const double delay = args.get(1).toNumber();
  const auto millis = std::chrono::milliseconds(
      delay >= 0 && delay <= 2147483647.0 ? static_cast<std::int64_t>(delay) : 1);
  try {
    if (!host->timers->schedule(*id, millis, TimerQueue::Clock::now())) {
      JS_ReportErrorASCII(cx, "Too many timers are pending (at most 10000).");
      return false;
    }
  } catch (const std::bad_alloc&) {
    JS_ReportOutOfMemory(cx);
    return false;
  }
  return true;
}

// natives.cancel(id)
bool cancel_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  args.rval().setUndefined();
  GuestHost* host = guest_host(cx);
  if (const std::optional<std::uint64_t> id = timer_id(args); host && host->timers && id) {
    host->timers->cancel(*id);
  }
  return true;
}

const JSFunctionSpec kModelNatives[] = {JS_FN("log", log_native, 1, 0),
                                        JS_FN("schedule", schedule_native, 2, 0),
                                        JS_FN("cancel", cancel_native, 1, 0), JS_FS_END};

// Evaluates `script`, one function expression, and calls it with (global, natives); the result
// in `returned`.
bool run_installer(JSContext* cx, const char* filename, std::string_view script,
                   JS::HandleObject global, JS::HandleObject natives,
                   JS::MutableHandleValue returned) {
  JS::RootedValue installer(cx);
  if (!evaluate(cx, filename, script, &installer) || !installer.isObject() ||
      !JS::IsCallable(&installer.toObject())) {
    return false;
  }
  JS::RootedValueArray<2> args(cx);
  args[0].setObject(*global);
  if (natives) args[1].setObject(*natives);
  return JS::Call(cx, JS::UndefinedHandleValue, installer, args, returned);
}

#ifdef CODEMODE_WORKER_TEST_HOOKS
// The code units of `value`, each 0-255, as one byte each; nullopt when it is not such a string.
std::optional<std::string> copy_byte_string(JSContext* cx, JS::HandleValue value) {
  if (!value.isString()) return std::nullopt;
  JSLinearString* linear = JS_EnsureLinearString(cx, value.toString());
  if (!linear) return std::nullopt;
  const std::size_t length = JS::GetLinearStringLength(linear);
  std::string bytes;
  bytes.reserve(length);
  for (std::size_t i = 0; i < length; ++i) {
    const char16_t unit = JS::GetLinearStringCharAt(linear, i);
    if (unit > 0xFF) return std::nullopt;
    bytes.push_back(static_cast<char>(unit));
  }
  return bytes;
}

TestHookArguments test_hook_arguments(JSContext* cx, const JS::CallArgs& args) {
  TestHookArguments arguments;
  arguments.bytes = copy_byte_string(cx, args.get(1)).value_or("");
  for (unsigned index : {1u, 2u}) {
    if (args.get(index).isNumber()) {
      arguments.number = static_cast<long long>(args.get(index).toNumber());
      break;
    }
  }
  return arguments;
}

// __codemodeTestHook(name, bytesOrNumber, number) -> number
//   Test builds only: runs the native hook `name` (see test_hooks.h) and returns its result, if
//   the worker is still alive then.
bool test_hook_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  try {
    std::optional<std::string> name = copy_string_argument(cx, args.get(0), 64);
    if (JS_IsExceptionPending(cx)) return false;
    const TestHookArguments arguments = test_hook_arguments(cx, args);
    if (JS_IsExceptionPending(cx)) return false;
    args.rval().setNumber(static_cast<double>(run_test_hook(name.value_or(""), arguments)));
  } catch (const std::bad_alloc&) {
    JS_ReportOutOfMemory(cx);
    return false;
  }
  return true;
}
#endif

// The guest surface: every native the program's global gets. (The preprocessor lines would make
// clang-format misalign the table.)
// clang-format off
const JSFunctionSpec kGuestFunctions[] = {
    JS_FN("__codemodeToolCall", tool_call_native, 2, 0),
#ifdef CODEMODE_WORKER_TEST_HOOKS
    JS_FN("__codemodeTestHook", test_hook_native, 3, 0),
#endif
    JS_FS_END};
// clang-format on

JS::RealmOptions program_realm_options() {
  JS::RealmOptions options;
  options.creationOptions()
      .setSharedMemoryAndAtomicsEnabled(false)
      .setDefineSharedArrayBufferConstructor(false)
      .setStreamsEnabled(false)
      .setToSourceEnabled(false)
      .setWeakRefsEnabled(JS::WeakRefSpecifier::Disabled);
  return options;
}

}  // namespace

GuestHost* guest_host(JSContext* cx) {
  JSObject* global = JS::CurrentGlobalOrNull(cx);
  return global ? JS::GetMaybePtrFromReservedSlot<GuestHost>(global, kHostSlot) : nullptr;
}

bool PendingCalls::add(std::uint64_t call_id, JS::HandleObject promise) {
  if (promises_.length() < call_id && !promises_.resize(call_id)) return false;
  promises_[call_id - 1].set(promise);
  ++outstanding_;
  return true;
}

JSObject* PendingCalls::take(std::uint64_t call_id) {
  if (call_id == 0 || call_id > promises_.length() || !promises_[call_id - 1]) return nullptr;
  JSObject* promise = promises_[call_id - 1];
  promises_[call_id - 1].set(nullptr);
  --outstanding_;
  return promise;
}

JSObject* create_program_global(JSContext* cx, GuestHost* host,
                                JS::HandleObject same_compartment_as) {
  JS::RealmOptions options = program_realm_options();
  if (same_compartment_as) options.creationOptions().setExistingCompartment(same_compartment_as);
  JS::RootedObject global(
      cx, JS_NewGlobalObject(cx, &kGlobalClass, nullptr, JS::FireOnNewGlobalHook, options));
  if (!global) return nullptr;
  JSAutoRealm realm(cx, global);
  JS::SetReservedSlot(global, kHostSlot, JS::PrivateValue(host));
  if (!JS::InitRealmStandardClasses(cx)) return nullptr;
  for (const char* name : kRemovedGlobals) {
    if (!JS_DeleteProperty(cx, global, name)) return nullptr;
  }
  if (!JS_DefineFunctions(cx, global, kGuestFunctions)) return nullptr;
  JS::RootedValue ignored(cx);
  if (!run_installer(cx, "codemode-standard-library.js", scripts::kStandardLibrary, global, nullptr,
                     &ignored)) {
    return nullptr;
  }
  return global;
}

JSObject* install_model_globals(JSContext* cx, JS::HandleObject global) {
  JS::RootedObject natives(cx, JS_NewPlainObject(cx));
  if (!natives || !JS_DefineFunctions(cx, natives, kModelNatives) ||
      !define_model_natives(cx, natives)) {
    return nullptr;
  }
  JS::RootedValue fire(cx);
  if (!run_installer(cx, "codemode-timers.js", scripts::kTimers, global, natives, &fire) ||
      !fire.isObject()) {
    return nullptr;
  }
  JS::RootedValue ignored(cx);
  if (!run_installer(cx, "codemode-model-globals.js", scripts::kModelGlobals, global, natives,
                     &ignored)) {
    return nullptr;
  }
  return &fire.toObject();
}

JSObject* create_tools_object(JSContext* cx, JS::HandleObject global) {
  JS::RootedValue tools(cx);
  if (!evaluate(cx, "codemode-prelude.js", kPrelude, &tools) || !tools.isObject()) return nullptr;
  bool bridge_left = true;
  if (!JS_HasProperty(cx, global, "__codemodeToolCall", &bridge_left) || bridge_left) {
    return nullptr;
  }
  return &tools.toObject();
}

JSObject* create_trusted_global(JSContext* cx, JS::HandleObject program_global) {
  JS::RealmOptions options;
  options.creationOptions().setExistingCompartment(program_global);
  JS::RootedObject global(
      cx, JS_NewGlobalObject(cx, &kGlobalClass, nullptr, JS::FireOnNewGlobalHook, options));
  if (!global) return nullptr;
  JSAutoRealm realm(cx, global);
  if (!JS::InitRealmStandardClasses(cx) || !JS_InitReflectParse(cx, global)) return nullptr;
  return global;
}

JSObject* create_shape_check(JSContext* cx) {
  JS::RootedValue check(cx);
  if (!evaluate(cx, "codemode-shape.js", kShapeCheck, &check) || !check.isObject()) {
    return nullptr;
  }
  return &check.toObject();
}

bool run_warm_ups(JSContext* cx) {
  JS::RootedValue ignored(cx);
  return evaluate(cx, "codemode-warm-up.js", kWarmUps, &ignored);
}

}  // namespace codemode::worker
