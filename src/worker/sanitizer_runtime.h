// How codemode-worker lives with the sanitizer runtimes in a sanitizer build (CODEMODE_SANITIZE=ON,
// docs/security.md "Sanitizer builds"). The options of AddressSanitizer, UndefinedBehaviorSanitizer
// and LeakSanitizer are compiled into the worker (sanitizer_runtime.cc), because the worker runs
// with an empty environment and must not take them from ASAN_OPTIONS anyway. In a release build
// that file defines none of them, and the functions below do nothing.
#ifndef CODEMODE_WORKER_SANITIZER_RUNTIME_H_
#define CODEMODE_WORKER_SANITIZER_RUNTIME_H_

#include <cstdint>

namespace codemode::worker {

// The most freed memory AddressSanitizer keeps mapped to catch use-after-free (its quarantine,
// set in the worker's options): memory the program does not hold but RLIMIT_DATA counts.
inline constexpr std::uint64_t kSanitizerQuarantineBytes = 32u << 20;

// What RLIMIT_DATA must allow above the worker's own budget because of the sanitizer runtime: the
// data segment already mapped now (AddressSanitizer reserves terabytes of shadow memory at start,
// and RLIMIT_DATA counts reservations) plus the quarantine. 0 in a release build. Reads
// /proc/self/status, so it must run before confinement; 0 if it cannot be read, which leaves the
// data limit below what is mapped and makes the next allocation fail (fail closed, not open).
std::uint64_t sanitizer_reserved_data_bytes();

// Gets the sanitizer runtimes ready to report under the system-call filter; call it last before
// confinement. AddressSanitizer loads its module list now (from /proc/self/maps, which it would
// otherwise read in the middle of its first report); UndefinedBehaviorSanitizer's runtime (a
// library of its own under GCC) is started now, as it would otherwise start at its first report
// by reading /proc/self/exe and /proc/self/environ. Under the filter either read kills the worker
// half-way through the report. Does nothing in a release build.
void prepare_sanitizers_for_confinement();

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_SANITIZER_RUNTIME_H_
