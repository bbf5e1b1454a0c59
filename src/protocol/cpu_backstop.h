// The RLIMIT_CPU backstop both ends agree on: the worker sets it on itself (src/worker/worker.cc)
// and the parent measures a worker's end against it (src/sandbox/process/worker_process.cc), so a
// worker killed by SIGXCPU/SIGKILL at the backstop is reported cpu_limit only from the parent's own
// reading of its CPU time.
#ifndef CODEMODE_PROTOCOL_CPU_BACKSTOP_H_
#define CODEMODE_PROTOCOL_CPU_BACKSTOP_H_

#include <cstdint>

namespace codemode::internal {

// The RLIMIT_CPU backstop above cpuMillis: the worker's watchdog stops the program long before.
inline constexpr std::uint64_t kCpuBackstopSeconds = 5;

// The RLIMIT_CPU soft limit, in seconds, for a program of `cpu_millis`: cpuMillis rounded up to
// whole seconds, plus kCpuBackstopSeconds.
constexpr std::uint64_t cpu_backstop_seconds(std::uint64_t cpu_millis) {
  return (cpu_millis + 999) / 1000 + kCpuBackstopSeconds;
}

}  // namespace codemode::internal

#endif  // CODEMODE_PROTOCOL_CPU_BACKSTOP_H_
