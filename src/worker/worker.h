// codemode-worker runs exactly one program and exits. This is the order of its life, each step a
// named function in worker.cc:
//
//   1. prepare    the engine (context, globals, tools, self-hosted code) and the time-zone and
//                 Intl warm-ups; none of it depends on the program, and no thread is started
//      isolate    isolated profile only: the root becomes an empty tmpfs (the namespaces exist
//                 already; src/confine/namespaces.h)
//      [fork]     fork-server mode only: the server (fork_server.h) stops here and forks one
//                 child per execution; each child goes on from the next step
//      capabilities  every capability dropped while the worker has one thread (capset acts on
//                 the calling thread only; the threads started next inherit the empty sets)
//      threads    the engine's helper thread and the CPU watchdog: every thread the worker will
//                 ever have now exists
//   2. start      read the start frame (version, source, input, limits)
//   3. confine    codemode::confine::confine_worker: fds, rlimits (RLIMIT_DATA = memoryBytes +
//                 kInterpreterBaseBytes + host copies; RLIMIT_AS = what was mapped once prepared
//                 + RLIMIT_DATA + kAddressSpaceHeadroomBytes), the capabilities check, process
//                 attributes, then the seccomp filter; then the "confined" frame. Nothing
//                 untrusted has been parsed yet.
//   4. execute    shape check, compile, call, then tool calls until the program settles
//   5. result     one result frame, then _exit
//
// Any failure becomes an outcome: a result frame with reason sandbox_error if the channel still
// works, and a non-zero exit status.
#ifndef CODEMODE_WORKER_WORKER_H_
#define CODEMODE_WORKER_WORKER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "codemode/error.h"
#include "codemode/process_adapter.h"

#include "confine/seccomp_policy.h"
#include "core/process/read_spin.h"
#include "protocol/completion.h"
#include "protocol/worker_end.h"
#include "worker/engine/engine.h"
#include "worker/exit_codes.h"
#include "worker/frame_channel.h"
#include "worker/watchdog.h"

namespace codemode::worker {

// The engine runs on a thread of its own with this stack, so the native stack quota below has a
// known margin: deep recursion throws a catchable InternalError long before the real stack ends.
inline constexpr std::size_t kEngineThreadStackBytes = 8u << 20;
// The quota the engine is made with; each program's start frame may lower it (stackBytes).
inline constexpr std::size_t kNativeStackQuotaBytes = kMaxEngineStackBytes;

// What the worker itself occupies in RLIMIT_DATA before the program allocates anything: libmozjs's
// writable data, the thread stacks (8 MiB engine, 2 MiB helper, 128 KiB watchdog), the runtime,
// self-hosted code and globals. Measured at 19.5 MiB of VmData (docs/worker.md); the rest is room
// for the nursery (up to 16 MiB), the parser and malloc's own overhead.
inline constexpr std::uint64_t kInterpreterBaseBytes = 64u << 20;

// The worker copies a result or a tool input a few times as it crosses the boundary (UTF-8 text,
// parsed JSON, the frame); RLIMIT_DATA allows that many copies of the largest such value.
inline constexpr std::uint64_t kHostCopiesOfLargestValue = 4;

// RLIMIT_AS above what the prepared worker had mapped plus RLIMIT_DATA: the stacks of the threads
// started after prepare (10.1 MiB and their guard pages), and slack for what RLIMIT_DATA does not
// count but the allocators map: inaccessible reservations (SpiderMonkey aligns GC chunks by
// mapping more and trimming) and read-only pages. Address space, not memory: written pages are
// RLIMIT_DATA's. (One malloc arena only, main.cc, so no 64 MiB per-thread heap reservations.)
inline constexpr std::uint64_t kAddressSpaceHeadroomBytes = 256u << 20;

// What the parent asked for on the command line (main.cc): the isolated profile's namespaces
// (--isolated) and the JIT engine profile (--jit).
struct WorkerProfile {
  IsolationProfile isolation = IsolationProfile::kProcess;
  EngineProfile engine = EngineProfile::kInterpreter;
};

// What prepare measures of the worker itself, to size the limits confine applies.
struct PreparedSizes {
  std::uint64_t mapped_address_space = 0;  // VmSize once the engine and its warm-ups exist
  std::uint64_t sanitizer_reserved = 0;    // 0 in a release build (sanitizer_runtime.h)
};

class Worker {
 public:
  explicit Worker(WorkerProfile profile);
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  // Step 1 and, for the isolated profile, the empty root. Starts no thread. REQUIRES: once, on a
  // thread with a kEngineThreadStackBytes stack, which every later call must use too.
  // `every_program_profile`: prepare the model profile's global too (a fork server, whose children
  // then find both ready); otherwise it is made after the start frame names it.
  Status prepare_and_isolate(bool every_program_profile = false);
  // Ends any garbage collection in flight; the fork server calls it before it forks.
  void settle_before_fork();
  // The rest of the life, from the threads to the result, on fds 0 (frames from the parent) and 1
  // (frames to it); a failure of prepare_and_isolate is reported there. Never returns: it _exits.
  [[noreturn]] void live(const Status& prepared);

 private:
  Result<Completion> run_steps(const Status& prepared);
  Status prepare(bool every_program_profile);
  Status start_threads();
  Result<StartRequest> receive_start();
  Status confine(const WorkerLimits& limits);
  Result<Completion> execute(StartRequest start);
  int report(const Completion& completion);

  const WorkerProfile profile_;
  FrameChannel channel_;
  std::vector<std::uint8_t> self_hosted_cache_;  // must outlive the engine
  PreparedSizes measured_;                       // measured before the root is emptied
  // Compiled once in prepare: a fork server's children load their copy.
  std::optional<confine::SeccompProgram> seccomp_program_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Watchdog> watchdog_;
  // Spins briefly before the engine thread sleeps for a tool's answer; its CPU time is credited
  // to the watchdog, never charged to the program.
  internal::ReadSpin answer_spin_;
  bool confined_ = false;
};

// Runs one worker on the calling thread, which must have a kEngineThreadStackBytes stack: prepare,
// isolate, then live. Never returns: it _exits.
[[noreturn]] void run_worker(WorkerProfile profile);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_WORKER_H_
