// The worker process's first thread, parked while the engine thread runs the worker (main.cc).
// Capabilities belong to each thread and capset(2) changes only the caller's, so this thread,
// which exists before anything is confined, must drop its own: it waits here until the engine
// thread asks, drops them on itself, and answers. A fork-server child is a clone of the server's
// engine thread and has no parked thread of its own: asking there does nothing.
//
// Thread-safety: claim and park run on the main thread only, ask from one other thread, once.
#ifndef CODEMODE_WORKER_PARKED_MAIN_THREAD_H_
#define CODEMODE_WORKER_PARKED_MAIN_THREAD_H_

#include "codemode/error.h"

namespace codemode::worker {

// On the main thread, before it starts the engine thread: from now on, asking in this process
// waits for the parked main thread (which may park after the ask arrives).
void claim_main_thread_for_parking();

// On the main thread, once the engine thread runs: waits (in futex, which the filter allows) for
// the request, drops this thread's capabilities, answers, and returns. Returns only if asked.
void park_main_thread_until_capabilities_dropped();

// On the engine thread, before confinement: has the parked main thread of this process drop its
// capabilities and returns its answer (rule "capabilities" on failure). Returns at once where no
// main thread is parked in this process (a fork-server child).
[[nodiscard]] Status drop_parked_main_thread_capabilities();

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_PARKED_MAIN_THREAD_H_
