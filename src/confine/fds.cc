// Layer: file descriptors. Stops a compromised worker from using any handle it inherited or opened
// during start-up (files, sockets, the parent's other pipes): only the IPC pipes stay open.
#include "confine/fds.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <iterator>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "confine/confine_error.h"
#include "confine/namespaces.h"

namespace codemode::confine {
namespace {

constexpr std::string_view kLayer = "fds";

struct DirCloser {
  void operator()(DIR* dir) const { closedir(dir); }
};
using ScopedDir = std::unique_ptr<DIR, DirCloser>;

std::vector<int> sorted_unique(std::span<const int> fds) {
  std::vector<int> out;
  std::copy_if(fds.begin(), fds.end(), std::back_inserter(out), [](int fd) { return fd >= 0; });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool is_kept(const std::vector<int>& sorted_keep, int fd) {
  return std::binary_search(sorted_keep.begin(), sorted_keep.end(), fd);
}

// Closes the gaps between the kept fds and everything above the last one. Returns 0 or the errno
// of the first close_range(2) that failed (ENOSYS before Linux 5.9).
int close_gaps(const std::vector<int>& sorted_keep) {
  unsigned first = 0;
  for (int fd : sorted_keep) {
    const auto kept = static_cast<unsigned>(fd);
    if (kept > first && close_range(first, kept - 1, 0) != 0) return errno;
    first = kept + 1;
  }
  return close_range(first, ~0U, 0) == 0 ? 0 : errno;
}

std::optional<int> parse_fd(std::string_view name) {
  int fd = -1;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), fd);
  if (ec != std::errc() || end != name.data() + name.size()) return std::nullopt;
  return fd;
}

Status verify_only_kept_open(const std::vector<int>& sorted_keep) {
  Result<std::vector<int>> open_fds = list_open_fds();
  if (!open_fds.ok()) return open_fds.error();
  for (int fd : *open_fds) {
    if (!is_kept(sorted_keep, fd)) return confinement_failed(kLayer, "fd_verify");
  }
  return {};
}

// Without /proc (the isolated profile's empty root), every fd below the hard RLIMIT_NOFILE is
// probed. That is the whole set only because enter_empty_root closed every other fd (checked
// through /proc) before lowering the hard limit, which nothing in the user namespace can raise,
// and no fd can be opened at or above it.
std::optional<std::vector<int>> probe_open_fds() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_max > kEmptyRootMaxFds) {
    return std::nullopt;
  }
  std::vector<int> fds;
  for (int fd = 0; fd < static_cast<int>(limit.rlim_max); ++fd) {
    if (fcntl(fd, F_GETFD) >= 0) fds.push_back(fd);
  }
  return fds;
}

}  // namespace

Result<std::vector<int>> list_open_fds() {
  ScopedDir dir(opendir("/proc/self/fd"));
  if (!dir && errno == ENOENT) {
    if (std::optional<std::vector<int>> probed = probe_open_fds()) return *probed;
  }
  if (!dir) return confinement_failed(kLayer, "fd_verify");
  const int listing_fd = dirfd(dir.get());
  std::vector<int> fds;
  errno = 0;
  // NOLINTNEXTLINE(concurrency-mt-unsafe): a DIR stream of its own
  while (const dirent* entry = readdir(dir.get())) {
    const std::optional<int> fd = parse_fd(entry->d_name);
    if (fd && *fd != listing_fd) fds.push_back(*fd);
  }
  if (errno != 0) return confinement_failed(kLayer, "fd_verify");
  return fds;
}

Status close_other_fds_by_listing(std::span<const int> keep) {
  const std::vector<int> sorted_keep = sorted_unique(keep);
  // The whole listing is taken before the first close, so closing cannot disturb the directory
  // stream we are reading.
  Result<std::vector<int>> open_fds = list_open_fds();
  if (!open_fds.ok()) return confinement_failed(kLayer, "fd_close");
  for (int fd : *open_fds) {
    // EBADF cannot happen for a listed fd unless another thread races us (see REQUIRES); EINTR
    // still closes the fd on Linux, so only EBADF is a failure.
    if (!is_kept(sorted_keep, fd) && close(fd) != 0 && errno == EBADF) {
      return confinement_failed(kLayer, "fd_close");
    }
  }
  return verify_only_kept_open(sorted_keep);
}

Status close_other_fds(std::span<const int> keep) {
  const std::vector<int> sorted_keep = sorted_unique(keep);
  const int error = close_gaps(sorted_keep);
  if (error == ENOSYS) return close_other_fds_by_listing(keep);
  if (error != 0) return confinement_failed(kLayer, "fd_close");
  return verify_only_kept_open(sorted_keep);
}

}  // namespace codemode::confine
