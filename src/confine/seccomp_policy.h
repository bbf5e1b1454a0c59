// Layer: system calls. The worker's seccomp-bpf allow-list, written as data: every allowed call
// with its argument condition and reason, and the notable denials with theirs, so a reader can see
// each call was considered rather than forgotten. Anything not allowed kills the whole process.
//
// Decide before fork, apply after (as nsjail's preparePolicy/applyPolicy): prepare_* builds the
// filter context from the tables and compile_* turns it into BPF instructions, once, in the fork
// server; apply_seccomp_program only loads them, in the worker, as the very last confinement step.
#ifndef CODEMODE_CONFINE_SECCOMP_POLICY_H_
#define CODEMODE_CONFINE_SECCOMP_POLICY_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "codemode/error.h"
#include "codemode/process_adapter.h"

namespace codemode::confine {

enum class SeccompAction {
  kAllow,
  // The filter's default: every thread dies of SIGSYS and the parent sees a signal death. No call
  // gets a soft error (SECCOMP_RET_ERRNO): none the worker makes has a library fallback that would
  // need one, so a surprise is loud rather than a silently different behaviour.
  kKillProcess,
};

std::string_view to_string(SeccompAction action);

// One test of a system call's argument, as the filter's BPF program evaluates it. Arguments are
// compared as the full 64-bit register, so stray high bits never match a narrower value.
struct ArgCondition {
  enum class Test {
    kMaskedEquals,  // (args[index] & mask) == value
    kNotEqual,      // args[index] != value
  };
  unsigned index = 0;
  Test test = Test::kMaskedEquals;
  std::uint64_t mask = ~std::uint64_t{0};
  std::uint64_t value = 0;

  // True when `argument` (the call's args[index]) passes this test.
  constexpr bool holds(std::uint64_t argument) const {
    return test == Test::kNotEqual ? argument != value : (argument & mask) == value;
  }
};

constexpr ArgCondition arg_masked_equals(unsigned index, std::uint64_t mask, std::uint64_t value) {
  return {index, ArgCondition::Test::kMaskedEquals, mask, value};
}
constexpr ArgCondition arg_not_equal(unsigned index, std::uint64_t value) {
  return {index, ArgCondition::Test::kNotEqual, ~std::uint64_t{0}, value};
}

struct SyscallDecision {
  std::string_view name;  // the kernel's name, as libseccomp resolves it ("mmap", "clone3")
  SeccompAction action = SeccompAction::kKillProcess;
  // For kAllow: the call is allowed only when every condition holds (at most one per argument,
  // as libseccomp requires) and falls to the default otherwise; empty means always. The span
  // points at a constant table with static storage.
  std::span<const ArgCondition> only_if;
  std::string_view reason;  // one line: why this decision
};

// The calls the confined worker may make. Everything else gets the default action. The JIT
// profile's list is the interpreter's plus two rows: mmap (with the same flag rule) and mprotect
// also when the protection lacks PROT_WRITE, so JIT code can be made executable, never writable
// and executable at once.
std::span<const SyscallDecision> worker_allowed_syscalls(
    EngineProfile engine = EngineProfile::kInterpreter);
// Calls that are denied on purpose, each with its reason: the notable part of "everything else".
// They document the default action rather than add rules; each row has a death test.
std::span<const SyscallDecision> worker_denied_syscalls();

// The call's number on this architecture; nullopt when libseccomp does not know the name or the
// call does not exist here (e.g. "open" on arm64).
std::optional<int> syscall_number(std::string_view name);

class SeccompProgram;

// A built, not yet loaded, filter context. Move-only; releases the libseccomp context.
class SeccompFilter {
 public:
  SeccompFilter(SeccompFilter&&) noexcept = default;
  SeccompFilter& operator=(SeccompFilter&&) noexcept = default;
  ~SeccompFilter() = default;

 private:
  friend Result<SeccompFilter> prepare_seccomp_filter(std::span<const SyscallDecision>,
                                                      std::span<const SyscallDecision>);
  friend Result<SeccompProgram> compile_seccomp_filter(const SeccompFilter& filter);
  struct ContextReleaser {
    void operator()(void* context) const;
  };
  explicit SeccompFilter(void* context) : context_(context) {}
  std::unique_ptr<void, ContextReleaser> context_;
};

// The filter compiled to the kernel's BPF instructions. libseccomp builds and compiles the policy
// once, where a fork server prepares (before any child exists); each worker then loads the same
// instructions with one system call instead of building and compiling the policy again
// (docs/performance.md). Move-only bytes, no kernel type in this header.
class SeccompProgram {
 public:
  SeccompProgram(SeccompProgram&&) noexcept = default;
  SeccompProgram& operator=(SeccompProgram&&) noexcept = default;
  ~SeccompProgram() = default;

  std::size_t instruction_count() const;

 private:
  friend Result<SeccompProgram> compile_seccomp_filter(const SeccompFilter& filter);
  friend Status apply_seccomp_program(const SeccompProgram& program);
  explicit SeccompProgram(std::vector<unsigned char> instructions)
      : instructions_(std::move(instructions)) {}
  std::vector<unsigned char> instructions_;  // struct sock_filter, one after another
};

// Builds a filter with default action kill-process, foreign-architecture calls killed too, and
// TSYNC so loading it covers every thread. Errors (UNSUPPORTED_PROFILE): "seccomp_unavailable"
// when the kernel lacks seccomp filters, TSYNC or SECCOMP_RET_KILL_PROCESS; "seccomp_policy" when
// a row names an unknown call, or allows a call absent on this architecture, or cannot be added.
[[nodiscard]] Result<SeccompFilter> prepare_seccomp_filter(std::span<const SyscallDecision> allowed,
                                                           std::span<const SyscallDecision> denied);
[[nodiscard]] Result<SeccompFilter> prepare_worker_seccomp_filter(
    EngineProfile engine = EngineProfile::kInterpreter);

// The filter's BPF program as libseccomp would load it: its architecture check, rules and default
// action. Rule "seccomp_policy" when it cannot be exported (no memfd, or an empty or malformed
// program).
[[nodiscard]] Result<SeccompProgram> compile_seccomp_filter(const SeccompFilter& filter);
// prepare_worker_seccomp_filter, compiled.
[[nodiscard]] Result<SeccompProgram> compile_worker_seccomp_program(
    EngineProfile engine = EngineProfile::kInterpreter);

// Loads the program into the calling process, all threads at once (SECCOMP_FILTER_FLAG_TSYNC, the
// filter's attribute). Rule "seccomp_load" on failure (e.g. a thread already has a different
// filter, or the program is empty). Irreversible. REQUIRES: no_new_privs set or CAP_SYS_ADMIN;
// every thread the worker will ever have already exists.
[[nodiscard]] Status apply_seccomp_program(const SeccompProgram& program);

}  // namespace codemode::confine

#endif  // CODEMODE_CONFINE_SECCOMP_POLICY_H_
