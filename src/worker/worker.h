// codemode-worker runs exactly one program and exits. This is the order of its life, each step a
// named function in worker.cc:
//
//   1. prepare    the engine (context, globals, tools, self-hosted code), the time-zone and
//                 Intl warm-ups, the CPU watchdog and the engine's helper thread; none of it
//                 depends on the program, and every thread the worker will ever have now exists
//   2. start      read the start frame (version, source, input, limits)
//   3. confine    codemode::confine::confine_worker: fds, rlimits (RLIMIT_DATA = memoryBytes +
//                 kInterpreterBaseBytes + host copies), process attributes, then the seccomp
//                 filter; then the "confined" frame. Nothing untrusted has been parsed yet.
//   4. execute    shape check, compile, call, then tool calls until the program settles
//   5. result     one result frame, then _exit
//
// Any failure becomes an outcome: a result frame with reason sandbox_error if the channel still
// works, and a non-zero exit status.
#ifndef CODEMODE_WORKER_WORKER_H_
#define CODEMODE_WORKER_WORKER_H_

#include <cstddef>
#include <cstdint>

#include "worker/exit_codes.h"

namespace codemode::worker {

// The engine runs on a thread of its own with this stack, so the native stack quota below has a
// known margin: deep recursion throws a catchable InternalError long before the real stack ends.
inline constexpr std::size_t kEngineThreadStackBytes = 8u << 20;
inline constexpr std::size_t kNativeStackQuotaBytes = 6u << 20;

// What the worker itself occupies in RLIMIT_DATA before the program allocates anything: libmozjs's
// writable data, the thread stacks (8 MiB engine, 2 MiB helper, 128 KiB watchdog), the runtime,
// self-hosted code and globals. Measured at 19.5 MiB of VmData (docs/worker.md); the rest is room
// for the nursery (up to 16 MiB), the parser and malloc's own overhead.
inline constexpr std::uint64_t kInterpreterBaseBytes = 64u << 20;

// The worker copies a result or a tool input a few times as it crosses the boundary (UTF-8 text,
// parsed JSON, the frame); RLIMIT_DATA allows that many copies of the largest such value.
inline constexpr std::uint64_t kHostCopiesOfLargestValue = 4;

// RLIMIT_CPU backstop above cpuMillis: the watchdog stops the program long before.
inline constexpr std::uint64_t kCpuBackstopSeconds = 5;

// Runs the worker on the calling thread, which must have a kEngineThreadStackBytes stack, using
// fds 0 (frames from the parent) and 1 (frames to it). Never returns: it _exits.
[[noreturn]] void run_worker();

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_WORKER_H_
