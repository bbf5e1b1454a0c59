// codemode-worker: the sandboxed process that runs one program. See worker.h for its life and
// docs/protocol.md for what it says on fds 0 and 1.
//
//   codemode-worker                                 run one program (frames on stdin/stdout)
//   codemode-worker --write-self-hosted-cache PATH  build step: write the self-hosted stencil
#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <string>
#include <string_view>

#include "worker/engine.h"
#include "worker/thread.h"
#include "worker/worker.h"

namespace {

constexpr std::string_view kWriteCacheFlag = "--write-self-hosted-cache";
// Availability probe: the process started, so the loader found SpiderMonkey; nothing else runs.
constexpr std::string_view kProbeFlag = "--probe";

// Runs `body` on a thread with the engine's stack, and exits with its status.
template <typename Body>
[[noreturn]] void run_on_engine_thread(Body body) {
  auto thread = codemode::worker::Thread::start(codemode::worker::kEngineThreadStackBytes,
                                                [body] { _exit(body()); });
  if (!thread.ok()) _exit(codemode::worker::kExitSandboxError);
  thread->join();  // never returns: the body _exits
  _exit(codemode::worker::kExitSandboxError);
}

}  // namespace

int main(int argc, char** argv) {
  // The parent passes an empty environment already; clear it anyway, before the engine reads any
  // of it (time zone, locale, engine tuning variables).
  clearenv();
  // One malloc arena for every thread. glibc's extra arenas live in mmap'd heaps, and the first
  // time one shrinks, glibc opens /proc/sys/vm/overcommit_memory, which the system-call filter
  // kills. Must come before any thread allocates.
  mallopt(M_ARENA_MAX, 1);
  // A parent that went away makes write(2) fail with EPIPE instead of killing the worker silently.
  signal(SIGPIPE, SIG_IGN);
  if (argc == 2 && argv[1] == kProbeFlag) return 0;
  if (argc == 3 && argv[1] == kWriteCacheFlag) {
    const std::string path = argv[2];
    run_on_engine_thread([path] {
      return codemode::worker::write_self_hosted_cache(path).ok()
                 ? 0
                 : static_cast<int>(codemode::worker::kExitSandboxError);
    });
  }
  if (argc != 1) return codemode::worker::kExitUsage;
  run_on_engine_thread([] {
    codemode::worker::run_worker();
    return 0;
  });
}
