// SpiderMonkey's helper threads, run by us (JS::SetHelperThreadTaskCallback): the engine starts no
// thread of its own, so every thread of the worker exists, with a stack size we chose, before the
// system-call filter forbids creating threads.
#ifndef CODEMODE_WORKER_ENGINE_HELPER_THREADS_H_
#define CODEMODE_WORKER_ENGINE_HELPER_THREADS_H_

#include <cstddef>

#include "codemode/error.h"

namespace codemode::worker {

// Stack of each helper thread; SpiderMonkey's own helper threads use 2 MiB on 64-bit.
inline constexpr std::size_t kHelperThreadStackBytes = 2u << 20;
// One helper: GC sweeping and decommit run there; the worker runs one program on two shared cores.
inline constexpr std::size_t kHelperThreadCount = 1;

// Starts the helper threads and registers them with the engine. Once per process.
// REQUIRES: after JS_Init and before JS_NewContext (before JS_Init it crashes).
Status start_engine_helper_threads();

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_HELPER_THREADS_H_
