#include "worker/sanitizer_runtime.h"

#include "core/sanitizer_build.h"

#ifdef CODEMODE_SANITIZER_BUILD

#include <charconv>
#include <string_view>

#include <fcntl.h>
#include <sanitizer/common_interface_defs.h>
#include <unistd.h>

#include "core/process/unique_fd.h"
#include "worker/exit_codes.h"

// The runtimes look these up by name at start-up, before main; they must be exported from the
// executable (the build hides symbols by default). Each option is a decision about a system call
// or a file the confined worker may not touch:
//   detect_leaks=0       the worker never frees its engine (it _exits), and LeakSanitizer's check
//                        stops the world with clone and ptrace, which the filter kills
//   use_sigaltstack=0    no alternate signal stack per thread: sigaltstack(2) with a new stack at
//                        thread start and end is denied
//   handle_segv=0 ...    deadly signals stay the kernel's, as in a release build: the worker dies
//                        of the signal and the parent reports a crash (ASan's handler would open
//                        /proc/self/maps to describe it, which the filter kills half-way)
//   allocator_may_return_null=1   a failed malloc (RLIMIT_DATA reached) returns NULL to
//                        SpiderMonkey, which reports out-of-memory as in a release build
//   symbolize=0          symbolizing opens the binaries; reports carry module+offset instead
//   quarantine_size_mb   freed memory kept for use-after-free checks; RLIMIT_DATA allows for it
//   color=never          deciding on colours asks fd 2 whether it is a terminal (ioctl TCGETS)
//   exitcode=4           kExitSanitizerReport: a report is a failure of its own, not a signal
// UndefinedBehaviorSanitizer is a separate runtime with its own copy of the common options; the
// build's -fno-sanitize-recover=all makes every report fatal. silence_unsigned_overflow only
// quiets start_undefined_behavior_runtime() below: GCC has no unsigned-overflow check. All
// reports go to fd 2, which the parent drains and discards.
extern "C" {

__attribute__((visibility("default"))) const char* __asan_default_options() {
  return "detect_leaks=0:use_sigaltstack=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:"
         "allocator_may_return_null=1:symbolize=0:quarantine_size_mb=32:halt_on_error=1:"
         "color=never:exitcode=4";
}

__attribute__((visibility("default"))) const char* __ubsan_default_options() {
  return "halt_on_error=1:print_stacktrace=0:use_sigaltstack=0:handle_segv=0:handle_sigbus=0:"
         "handle_sigfpe=0:symbolize=0:color=never:silence_unsigned_overflow=1:exitcode=4";
}

__attribute__((visibility("default"))) const char* __lsan_default_options() {
  return "detect_leaks=0";
}

// The UBSan runtime's entry point for a recoverable integer overflow, and its data layout
// (a source location, then a type descriptor): the ABI every compiler's instrumentation uses.
struct CodemodeUbsanLocation {
  const char* file;
  std::uint32_t line;
  std::uint32_t column;
};
struct CodemodeUbsanType {
  std::uint16_t kind;  // 0: integer
  std::uint16_t info;  // log2(bit width) << 1 | signed
  char name[16];
};
struct CodemodeUbsanOverflow {
  CodemodeUbsanLocation location;
  const CodemodeUbsanType* type;
};
void __ubsan_handle_add_overflow(CodemodeUbsanOverflow* data, std::uintptr_t lhs,
                                 std::uintptr_t rhs);

}  // extern "C"

namespace codemode::worker {
namespace {

static_assert(kSanitizerQuarantineBytes == 32u << 20, "quarantine_size_mb above");
static_assert(kExitSanitizerReport == 4, "exitcode above");

// The "VmData:" line of /proc/self/status, in bytes; 0 if absent.
std::uint64_t parse_vm_data(std::string_view status) {
  constexpr std::string_view kKey = "\nVmData:";
  const std::size_t at = status.find(kKey);
  if (at == std::string_view::npos) return 0;
  std::string_view rest = status.substr(at + kKey.size());
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  std::uint64_t kib = 0;
  const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), kib);
  const std::string_view unit(end, static_cast<std::size_t>(rest.data() + rest.size() - end));
  if (error != std::errc() || !unit.starts_with(" kB")) return 0;
  return kib * 1024;
}

// The runtime has no public "start now" call. Every report starts it first, and the only report
// that then stays silent is a recoverable unsigned overflow under silence_unsigned_overflow=1:
// so report one (an overflow that never happened) from this line. Once per process; the runtime
// marks the location as reported.
void start_undefined_behavior_runtime() {
  static const CodemodeUbsanType kUnsigned{0, 5 << 1, "'unsigned int'"};
  static CodemodeUbsanOverflow overflow{{__FILE__, __LINE__, 1}, &kUnsigned};
  __ubsan_handle_add_overflow(&overflow, 0xFFFFFFFFu, 1);
}

}  // namespace

void prepare_sanitizers_for_confinement() {
  // A report prints each frame as module+offset, and the runtime reads its module list from
  // /proc/self/maps at its first lookup: make that lookup now. No library is loaded later.
  char frame[128];
  __sanitizer_symbolize_pc(reinterpret_cast<void*>(&prepare_sanitizers_for_confinement), "%p %m",
                           frame, sizeof frame);
  start_undefined_behavior_runtime();
}

std::uint64_t sanitizer_reserved_data_bytes() {
  internal::UniqueFd fd(::open("/proc/self/status", O_RDONLY | O_CLOEXEC));
  char buffer[4096];
  const ssize_t got = fd.valid() ? ::read(fd.get(), buffer, sizeof buffer) : -1;
  if (got <= 0) return 0;
  const std::uint64_t mapped =
      parse_vm_data(std::string_view(buffer, static_cast<std::size_t>(got)));
  return mapped == 0 ? 0 : mapped + kSanitizerQuarantineBytes;
}

}  // namespace codemode::worker

#else  // a release build: no sanitizer runtime, nothing reserved

namespace codemode::worker {

std::uint64_t sanitizer_reserved_data_bytes() { return 0; }
void prepare_sanitizers_for_confinement() {}

}  // namespace codemode::worker

#endif  // CODEMODE_SANITIZER_BUILD
