// Starting SpiderMonkey. Its start-up calls have a fixed order, each step a hard engine
// requirement (breaking one crashes, not fails):
//   1. JS::DisableJitBackend        before JS_Init: no JIT, no regexp JIT, no Wasm, so no
//                                   executable memory is ever needed (the filter forbids it).
//                                   Skipped for the JIT engine profile only (EngineProfile::kJit),
//                                   whose filter allows executable, never writable, memory
//   2. JS::SetProcessBuildIdOp      before JS_Init: the self-hosted cache needs a build id
//   3. JS_Init
//   4. helper threads               after JS_Init, before JS_NewContext
//   5. JS_NewContext, then JS_SetNativeStackQuota and (JIT profile) the JIT's options before any
//      code runs
//   6. JS::SetJobQueue              before JS::InitSelfHostedCode
//   7. JS::InitSelfHostedCode       before the first global
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_RUNTIME_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_RUNTIME_H_

#include <cstddef>
#include <cstdint>
#include <span>

#include <jsapi.h>

#include "codemode/error.h"
#include "codemode/process_adapter.h"

namespace codemode::worker {

// Steps 1-4. Once per process. `on_fatal_out_of_memory` (may be null) runs where the engine would
// crash for lack of memory inside a garbage collection; see EngineOptions.
Status start_engine_process(EngineProfile profile, void (*on_fatal_out_of_memory)() = nullptr);

// Step 5: a context on the calling thread, whose deeper native recursion throws a catchable
// "too much recursion" past `native_stack_quota` bytes; with the GC's last-ditch collection
// allowed at any time (the default waits 60 s between them, which fails allocations early). For
// EngineProfile::kJit: Baseline and Ion on, compiling on this thread only; Wasm, asm.js and the
// regular-expression JIT off. REQUIRES: `profile` is the one start_engine_process had.
JSContext* new_engine_context(std::size_t native_stack_quota, EngineProfile profile);

// Step 7: decodes `cache` when it is not empty, else parses the self-hosted code.
Status init_self_hosted_code(JSContext* cx, std::span<const std::uint8_t> cache);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_RUNTIME_H_
