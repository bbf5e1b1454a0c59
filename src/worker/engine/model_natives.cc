#include "worker/engine/model_natives.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>

#include <js/CallAndConstruct.h>
#include <js/PropertySpec.h>
#include <js/StructuredClone.h>
#include <js/experimental/TypedData.h>
#include <sys/random.h>

namespace codemode::worker {
namespace {

// Fills [data, data + length) from getrandom(2), flags 0 (blocking only until the kernel's pool
// was first initialised, at boot). False only if the kernel refuses, which it does not for
// flags 0 on Linux 3.17 and later.
bool fill_from_kernel(std::uint8_t* data, std::size_t length) {
  while (length > 0) {
    const ssize_t got = getrandom(data, length, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += got;
    length -= static_cast<std::size_t>(got);
  }
  return true;
}

// natives.randomFill(view) -> undefined
//   crypto.getRandomValues(view) without its checks, which the script makes (integer kinds,
//   TypeMismatchError, QuotaExceededError); here only: a view of at most kMaxRandomFillBytes.
bool random_fill_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  JSObject* view = args.get(0).isObject() ? &args.get(0).toObject() : nullptr;
  if (!view || !JS_IsArrayBufferViewObject(view)) {
    JS_ReportErrorASCII(cx, "randomFill: the argument is not an ArrayBuffer view");
    return false;
  }
  const std::size_t length = JS_GetArrayBufferViewByteLength(view);
  if (length > kMaxRandomFillBytes) {
    JS_ReportErrorASCII(cx, "randomFill: more than %zu bytes", kMaxRandomFillBytes);
    return false;
  }
  bool ok = true;
  {
    // The view's bytes stay where they are while nothing can collect: getrandom only.
    JS::AutoCheckCannotGC nogc;
    bool shared = false;
    auto* data = static_cast<std::uint8_t*>(JS_GetArrayBufferViewData(view, &shared, nogc));
    if (data && length > 0) ok = fill_from_kernel(data, length);
  }
  if (!ok) {
    JS_ReportErrorASCII(cx, "crypto: the kernel's random number source failed");
    return false;
  }
  args.rval().setUndefined();
  return true;
}

// What the structured clone algorithm reported, kept until the native can throw it. A fixed
// buffer: the callback runs inside the engine, where nothing may throw or allocate.
struct CloneFailure {
  bool reported = false;
  char message[160] = {};
};

const char* clone_failure_text(std::uint32_t error_id) {
  switch (error_id) {
    case JS_SCERR_RECURSION:
      return "The value is nested too deeply to be cloned.";
    case JS_SCERR_TRANSFERABLE:
      return "An object in 'transfer' cannot be transferred: only ArrayBuffers can.";
    case JS_SCERR_DUP_TRANSFERABLE:
      return "An object appears more than once in 'transfer'.";
    case JS_SCERR_SHMEM_TRANSFERABLE:
      return "Shared memory cannot be transferred.";
    case JS_SCERR_TYPED_ARRAY_DETACHED:
      return "A detached ArrayBuffer cannot be cloned or transferred.";
    case JS_SCERR_UNSUPPORTED_TYPE:
      return "The value could not be cloned: functions, symbols, WeakMaps, WeakSets, Proxies, "
             "Promises, Errors and detached ArrayBuffers cannot be.";
    default:
      return "The value could not be cloned.";
  }
}

void report_clone_failure(JSContext*, std::uint32_t error_id, void* closure, const char*) {
  auto* failure = static_cast<CloneFailure*>(closure);
  failure->reported = true;
  std::snprintf(failure->message, sizeof failure->message, "%s", clone_failure_text(error_id));
}

// Throws makeError(message), or a plain Error when makeError is not a function.
bool throw_clone_failure(JSContext* cx, JS::HandleValue make_error, const CloneFailure& failure) {
  if (!make_error.isObject() || !JS::IsCallable(&make_error.toObject())) {
    JS_ReportErrorASCII(cx, "%s", failure.message);
    return false;
  }
  JS::RootedValue message(cx);
  JSString* text = JS_NewStringCopyZ(cx, failure.message);
  if (!text) return false;
  message.setString(text);
  JS::RootedValue error(cx);
  if (!JS_CallFunctionValue(cx, nullptr, make_error, JS::HandleValueArray(message), &error)) {
    return false;
  }
  JS_SetPendingException(cx, error);
  return false;
}

// natives.structuredClone(value, transfer, makeError) -> clone
//   structuredClone(value, { transfer }) after the script's argument checks: transfer is an
//   array of objects (or undefined). Getters run (program code, under its CPU budget); what
//   they throw propagates unchanged. The clone's bytes live in malloc'd memory until read: a
//   huge value counts against RLIMIT_DATA, and running out is the worker's memory_limit.
bool structured_clone_native(JSContext* cx, unsigned argc, JS::Value* vp) {
  JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
  CloneFailure failure;
  JSStructuredCloneCallbacks callbacks{};
  callbacks.reportError = report_clone_failure;
  JS::RootedValue transfer(cx, args.get(1));
  JS::RootedValue clone(cx);
  bool ok;
  {
    JSAutoStructuredCloneBuffer buffer(JS::StructuredCloneScope::SameProcess, &callbacks, &failure);
    ok = buffer.write(cx, args.get(0), transfer, JS::CloneDataPolicy(), &callbacks, &failure) &&
         buffer.read(cx, &clone, JS::CloneDataPolicy(), &callbacks, &failure);
  }
  if (!ok) {
    // Not reported by the algorithm: the program's own exception, or an uncatchable stop (out
    // of memory, the watchdog) with none pending. Either way, as it is.
    if (!failure.reported || JS_IsExceptionPending(cx)) return false;
    return throw_clone_failure(cx, args.get(2), failure);
  }
  args.rval().set(clone);
  return true;
}

const JSFunctionSpec kModelNatives[] = {
    JS_FN("randomFill", random_fill_native, 1, 0),
    JS_FN("structuredClone", structured_clone_native, 3, 0),
    JS_FS_END,
};

}  // namespace

bool define_model_natives(JSContext* cx, JS::HandleObject natives) {
  return JS_DefineFunctions(cx, natives, kModelNatives);
}

}  // namespace codemode::worker
