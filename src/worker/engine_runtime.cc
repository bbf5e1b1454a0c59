#include "worker/engine_runtime.h"

#include <js/BuildId.h>
#include <js/Initialization.h>

#include <string>
#include <vector>

#include "worker/build_id.h"
#include "worker/engine.h"
#include "worker/engine_helper_threads.h"
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

}  // namespace

Status start_engine_process(void (*on_fatal_out_of_memory)()) {
  fatal_out_of_memory() = on_fatal_out_of_memory;
  js::AutoEnterOOMUnsafeRegion::setAnnotateOOMAllocationSizeCallback(on_unhandlable_out_of_memory);
  JS::DisableJitBackend();
  JS::SetProcessBuildIdOp(build_id_op);
  if (!JS_Init()) return engine_error("The JavaScript engine could not start.");
  register_engine_helper_threads();
  return {};
}

JSContext* new_engine_context(std::size_t native_stack_quota) {
  JSContext* cx = JS_NewContext(JS::DefaultHeapMaxBytes);
  if (!cx) return nullptr;
  JS_SetNativeStackQuota(cx, native_stack_quota);
  JS_SetGCParameter(cx, JSGC_MIN_LAST_DITCH_GC_PERIOD, 0);
  return cx;
}

Status init_self_hosted_code(JSContext* cx, std::span<const std::uint8_t> cache) {
  if (!JS::InitSelfHostedCode(cx, JS::SelfHostedCache(cache.data(), cache.size()))) {
    return engine_error("The JavaScript engine's self-hosted code could not start.");
  }
  return {};
}

Status write_self_hosted_cache(const std::string& path) {
  if (Status started = start_engine_process(); !started.ok()) return started;
  JSContext* cx = new_engine_context(1u << 20);
  if (!cx || !JS::InitSelfHostedCode(cx, nullptr, keep_stencil) || written_stencil().empty()) {
    return engine_error("The JavaScript engine could not produce its self-hosted stencil.");
  }
  return write_self_hosted_cache_file(path, written_stencil());
}

}  // namespace codemode::worker
