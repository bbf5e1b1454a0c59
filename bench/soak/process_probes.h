// What this process holds, read from /proc: its resident memory, its open fds, and its children.
// The soak reads them after the warm-up and at the end; growth between the two is a leak.
#ifndef CODEMODE_BENCH_SOAK_PROCESS_PROBES_H_
#define CODEMODE_BENCH_SOAK_PROCESS_PROBES_H_

#include <cstddef>
#include <optional>
#include <vector>

#include <sys/types.h>

namespace codemode::soak {

// VmRSS from /proc/self/status, in KiB; nullopt if it cannot be read.
std::optional<std::size_t> resident_kib();

// Entries of /proc/self/fd, not counting the one the listing itself opens.
std::size_t open_fd_count();

// Every process whose parent is this one, zombies included (/proc/<pid>/stat, field 4). With
// PR_SET_CHILD_SUBREAPER set, orphaned grandchildren are reparented here and counted too.
std::vector<pid_t> child_processes();

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_PROCESS_PROBES_H_
