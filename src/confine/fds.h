// Layer: file descriptors. Closes every fd the worker inherited or opened during start-up except
// the IPC pipes, so a compromised worker holds no handle to a file, socket or other process.
#ifndef CODEMODE_CONFINE_FDS_H_
#define CODEMODE_CONFINE_FDS_H_

#include <span>
#include <vector>

#include "codemode/error.h"

namespace codemode::confine {

// Closes every fd not in `keep` (close_range(2) where the kernel has it, otherwise a listing of
// /proc/self/fd taken before anything is closed), then lists /proc/self/fd again and fails with
// rule "fd_verify" if anything else is still open. Fails with rule "fd_close" if closing fails.
// REQUIRES: no other thread opens fds meanwhile. Must run before the seccomp layer (it opens
// /proc/self/fd).
[[nodiscard]] Status close_other_fds(std::span<const int> keep);

// The fallback used when close_range(2) is missing; exposed so tests can exercise it on kernels
// that have close_range.
[[nodiscard]] Status close_other_fds_by_listing(std::span<const int> keep);

// The fds open now, read from /proc/self/fd (the listing's own fd excluded). Where /proc does
// not exist and the hard RLIMIT_NOFILE is at most kEmptyRootMaxFds (the isolated profile's empty
// root, namespaces.h), each fd below that limit is probed instead. Rule "fd_verify" otherwise when
// /proc/self/fd cannot be read.
[[nodiscard]] Result<std::vector<int>> list_open_fds();

}  // namespace codemode::confine

#endif  // CODEMODE_CONFINE_FDS_H_
