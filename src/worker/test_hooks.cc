#include "worker/test_hooks.h"

#ifdef CODEMODE_WORKER_TEST_HOOKS

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

namespace codemode::worker {
namespace {

long result_of(long value) { return value < 0 ? -errno : value; }

long make_page_executable() {
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return -errno;
  return result_of(syscall(SYS_mprotect, page, 4096, PROT_READ | PROT_EXEC));
}

long fork_and_exit() {
  const long pid = syscall(SYS_fork);
  if (pid == 0) _exit(0);  // the child, if the filter let it be born
  return result_of(pid);
}

}  // namespace

long run_test_hook(std::string_view name) {
  if (name == "open") return result_of(syscall(SYS_openat, AT_FDCWD, "/etc/hostname", O_RDONLY));
  if (name == "socket") return result_of(syscall(SYS_socket, AF_INET, SOCK_STREAM, 0));
  if (name == "fork") return fork_and_exit();
  if (name == "exec") {
    char* const argv[] = {nullptr};
    return result_of(syscall(SYS_execve, "/nonexistent/codemode-test-hook", argv, argv));
  }
  if (name == "mprotect_exec") return make_page_executable();
  return -1;
}

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_TEST_HOOKS
