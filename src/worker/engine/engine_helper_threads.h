// SpiderMonkey's helper threads, run by us (JS::SetHelperThreadTaskCallback): the engine starts no
// thread of its own, so every thread of the worker exists, with a stack size we chose, before the
// system-call filter forbids creating threads.
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_HELPER_THREADS_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_HELPER_THREADS_H_

#include <cstddef>

#include "codemode/error.h"

namespace codemode::worker {

// Stack of each helper thread; SpiderMonkey's own helper threads use 2 MiB on 64-bit.
inline constexpr std::size_t kHelperThreadStackBytes = 2u << 20;
// One helper: GC sweeping and decommit run there; the worker runs one program on two shared cores.
inline constexpr std::size_t kHelperThreadCount = 1;

// Registers our pool with the engine, so SpiderMonkey never starts a thread of its own; tasks it
// dispatches wait until start_engine_helper_threads runs (a task the engine joins before then, as
// a collection does, runs on the joining thread). Once per process.
// REQUIRES: after JS_Init and before JS_NewContext (before JS_Init it crashes).
void register_engine_helper_threads();

// Starts the pool's threads, which then run every task dispatched so far and later. Once per
// process; a fork server's child calls it after the fork, so the server stays single-threaded.
// Returns once they are created. REQUIRES: register_engine_helper_threads ran.
Status start_engine_helper_threads();

// Returns once every pool thread runs (Thread::wait_until_running). REQUIRES: before the filter.
void wait_for_engine_helper_threads();

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_HELPER_THREADS_H_
