// The model profile's natives: the two things its web globals (scripts/model_globals.js) cannot
// do in JavaScript. The engine defines them on the `natives` object it hands to the installer,
// which captures them before any program code runs; the program never sees them directly.
//
//   natives.randomFill(view) -> undefined
//       Fills every byte of an ArrayBuffer view (at most kMaxRandomFillBytes) from getrandom(2),
//       flags 0: the kernel's CSPRNG, which the seccomp filter already allows for hash seeds and
//       Math.random. Backs crypto.getRandomValues and crypto.randomUUID.
//   natives.structuredClone(value, transfer, makeError) -> clone
//       SpiderMonkey's structured clone (JSAutoStructuredCloneBuffer, same-process scope), with
//       `transfer` an array of objects to transfer (ArrayBuffers). A value the algorithm cannot
//       clone throws what makeError(message) returns (the script makes it a DataCloneError
//       DOMException); an exception from the program's own code (a getter) passes through.
//
// No IDNA native: URL maps and validates host names with UTS #46 in JavaScript (docs/worker.md,
// "The model profile's globals", says why not libidn2).
#ifndef CODEMODE_WORKER_ENGINE_MODEL_NATIVES_H_
#define CODEMODE_WORKER_ENGINE_MODEL_NATIVES_H_

#include <cstddef>

#include <jsapi.h>

namespace codemode::worker {

// crypto.getRandomValues' quota (Web Crypto), also the most randomFill fills in one call.
inline constexpr std::size_t kMaxRandomFillBytes = 65536;

// Defines randomFill and structuredClone on `natives` (an ordinary object in the program's
// realm). False with an exception pending when the engine fails (out of memory).
[[nodiscard]] bool define_model_natives(JSContext* cx, JS::HandleObject natives);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_MODEL_NATIVES_H_
