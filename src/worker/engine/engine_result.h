// The program's result as JSON text: JS_Stringify, capped inside its write callback so an
// oversized result stops as soon as it passes the cap, and converted to UTF-8 as it is written.
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_RESULT_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_RESULT_H_

#include <cstdint>
#include <string>

#include <jsapi.h>

namespace codemode::worker {

enum class StringifyStatus {
  kWritten,        // `json` holds the text
  kNoJson,         // JSON.stringify gives undefined (a function, a symbol, toJSON returning
                   // undefined)
  kTooLong,        // longer than the cap
  kLoneSurrogate,  // a string or key holds a lone UTF-16 surrogate (no UTF-8 form)
  kOutOfMemory,    // the text did not fit in the worker's memory (RLIMIT_DATA)
  kFailed,         // JS_Stringify failed: an exception is pending, or the program was stopped
};

// JSON.stringify(value) into `json` as UTF-8, refusing more than `max_bytes` bytes. May run
// program code (toJSON, getters).
StringifyStatus stringify_result(JSContext* cx, JS::HandleValue value, std::uint64_t max_bytes,
                                 std::string& json);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_RESULT_H_
