// codemode-worker: the sandboxed process that runs one program. See worker.h for its life and
// docs/protocol.md for what it says on fds 0 and 1.
//
//   codemode-worker [--isolated] [--jit]            run one program (frames on stdin/stdout);
//                                                   --isolated: the parent made the namespaces
//                                                   (src/confine/namespaces.h);
//                                                   --jit: the JIT engine profile (Baseline and
//                                                   Ion on, executable memory allowed, W^X)
//   codemode-worker --fork-server [--isolated] [--jit]
//                                                   the fork server (fork_server.h), socket on fd 0
//   codemode-worker --probe [--isolated] [--jit]    exits 0 if it starts (and can isolate itself)
//   codemode-worker --write-self-hosted-cache PATH  build step: write the self-hosted stencil
//   codemode-worker --version                       prints "codemode-worker VERSION build-id HEX"
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

#include <malloc.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "codemode/process_adapter.h"
#include "codemode/version.h"

#include "confine/namespaces.h"
#include "worker/build_id.h"
#include "worker/engine/engine.h"
#include "worker/fork_server.h"
#include "worker/parked_main_thread.h"
#include "worker/thread.h"
#include "worker/worker.h"

namespace {

constexpr std::string_view kWriteCacheFlag = "--write-self-hosted-cache";
// What `codemode --version` shows of the worker it would run: this binary's version and GNU build
// id, which name exactly the file (and its self-hosted cache) an execution runs.
constexpr std::string_view kVersionFlag = "--version";
// Availability probe: the process started, so the loader found SpiderMonkey; with --isolated it
// also empties its root and checks it is pid 1 of its own pid namespace. No engine runs.
constexpr std::string_view kProbeFlag = "--probe";
constexpr std::string_view kForkServerFlag = "--fork-server";
constexpr std::string_view kIsolatedFlag = "--isolated";
constexpr std::string_view kJitFlag = "--jit";

struct Mode {
  bool probe = false;
  bool fork_server = false;
  codemode::worker::WorkerProfile profile;
};

// Each flag at most once; --probe and --fork-server exclude each other.
std::optional<Mode> parse_mode(int argc, char** argv) {
  Mode mode;
  codemode::IsolationProfile& isolation = mode.profile.isolation;
  codemode::EngineProfile& engine = mode.profile.engine;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    bool* seen = flag == kProbeFlag        ? &mode.probe
                 : flag == kForkServerFlag ? &mode.fork_server
                                           : nullptr;
    if (flag == kIsolatedFlag && isolation == codemode::IsolationProfile::kProcess) {
      isolation = codemode::IsolationProfile::kIsolated;
    } else if (flag == kJitFlag && engine == codemode::EngineProfile::kInterpreter) {
      engine = codemode::EngineProfile::kJit;
    } else if (seen && !*seen) {
      *seen = true;
    } else {
      return std::nullopt;
    }
  }
  if (mode.probe && mode.fork_server) return std::nullopt;
  return mode;
}

int probe(codemode::IsolationProfile isolation) {
  if (isolation == codemode::IsolationProfile::kProcess) return 0;
  const bool isolated =
      codemode::confine::enter_empty_root().ok() && codemode::confine::check_isolation().ok();
  return isolated ? 0 : static_cast<int>(codemode::worker::kExitSandboxError);
}

// Runs `body` on a thread with the engine's stack, and exits with its status. This thread parks
// meanwhile, and drops its own capabilities when the worker asks (parked_main_thread.h).
template <typename Body>
[[noreturn]] void run_on_engine_thread(Body body) {
  codemode::worker::claim_main_thread_for_parking();
  auto thread = codemode::worker::Thread::start(codemode::worker::kEngineThreadStackBytes,
                                                [body] { _exit(body()); });
  if (!thread.ok()) _exit(codemode::worker::kExitSandboxError);
  codemode::worker::park_main_thread_until_capabilities_dropped();
  thread->join();  // never returns: the body _exits
  _exit(codemode::worker::kExitSandboxError);
}

}  // namespace

int main(int argc, char** argv) {
  // The parent passes an empty environment already; clear it anyway, before the engine reads any
  // of it (time zone, locale, engine tuning variables).
  // NOLINTNEXTLINE(concurrency-mt-unsafe): before any thread
  clearenv();
  // One malloc arena for every thread. glibc's extra arenas live in mmap'd heaps, and the first
  // time one shrinks, glibc opens /proc/sys/vm/overcommit_memory, which the system-call filter
  // kills. Must come before any thread allocates.
  // NOLINTNEXTLINE(concurrency-mt-unsafe): before any thread
  mallopt(M_ARENA_MAX, 1);
  // A parent that went away makes write(2) fail with EPIPE instead of killing the worker silently.
  signal(SIGPIPE, SIG_IGN);
  if (argc == 2 && argv[1] == kVersionFlag) {
    const std::string line = std::string("codemode-worker ") + codemode::kVersion + " build-id " +
                             codemode::worker::executable_build_id() + "\n";
    return fwrite(line.data(), 1, line.size(), stdout) == line.size() && fflush(stdout) == 0
               ? 0
               : codemode::worker::kExitUsage;
  }
  if (argc == 3 && argv[1] == kWriteCacheFlag) {
    const std::string path = argv[2];
    run_on_engine_thread([path] {
      return codemode::worker::write_self_hosted_cache(path).ok()
                 ? 0
                 : static_cast<int>(codemode::worker::kExitSandboxError);
    });
  }
  const std::optional<Mode> mode = parse_mode(argc, argv);
  if (!mode) return codemode::worker::kExitUsage;
  if (mode->probe) return probe(mode->profile.isolation);
  const codemode::worker::WorkerProfile profile = mode->profile;
  if (mode->fork_server) {
    if (!codemode::worker::take_fork_server_name()) return codemode::worker::kExitSandboxError;
    run_on_engine_thread([profile]() -> int { codemode::worker::run_fork_server(profile); });
  }
  run_on_engine_thread([profile]() -> int { codemode::worker::run_worker(profile); });
}
