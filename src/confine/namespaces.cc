// Layer: namespaces and an empty root (namespaces.h).
#include "confine/namespaces.h"

#include <array>
#include <cstring>
#include <memory>
#include <string_view>

#include <dirent.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine/confine_error.h"
#include "confine/fds.h"

namespace codemode::confine {
namespace {

constexpr std::string_view kLayer = "namespaces";

// Where the empty tmpfs is mounted before it becomes the root: any directory that exists will do,
// and /tmp exists on every system codemode supports. Only this mount namespace sees the mount.
constexpr const char* kNewRootMountPoint = "/tmp";

struct DirCloser {
  void operator()(DIR* dir) const { closedir(dir); }
};

bool lower_fd_limit() {
  const rlimit limit{kEmptyRootMaxFds, kEmptyRootMaxFds};
  rlimit now{};
  if (getrlimit(RLIMIT_NOFILE, &now) != 0) return false;
  // Only ever lowered: a lower limit already in place stays.
  if (now.rlim_max <= limit.rlim_max) return true;
  return setrlimit(RLIMIT_NOFILE, &limit) == 0;
}

// A read-only, empty tmpfs with no device, set-uid or executable files, made the root.
// pivot_root(".", ".") stacks the old root on the new one, and the detach removes it (the
// pivot_root(2) man page's own recipe, which needs no directory inside the new root).
Status pivot_to_empty_tmpfs() {
  // Private first: pivot_root refuses shared mounts, and nothing done here must reach the parent's
  // mount namespace.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      mount("codemode-empty", kNewRootMountPoint, "tmpfs",
            MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=0555") != 0 ||
      chdir(kNewRootMountPoint) != 0) {
    return confinement_failed(kLayer, "namespaces_mount");
  }
  if (syscall(SYS_pivot_root, ".", ".") != 0)
    return confinement_failed(kLayer, "namespaces_pivot_root");
  if (umount2(".", MNT_DETACH) != 0 || chdir("/") != 0) {
    return confinement_failed(kLayer, "namespaces_detach");
  }
  return {};
}

bool root_is_empty() {
  std::unique_ptr<DIR, DirCloser> root(opendir("/"));
  if (!root) return false;
  // NOLINTNEXTLINE(concurrency-mt-unsafe): a DIR stream of its own
  while (const dirent* entry = readdir(root.get())) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") return false;
  }
  return true;
}

}  // namespace

Status enter_empty_root() {
  constexpr std::array<int, 3> kStdio{0, 1, 2};
  if (!close_other_fds(kStdio).ok()) return confinement_failed(kLayer, "namespaces_fds");
  if (!lower_fd_limit()) return confinement_failed(kLayer, "namespaces_nofile");
  return pivot_to_empty_tmpfs();
}

Status check_isolation() {
  if (getpid() != 1) return confinement_failed(kLayer, "namespaces_pid");
  if (!root_is_empty()) return confinement_failed(kLayer, "namespaces_root");
  return {};
}

}  // namespace codemode::confine
