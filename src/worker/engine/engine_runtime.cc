#include "worker/engine/engine_runtime.h"

#include <string>
#include <vector>

#include <js/BuildId.h>
#include <js/ContextOptions.h>
#include <js/Initialization.h>

#include "worker/build_id.h"
#include "worker/engine/engine.h"
#include "worker/engine/engine_helper_threads.h"
#include "worker/self_hosted_cache.h"
#include "worker/worker_error.h"

namespace codemode::worker {
namespace {

bool build_id_op(JS::BuildIdCharVector* build_id) {
  const std::string& id = process_build_id();
  return build_id->append(id.data(), id.size());
}

Error engine_error(std::string_view message) { return worker_error("worker_engine", message); }

// The stencil handed to the writer; the writer API carries no user data. Build-time mode only.
std::vector<std::uint8_t>& written_stencil() {
  static std::vector<std::uint8_t> stencil;
  return stencil;
}

bool keep_stencil(JSContext*, JS::SelfHostedCache stencil) {
  written_stencil().assign(stencil.begin(), stencil.end());
  return true;
}

// The engine's hook runs just before it crashes on an out-of-memory it cannot handle (a chunk it
// needs in the middle of a collection); the callback takes no user data, so the target is
// process-wide.
void (*&fatal_out_of_memory())() {
  static void (*target)() = nullptr;
  return target;
}

void on_unhandlable_out_of_memory(std::size_t) {
  if (fatal_out_of_memory()) fatal_out_of_memory()();
}

// The JIT profile's compilers. Baseline (with its interpreter) and Ion are what the profile is for.
// Ion compiles on the engine thread, not off-thread on our helper: the watchdog meters the
// engine thread's CPU clock, so a compilation is charged to the program's cpuMillis like the code
// it compiles, and the helper thread stays the garbage collector's. Wasm, asm.js and the
// regular-expression JIT stay off: three more code generators a program could reach, none needed
// by compute-heavy JavaScript (regular expressions still run, in irregexp's bytecode interpreter).
void enable_jit_compilers(JSContext* cx) {
  JS_SetGlobalJitCompilerOption(cx, JSJITCOMPILER_BASELINE_INTERPRETER_ENABLE, 1);
  JS_SetGlobalJitCompilerOption(cx, JSJITCOMPILER_BASELINE_ENABLE, 1);
  JS_SetGlobalJitCompilerOption(cx, JSJITCOMPILER_ION_ENABLE, 1);
  JS_SetGlobalJitCompilerOption(cx, JSJITCOMPILER_OFFTHREAD_COMPILATION_ENABLE, 0);
  JS_SetOffthreadIonCompilationEnabled(cx, false);
  JS_SetGlobalJitCompilerOption(cx, JSJITCOMPILER_NATIVE_REGEXP_ENABLE, 0);
  JS::ContextOptionsRef(cx).setWasm(false).setAsmJS(false);
}

}  // namespace

Status start_engine_process(EngineProfile profile, void (*on_fatal_out_of_memory)()) {
  fatal_out_of_memory() = on_fatal_out_of_memory;
  js::AutoEnterOOMUnsafeRegion::setAnnotateOOMAllocationSizeCallback(on_unhandlable_out_of_memory);
  if (profile == EngineProfile::kInterpreter) JS::DisableJitBackend();
  JS::SetProcessBuildIdOp(build_id_op);
  if (!JS_Init()) return engine_error("The JavaScript engine could not start.");
  register_engine_helper_threads();
  return {};
}

JSContext* new_engine_context(std::size_t native_stack_quota, EngineProfile profile) {
  JSContext* cx = JS_NewContext(JS::DefaultHeapMaxBytes);
  if (!cx) return nullptr;
  JS_SetNativeStackQuota(cx, native_stack_quota);
  JS_SetGCParameter(cx, JSGC_MIN_LAST_DITCH_GC_PERIOD, 0);
  // No async stack is captured when a promise is made or awaited: a tool call makes two, and
  // capturing (SavedFrame lookups and hashing) was a visible part of a round trip's engine time.
  // A program's Error.stack then lists only the synchronous frames.
  JS::ContextOptionsRef(cx).setAsyncStack(false);
  if (profile == EngineProfile::kJit) enable_jit_compilers(cx);
  return cx;
}

Status init_self_hosted_code(JSContext* cx, std::span<const std::uint8_t> cache) {
  if (!JS::InitSelfHostedCode(cx, JS::SelfHostedCache(cache.data(), cache.size()))) {
    return engine_error("The JavaScript engine's self-hosted code could not start.");
  }
  return {};
}

Status write_self_hosted_cache(const std::string& path) {
  // The stencil is the same for both profiles (bytecode, no machine code); the build writes it
  // with the interpreter.
  if (Status started = start_engine_process(EngineProfile::kInterpreter); !started.ok()) {
    return started;
  }
  JSContext* cx = new_engine_context(1u << 20, EngineProfile::kInterpreter);
  if (!cx || !JS::InitSelfHostedCode(cx, nullptr, keep_stencil) || written_stencil().empty()) {
    return engine_error("The JavaScript engine could not produce its self-hosted stencil.");
  }
  return write_self_hosted_cache_file(path, written_stencil());
}

}  // namespace codemode::worker
