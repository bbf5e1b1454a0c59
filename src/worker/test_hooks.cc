#include "worker/test_hooks.h"

#ifndef CODEMODE_WORKER_TEST_HOOKS

namespace codemode::worker {

void observe_before_confinement() {}

}  // namespace codemode::worker

#else

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <memory>
#include <string_view>

#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "core/sanitizer_build.h"
#include "worker/fd_io.h"

namespace codemode::worker {
namespace {

// Sized like a pipe's buffer, so a flood moves in few system calls.
constexpr std::size_t kFloodChunkBytes = 64u << 10;

// The "isolation" hook's bits, recorded before the filter.
long& observed_isolation() {
  static long bits = 0;
  return bits;
}

bool root_directory_is_empty() {
  DIR* root = opendir("/");
  if (!root) return false;
  bool empty = true;
  // NOLINTNEXTLINE(concurrency-mt-unsafe): a DIR stream of its own
  while (const dirent* entry = readdir(root)) {
    const std::string_view name = entry->d_name;
    empty = empty && (name == "." || name == "..");
  }
  closedir(root);
  return empty;
}

bool only_loopback_down() {
  ifaddrs* interfaces = nullptr;
  if (getifaddrs(&interfaces) != 0) return false;
  bool seen = false;
  bool only = true;
  for (const ifaddrs* i = interfaces; i; i = i->ifa_next) {
    seen = true;
    only = only && std::string_view(i->ifa_name) == "lo" && (i->ifa_flags & IFF_UP) == 0;
  }
  freeifaddrs(interfaces);
  return seen && only;
}

[[noreturn]] void spin_forever() {
  for (;;) asm volatile("");
}

long result_of(long value) { return value < 0 ? -errno : value; }

// `protection` includes PROT_EXEC. Returns 0 when the kernel made the page so.
long make_page_executable(int protection) {
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return -errno;
  return result_of(syscall(SYS_mprotect, page, 4096, protection));
}

// Returns 0 (not the address, which a program must not learn) when the mapping was made.
long map_executable(int protection) {
  const long address =
      syscall(SYS_mmap, nullptr, 4096, protection, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return address == -1 ? -errno : 0;
}

// The memory probes (the first security review's): mappings RLIMIT_DATA does not count, or that
// would give one page two views. Each returns 0 when the kernel did what was asked, -errno when it
// refused.
constexpr std::size_t kPageBytes = 4096;

std::size_t at_least_a_page(long long bytes) {
  return std::max<std::size_t>(kPageBytes, static_cast<std::size_t>(std::max(0LL, bytes)));
}

long map_and_write(std::size_t bytes, int flags) {
  void* block = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (block == MAP_FAILED) return -errno;
  for (std::size_t at = 0; at < bytes; at += kPageBytes) static_cast<volatile char*>(block)[at] = 1;
  munmap(block, bytes);
  return 0;
}

// mremap with old_size 0 asks for a second mapping of the same pages.
long alias_a_page() {
  void* page =
      mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return -errno;
  const long alias = syscall(SYS_mremap, page, 0, kPageBytes, MREMAP_MAYMOVE);
  return alias == -1 ? -errno : 0;
}

long advise_a_page(long long advice) {
  void* page =
      mmap(nullptr, kPageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return -errno;
  const long advised = result_of(syscall(SYS_madvise, page, kPageBytes, advice));
  munmap(page, kPageBytes);
  return advised;
}

// A read-only reservation: RLIMIT_DATA does not count it, RLIMIT_AS does.
long reserve_read_only(std::size_t bytes) {
  void* block = mmap(nullptr, bytes, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (block == MAP_FAILED) return -errno;
  munmap(block, bytes);
  return 0;
}

[[noreturn]] void sleep_forever() {
  for (;;) {
    const timespec hour{3600, 0};
    clock_nanosleep(CLOCK_MONOTONIC, 0, &hour, nullptr);
  }
}

long fork_and_linger() {
  const long pid = syscall(SYS_fork);
  if (pid == 0) {  // the child, if the filter let it be born: it lingers where a test can see it
    const timespec linger{5, 0};
    clock_nanosleep(CLOCK_MONOTONIC, 0, &linger, nullptr);
    _exit(0);
  }
  return result_of(pid);
}

long execute(const std::string& path) {
  const std::string target = path.empty() ? "/nonexistent/codemode-test-hook" : path;
  char* const argv[] = {const_cast<char*>(target.c_str()), nullptr};
  char* const envp[] = {nullptr};
  return result_of(syscall(SYS_execve, target.c_str(), argv, envp));
}

long connect_to_loopback(long long port) {
  const long fd = syscall(SYS_socket, AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -errno;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return result_of(syscall(SYS_connect, fd, &address, sizeof address));
}

long write_repeated(int fd, const std::string& bytes, long long times) {
  if (bytes.empty()) return 0;
  std::string chunk;
  const std::size_t per_chunk = std::max<std::size_t>(1, kFloodChunkBytes / bytes.size());
  for (std::size_t i = 0; i < per_chunk; ++i) chunk += bytes;
  long long left = std::max<long long>(1, times);
  long written = 0;
  while (left > 0) {
    const long long copies = std::min<long long>(left, static_cast<long long>(per_chunk));
    const std::string_view part(chunk.data(), static_cast<std::size_t>(copies) * bytes.size());
    if (!write_all(fd, part)) return -errno;
    written += static_cast<long>(part.size());
    left -= copies;
  }
  return written;
}

void store_through_null() {
  // A volatile store through a pointer read from a volatile: the compiler can neither see the
  // null (and emit a trap instead) nor drop the store (GCC 12 drops a plain one).
  volatile int* volatile target = nullptr;
  *target = 1;
}

#ifdef CODEMODE_SANITIZER_BUILD
// Real bugs, compiled only where a sanitizer stops them before they do anything (never in a
// release binary, test hooks or not). volatile keeps the compiler from seeing through them.
long read_past_heap_block() {
  auto block = std::make_unique<char[]>(16);
  volatile char* bytes = block.get();
  return bytes[16];
}

long overflow_int() {
  volatile int largest = INT_MAX;
  volatile int one = 1;
  return largest + one;
}
#endif

long forbidden_call(std::string_view name, const TestHookArguments& arguments) {
  if (name == "open") return result_of(syscall(SYS_openat, AT_FDCWD, "/etc/hostname", O_RDONLY));
  if (name == "create") {
    return result_of(
        syscall(SYS_openat, AT_FDCWD, arguments.bytes.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600));
  }
  if (name == "socket") return result_of(syscall(SYS_socket, AF_INET, SOCK_STREAM, 0));
  if (name == "connect") return connect_to_loopback(arguments.number);
  if (name == "fork") return fork_and_linger();
  if (name == "exec") return execute(arguments.bytes);
  if (name == "mmap_exec") return map_executable(PROT_READ | PROT_EXEC);
  if (name == "mprotect_exec") return make_page_executable(PROT_READ | PROT_EXEC);
  if (name == "mmap_wx") return map_executable(PROT_READ | PROT_WRITE | PROT_EXEC);
  if (name == "mprotect_wx") return make_page_executable(PROT_READ | PROT_WRITE | PROT_EXEC);
  if (name == "mmap_shared")
    return map_and_write(at_least_a_page(arguments.number), MAP_SHARED | MAP_ANONYMOUS);
  if (name == "mmap_growsdown") {
    return map_and_write(kPageBytes, MAP_PRIVATE | MAP_ANONYMOUS | MAP_GROWSDOWN);
  }
  if (name == "mremap_alias") return alias_a_page();
  if (name == "madvise") return advise_a_page(arguments.number);
  if (name == "reserve") return reserve_read_only(at_least_a_page(arguments.number));
  if (name == "ptrace") {
    return result_of(syscall(SYS_ptrace, PTRACE_ATTACH, arguments.number, nullptr, nullptr));
  }
  if (name == "kill") return result_of(syscall(SYS_kill, arguments.number, SIGTERM));
  return -1;
}

}  // namespace

long run_test_hook(std::string_view name, const TestHookArguments& arguments) {
  if (name == "write_stdout") return write_repeated(1, arguments.bytes, 1);
  if (name == "write_stderr") return write_repeated(2, arguments.bytes, arguments.number);
  if (name == "exit") _exit(static_cast<int>(arguments.number));
  if (name == "hang") sleep_forever();
  if (name == "segfault") store_through_null();
  if (name == "spin") spin_forever();
  if (name == "isolation") return observed_isolation();
#ifdef CODEMODE_SANITIZER_BUILD
  if (name == "heap_overflow") return read_past_heap_block();
  if (name == "signed_overflow") return overflow_int();
#endif
  return forbidden_call(name, arguments);
}

void observe_before_confinement() {
  const int passwd = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
  const bool no_passwd = passwd < 0 && errno == ENOENT;
  if (passwd >= 0) close(passwd);
  observed_isolation() = (getpid() == 1 ? 1 : 0) | (root_directory_is_empty() ? 2 : 0) |
                         (no_passwd ? 4 : 0) | (only_loopback_down() ? 8 : 0);
}

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_TEST_HOOKS
