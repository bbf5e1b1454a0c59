// What the program threw, described without running any program code: no getters, no toString,
// no proxy traps (JS::ErrorReportBuilder with NoSideEffects, and data properties read directly).
//
//   Error object   name: its "name" data property if a string, else the engine's error type
//                  (TypeError, InternalError, ...); message: its "message" data property if a
//                  string, else the engine's record of it.
//   other object   name: its "name" data property if a string, else "Error"; message: its
//                  "message" data property if a string, else "".
//   primitive      name "Error"; message: the value as a string (`throw "plain"` -> plain).
// name is capped at 128 and message at 1,024 UTF-16 code units.
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_ERRORS_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_ERRORS_H_

#include <cstddef>
#include <span>

#include <jsapi.h>

#include "codemode/sandbox.h"

#include "worker/program_location.h"

namespace codemode::worker {

inline constexpr std::size_t kMaxErrorNameUnits = 128;
inline constexpr std::size_t kMaxErrorMessageUnits = 1024;

struct ThrownError {
  ProgramError error;
  bool over_recursion = false;  // an engine InternalError ("too much recursion")
  // The engine's JSErrNum (js/friend/ErrorMessages.h) when the engine made the error; an Error
  // the program constructs carries none, so a program can show one only by rethrowing what the
  // engine threw it. 0 otherwise.
  unsigned error_number = 0;
};

// Describes `value`, a thrown value or a rejection reason. An Error object's location is the
// innermost frame of its stack in one of `texts` (program_location.h), if any is.
ThrownError describe_thrown(JSContext* cx, JS::HandleValue value,
                            std::span<const CompiledText> texts = {});

// Takes the pending exception and describes it. REQUIRES: JS_IsExceptionPending(cx).
ThrownError describe_pending_exception(JSContext* cx, std::span<const CompiledText> texts = {});

// Takes the pending exception, which compiling (or parsing) `text` threw, and describes it; a
// SyntaxError is located where the engine's report of it says. REQUIRES: JS_IsExceptionPending.
ThrownError describe_compile_error(JSContext* cx, const CompiledText& text);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_ERRORS_H_
