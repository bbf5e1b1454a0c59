// Layer: system calls. Stops a worker that escaped the engine from reaching the kernel beyond
// compute and its pipes: no files, sockets, processes, signals to others, tracing, executable
// memory (in the JIT profile: no memory both writable and executable) or new namespaces.
// Allow-list with kill-process default, loaded on every thread (TSYNC).
#include "confine/seccomp_policy.h"

#include <algorithm>
#include <array>
#include <string>

#include <linux/filter.h>
#include <linux/futex.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "confine/confine_error.h"
#include "core/process/unique_fd.h"
#include "core/sanitizer_build.h"

namespace codemode::confine {
namespace {

constexpr std::string_view kLayer = "seccomp";

using enum SeccompAction;

using ArgConditions = std::span<const ArgCondition>;

// mmap(addr, length, prot, flags, fd, offset): prot is argument 2, flags argument 3. A mapping is
// private and anonymous, with no flag beyond the few the allocators pass: never MAP_SHARED (a
// shared mapping is not charged to RLIMIT_DATA, and a second view of it could alias JIT code),
// never MAP_GROWSDOWN (not charged either), MAP_HUGETLB, MAP_LOCKED or a file.
constexpr std::uint64_t kMmapFlagsAllowedBeside = MAP_NORESERVE | MAP_FIXED;
constexpr ArgCondition kMapPrivateAnonymous =
    arg_masked_equals(3, ~kMmapFlagsAllowedBeside, MAP_PRIVATE | MAP_ANONYMOUS);
constexpr std::array kMmapWithoutExec{arg_masked_equals(2, PROT_EXEC, 0), kMapPrivateAnonymous};
constexpr std::array kMprotectWithoutExec{arg_masked_equals(2, PROT_EXEC, 0)};

// mremap(old_address, old_size, new_size, flags, new_address): glibc's realloc grows or shrinks a
// block in place or moves it. An old_size of 0 asks for a second mapping of the same pages (an
// alias), MREMAP_FIXED places it over other memory, MREMAP_DONTUNMAP leaves a copy behind.
constexpr std::array kMremapResizeOrMove{arg_not_equal(1, 0),
                                         arg_masked_equals(3, ~std::uint64_t{MREMAP_MAYMOVE}, 0)};

// madvise(addr, length, advice): advice is argument 2, compared whole. MADV_DONTNEED is the only
// advice glibc's trimming and the GC's decommit give (measured); the others reach kernel paths
// nothing needs (KSM merging, huge pages, poisoning, page-out, fork behaviour).
constexpr std::array kAdviceDontNeed{arg_masked_equals(2, ~std::uint64_t{0}, MADV_DONTNEED)};

// futex(uaddr, op, ...): op is argument 1. The mask keeps every bit but the two option flags
// glibc sets (FUTEX_PRIVATE_FLAG, FUTEX_CLOCK_REALTIME), so only the named command matches.
constexpr std::uint64_t kFutexCommandMask =
    static_cast<std::uint32_t>(~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME));
constexpr std::array kFutexWait{arg_masked_equals(1, kFutexCommandMask, FUTEX_WAIT)};
constexpr std::array kFutexWake{arg_masked_equals(1, kFutexCommandMask, FUTEX_WAKE)};
constexpr std::array kFutexWaitBitset{arg_masked_equals(1, kFutexCommandMask, FUTEX_WAIT_BITSET)};
constexpr std::array kFutexWakeBitset{arg_masked_equals(1, kFutexCommandMask, FUTEX_WAKE_BITSET)};

// poll(2) with a timeout from 0 to 2^22 - 1 ms (about 70 minutes, above the longest wall time;
// never negative, which would wait forever): a readiness check of the worker's own fds, or a
// bounded wait on them for the model profile's timers. Waiting adds no reach: the worker can
// already block in read(2) on the same pipe until the parent ends it at its wall-time limit.
// The timeout is an int, so only its low 32 bits are compared.
constexpr std::array kBoundedTimeout{arg_masked_equals(2, 0xffc00000u, 0)};

#ifdef CODEMODE_SANITIZER_BUILD
// sigaltstack(ss, old_ss): a null ss (argument 0) makes the call a read of the calling thread's
// own alternate-stack setting; installing or changing a stack stays denied.
constexpr std::array kReadOnlySigaltstack{arg_masked_equals(0, ~std::uint64_t{0}, 0)};
// The ASan runtime maps shadow for large allocations and marks it MADV_NOHUGEPAGE (and, where it
// is told to, MADV_DONTDUMP); both change only how the kernel backs or dumps the worker's pages.
constexpr std::array kAdviceNoHugePage{arg_masked_equals(2, ~std::uint64_t{0}, MADV_NOHUGEPAGE)};
constexpr std::array kAdviceDontDump{arg_masked_equals(2, ~std::uint64_t{0}, MADV_DONTDUMP)};
#endif

// Measured with strace -f on SpiderMonkey 102 (JIT off) after start-up and warm-ups: see
// docs/security.md. Rows are in the order a reader meets the needs: IPC, threads, time, memory,
// randomness, accounting, signals, ending. A call with several rows is allowed when any holds.
constexpr std::array kAllowed = std::to_array<SyscallDecision>({
    {"read", kAllow, {}, "IPC frames from the parent on fd 0"},
    {"write", kAllow, {}, "IPC frames to the parent on fd 1, diagnostics on fd 2"},
    {"close", kAllow, {}, "fd owners closing the pipes at shutdown; closing only drops access"},
    {"poll", kAllow, kBoundedTimeout,
     "the spin before a tool's answer; the wait for it until a timer is due"},
    // glibc's mutexes, condition variables, once and join use only these four futex commands;
    // the priority-inheritance and requeue commands, the kernel's worst futex history, are out.
    {"futex", kAllow, kFutexWait, "mutex and condition-variable waits"},
    {"futex", kAllow, kFutexWake, "mutex and condition-variable wake-ups"},
    {"futex", kAllow, kFutexWaitBitset, "timed waits (the watchdog) and joins"},
    {"futex", kAllow, kFutexWakeBitset, "wake-ups paired with bitset waits"},
    {"sched_yield", kAllow, {}, "libstdc++'s std::atomic::wait spins with it; own thread only"},
    {"clock_gettime", kAllow, {}, "the watchdog's thread CPU clock, which the vDSO lacks"},
    {"gettimeofday", kAllow, {}, "Date.now() where the vDSO cannot read the clocksource"},
    {"time", kAllow, {}, "the same vDSO fallback; tells no more than clock_gettime"},
    {"clock_nanosleep", kAllow, {}, "the watchdog's sleep; glibc's nanosleep() calls it"},
    {"mmap", kAllow, kMmapWithoutExec,
     "GC chunks and large malloc blocks: private, anonymous, never executable"},
    {"mprotect", kAllow, kMprotectWithoutExec, "malloc arena growth, never making code executable"},
    {"munmap", kAllow, {}, "returning GC chunks and large malloc blocks"},
    {"mremap", kAllow, kMremapResizeOrMove,
     "realloc of large blocks: resized or moved, never aliased or placed"},
    {"madvise", kAllow, kAdviceDontNeed, "GC decommit and malloc trimming"},
    {"brk", kAllow, {}, "glibc malloc's main arena"},
    {"getrandom", kAllow, {}, "hash seeds and Math.random seeding, often"},
    {"getrusage", kAllow, {}, "the GC's statistics"},
    {"rt_sigprocmask", kAllow, {}, "glibc blocks signals in a thread's exit path; own mask only"},
    {"rt_sigreturn", kAllow, {}, "returning from a signal handler the engine or runtime set"},
    {"exit", kAllow, {}, "a helper or watchdog thread ending"},
    {"exit_group", kAllow, {}, "the worker ending"},
#ifdef CODEMODE_SANITIZER_BUILD
    // Sanitizer builds only (docs/security.md "Sanitizer builds"); sanitizer_build.h makes these
    // rows impossible without -fsanitize=address.
    {"sigaltstack", kAllow, kReadOnlySigaltstack,
     "sanitizer builds: ASan reads it before every noreturn call and throw; reading only"},
    {"getpid", kAllow, {}, "sanitizer builds: an ASan report's first line names the process"},
    {"madvise", kAllow, kAdviceNoHugePage,
     "sanitizer builds: ASan marks the shadow of large allocations as not for huge pages"},
    {"madvise", kAllow, kAdviceDontDump, "sanitizer builds: ASan keeps its shadow out of dumps"},
#endif
});

// The JIT engine profile only (EngineProfile::kJit): added to kAllowed, whose rows stay, so a
// mapping may be writable or executable but never both at once (W^X). SpiderMonkey 102 on x86-64
// writes JIT code while it is PROT_READ|PROT_WRITE and flips it to PROT_READ|PROT_EXEC with
// mprotect (measured with strace: it never asks for all three; docs/security.md "JIT profile").
constexpr std::array kMmapWithoutWrite{arg_masked_equals(2, PROT_WRITE, 0), kMapPrivateAnonymous};
constexpr std::array kMprotectWithoutWrite{arg_masked_equals(2, PROT_WRITE, 0)};
constexpr std::array kJitExecutableMemory = std::to_array<SyscallDecision>({
    {"mmap", kAllow, kMmapWithoutWrite, "jit profile: JIT code pages mapped, never also writable"},
    {"mprotect", kAllow, kMprotectWithoutWrite, "jit profile: written JIT code made executable"},
});

template <std::size_t N, std::size_t M>
constexpr std::array<SyscallDecision, N + M> joined(const std::array<SyscallDecision, N>& first,
                                                    const std::array<SyscallDecision, M>& second) {
  std::array<SyscallDecision, N + M> rows{};
  std::copy(first.begin(), first.end(), rows.begin());
  std::copy(second.begin(), second.end(), rows.begin() + N);
  return rows;
}

constexpr std::array kJitAllowed = joined(kAllowed, kJitExecutableMemory);

constexpr std::array kDenied = std::to_array<SyscallDecision>({
    {"open", kKillProcess, {}, "files: warm-ups read tz and ICU data before the filter"},
    {"openat", kKillProcess, {}, "files: a lazy /etc/localtime open means a missed warm-up"},
    {"openat2", kKillProcess, {}, "files, by the newest path"},
    {"creat", kKillProcess, {}, "files"},
    {"newfstatat", kKillProcess, {}, "probes host paths; glibc stdio's use is avoided by write(2)"},
    {"statx", kKillProcess, {}, "probes host paths"},
    {"readlink", kKillProcess, {}, "ICU's lazy time-zone lookup; warmed up before the filter"},
    {"readlinkat", kKillProcess, {}, "the same lookup by its newer name"},
    {"ioctl", kKillProcess, {}, "glibc stdio's TCGETS on ttys; the worker writes pipes only"},
    {"socket", kKillProcess, {}, "network and local sockets: the worker talks through its pipes"},
    {"socketpair", kKillProcess, {}, "new channels nobody on the host listens to"},
    {"execve", kKillProcess, {}, "running another program"},
    {"execveat", kKillProcess, {}, "running another program"},
    {"fork", kKillProcess, {}, "new processes"},
    {"vfork", kKillProcess, {}, "new processes"},
    // Threads: SpiderMonkey's helpers and the watchdog start before the filter and none starts
    // later (measured), so clone is denied outright rather than allowed with CLONE_THREAD.
    // clone3 keeps its flags in memory a filter cannot read; glibc would fall back to clone on
    // ENOSYS, but with clone denied too a kill is the plainer answer.
    {"clone", kKillProcess, {}, "all threads exist before the filter: not even CLONE_THREAD"},
    {"clone3", kKillProcess, {}, "flags unreadable by a filter; no ENOSYS as clone is denied"},
    {"ptrace", kKillProcess, {}, "tracing or reading other processes"},
    {"process_vm_readv", kKillProcess, {}, "reading another process's memory"},
    {"process_vm_writev", kKillProcess, {}, "writing another process's memory"},
    {"kill", kKillProcess, {}, "signalling the executor or other workers of the same user"},
    {"tkill", kKillProcess, {}, "signalling other tasks by thread id"},
    {"tgkill", kKillProcess, {}, "other processes' threads; abort() dies of SIGSYS, still a crash"},
    {"prctl", kKillProcess, {}, "could make the worker dumpable again"},
    {"personality", kKillProcess, {}, "READ_IMPLIES_EXEC would make PROT_READ executable"},
    {"pkey_mprotect", kKillProcess, {}, "mprotect without our PROT_EXEC check"},
    {"memfd_create", kKillProcess, {}, "a new fd of shareable memory; nothing needs one"},
    {"setrlimit", kKillProcess, {}, "raising a soft limit back to its hard limit"},
    {"prlimit64", kKillProcess, {}, "raising a soft limit back to its hard limit"},
    {"unshare", kKillProcess, {}, "new namespaces: a large kernel attack surface"},
    {"setns", kKillProcess, {}, "entering other namespaces"},
    {"mount", kKillProcess, {}, "changing the file system view"},
    {"bpf", kKillProcess, {}, "a large kernel attack surface"},
    {"perf_event_open", kKillProcess, {}, "side channels and a large kernel attack surface"},
    {"userfaultfd", kKillProcess, {}, "stalls kernel accesses: a race-exploit primitive"},
    {"io_uring_setup", kKillProcess, {}, "a second system-call path the filter cannot see"},
    {"keyctl", kKillProcess, {}, "the user's kernel keyrings"},
    {"add_key", kKillProcess, {}, "the user's kernel keyrings"},
    {"mlock", kKillProcess, {}, "pinning memory (RLIMIT_MEMLOCK is 0 as well)"},
    {"seccomp", kKillProcess, {}, "no filter stacking or policy probing is needed"},
});

// libseccomp API level 3 brings SECCOMP_RET_KILL_PROCESS; level 2 brought TSYNC.
constexpr int kRequiredApiLevel = 3;

Error policy_error() { return confinement_failed(kLayer, "seccomp_policy"); }

scmp_arg_cmp to_libseccomp(const ArgCondition& condition) {
  if (condition.test == ArgCondition::Test::kNotEqual) {
    return {condition.index, SCMP_CMP_NE, condition.value, 0};
  }
  return {condition.index, SCMP_CMP_MASKED_EQ, condition.mask, condition.value};
}

// libseccomp takes at most one comparison per argument, six arguments in all.
constexpr std::size_t kMaxConditions = 6;

Status add_allowed(scmp_filter_ctx context, const SyscallDecision& row) {
  const int number = seccomp_syscall_resolve_name(std::string(row.name).c_str());
  if (number < 0 || row.action != kAllow || row.only_if.size() > kMaxConditions) {
    return policy_error();
  }
  std::array<scmp_arg_cmp, kMaxConditions> conditions{};
  std::transform(row.only_if.begin(), row.only_if.end(), conditions.begin(), to_libseccomp);
  const int added =
      seccomp_rule_add_array(context, SCMP_ACT_ALLOW, number,
                             static_cast<unsigned>(row.only_if.size()), conditions.data());
  return added == 0 ? Status() : Status(policy_error());
}

// Every denial today is the default action, which needs no rule (libseccomp even refuses one).
// The rows are still resolved, so a misspelt name fails here instead of documenting nothing; a
// denial absent on this architecture (a negative pseudo-number) is fine.
Status check_denied(const SyscallDecision& row) {
  const int number = seccomp_syscall_resolve_name(std::string(row.name).c_str());
  if (number == __NR_SCMP_ERROR || row.action != kKillProcess) return policy_error();
  return {};
}

Status set_attributes(scmp_filter_ctx context) {
  // Without TSYNC only the calling thread would be filtered; a bad-architecture call (int 0x80,
  // x32) must kill the process too, not just the thread as libseccomp's default would.
  if (seccomp_attr_set(context, SCMP_FLTATR_CTL_TSYNC, 1) != 0 ||
      seccomp_attr_set(context, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS) != 0) {
    return confinement_failed(kLayer, "seccomp_unavailable");
  }
  return {};
}

Status add_rules(scmp_filter_ctx context, std::span<const SyscallDecision> allowed,
                 std::span<const SyscallDecision> denied) {
  for (const SyscallDecision& row : allowed) {
    if (Status added = add_allowed(context, row); !added.ok()) return added;
  }
  for (const SyscallDecision& row : denied) {
    if (Status checked = check_denied(row); !checked.ok()) return checked;
  }
  return {};
}

}  // namespace

std::string_view to_string(SeccompAction action) {
  switch (action) {
    case kAllow:
      return "allow";
    case kKillProcess:
      return "kill_process";
  }
  return "unknown";
}

std::span<const SyscallDecision> worker_allowed_syscalls(EngineProfile engine) {
  if (engine == EngineProfile::kJit) return kJitAllowed;
  return kAllowed;
}

std::span<const SyscallDecision> worker_denied_syscalls() { return kDenied; }

std::optional<int> syscall_number(std::string_view name) {
  const int number = seccomp_syscall_resolve_name(std::string(name).c_str());
  // Negative numbers other than __NR_SCMP_ERROR are libseccomp's pseudo-numbers for calls that
  // exist on other architectures only.
  if (number < 0) return std::nullopt;
  return number;
}

void SeccompFilter::ContextReleaser::operator()(void* context) const { seccomp_release(context); }

Result<SeccompFilter> prepare_seccomp_filter(std::span<const SyscallDecision> allowed,
                                             std::span<const SyscallDecision> denied) {
  if (seccomp_api_get() < kRequiredApiLevel) {
    return confinement_failed(kLayer, "seccomp_unavailable");
  }
  SeccompFilter filter(seccomp_init(SCMP_ACT_KILL_PROCESS));
  if (!filter.context_) return confinement_failed(kLayer, "seccomp_unavailable");
  if (Status set = set_attributes(filter.context_.get()); !set.ok()) return set.error();
  if (Status added = add_rules(filter.context_.get(), allowed, denied); !added.ok()) {
    return added.error();
  }
  return filter;
}

Result<SeccompFilter> prepare_worker_seccomp_filter(EngineProfile engine) {
  return prepare_seccomp_filter(worker_allowed_syscalls(engine), kDenied);
}

std::size_t SeccompProgram::instruction_count() const {
  return instructions_.size() / sizeof(sock_filter);
}

Result<SeccompProgram> compile_seccomp_filter(const SeccompFilter& filter) {
  if (!filter.context_) return policy_error();
  // libseccomp 2.5 exports only to a file descriptor; a memfd holds it whatever its size.
  const internal::UniqueFd memory(static_cast<int>(memfd_create("codemode-seccomp", MFD_CLOEXEC)));
  if (!memory.valid() || seccomp_export_bpf(filter.context_.get(), memory.get()) != 0) {
    return policy_error();
  }
  struct stat info {};
  if (fstat(memory.get(), &info) != 0 || info.st_size <= 0 ||
      info.st_size % static_cast<off_t>(sizeof(sock_filter)) != 0 ||
      info.st_size > static_cast<off_t>(BPF_MAXINSNS * sizeof(sock_filter))) {
    return policy_error();
  }
  std::vector<unsigned char> instructions(static_cast<std::size_t>(info.st_size));
  if (pread(memory.get(), instructions.data(), instructions.size(), 0) != info.st_size) {
    return policy_error();
  }
  return SeccompProgram(std::move(instructions));
}

Result<SeccompProgram> compile_worker_seccomp_program(EngineProfile engine) {
  Result<SeccompFilter> filter = prepare_worker_seccomp_filter(engine);
  if (!filter.ok()) return filter.error();
  return compile_seccomp_filter(*filter);
}

Status apply_seccomp_program(const SeccompProgram& program) {
  const sock_fprog loaded{.len = static_cast<unsigned short>(program.instruction_count()),
                          // The kernel copies the instructions and never writes them.
                          .filter = reinterpret_cast<sock_filter*>(
                              const_cast<unsigned char*>(program.instructions_.data()))};
  // As libseccomp's loader with the filter's default attributes: no_new_privs first (the kernel's
  // TSYNC then sets it on every thread), then TSYNC, which answers 0, or the id of a thread that
  // could not be synchronised (it has a different filter), or -1.
  if (loaded.len == 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
      syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &loaded) != 0) {
    return confinement_failed(kLayer, "seccomp_load");
  }
  return {};
}

}  // namespace codemode::confine
