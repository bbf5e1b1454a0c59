// The process adapter ("codemode.process", production): runs each program in a fresh
// codemode-worker process, confined before the program starts (seccomp allow-list, rlimits, no
// new privileges, empty environment, no fds but its pipes), and relays its tool calls to the
// executor's ToolBridge. The worker is never reused: every execution gets a new process, and the
// process is killed and reaped however the execution ends.
//
//   auto mode = CodeMode::create({.adapter = make_process_adapter(),
//                                 .invoke_tool = standard_broker({...})}).value();
//
// What it reports (SandboxResult reasons and faults; the executor maps them to codes and rules,
// code_mode.h):
//   unsupported_program  any approved import; no worker is started (TypeScript runs with its
//                        types erased, docs/programs.md)
//   cpu_limit, memory_limit, invalid_output, program_error   as the worker reports them
//                        (cpu_limit also when the worker died with its CPU time, as wait4
//                        reports it, at the RLIMIT_CPU backstop, within a second; never from
//                        an exit status or a signal alone)
//   sandbox_error with a fault:
//     worker_start_failed    the worker could not be started, or ended before confirming its
//                            confinement
//     worker_protocol_error  it broke the wire protocol (docs/protocol.md); it is killed at once
//     worker_exited          it died (a crash, the seccomp filter's SIGSYS) or exited before its
//                            result
//   sandbox_error without a fault: the worker reported that it failed, the parent's own I/O
//                        failed, or the caller's stop killed the worker (the executor then
//                        reports the timeout or cancellation)
// Its stderr is drained and discarded, never capped into a failure: only counted, up to 64 KiB
// (SandboxResult::diagnostics). Nothing a worker writes (stderr, a malformed frame) ever reaches
// an error message.
//
// Ownership and thread-safety: make_process_adapter returns a shared adapter; execute may run on
// many threads at once, one worker process per execution.
#ifndef CODEMODE_PROCESS_ADAPTER_H_
#define CODEMODE_PROCESS_ADAPTER_H_

#include <cstdint>
#include <memory>
#include <string>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/sandbox.h"

namespace codemode {

// How each execution's fresh worker process comes to exist. Either way it is a new process that
// runs one program, confines itself before compiling it, and is killed and reaped at the end.
enum class SpawnMode {
  // One fork server per adapter (`codemode-worker --fork-server`, started at the first execution,
  // killed and reaped when the adapter is destroyed) holds a fully initialised engine and forks a
  // child per execution: about a millisecond or two. Every child shares the server's
  // address-space layout. If the server dies, the execution whose worker it was starting fails
  // (sandbox_error, worker_start_failed) and the next one starts a new server; workers already
  // running do not depend on it and finish.
  kForkServer,
  // codemode-worker is executed for every execution: a few milliseconds more, and each execution
  // gets its own address-space layout (ASLR per execution).
  kExec,
};

// Which operating-system confinement the worker gets on top of the engine's limits, the process
// limits and the seccomp allow-list that every profile has (docs/security.md).
enum class IsolationProfile {
  kProcess,  // id "codemode.process"
  // id "codemode.isolated": also new user, pid, network, mount, IPC and UTS namespaces and an empty
  // root, so an escaped worker sees no file, no network interface but a down loopback, and no
  // other process. is_available() is false where the kernel refuses these namespaces; the
  // executor then fails UNSUPPORTED_PROFILE and never runs the program with less.
  kIsolated,
};

// How the worker's JavaScript engine executes the program. The default is the hardened one; the
// JIT is an explicit, weaker opt-in for compute-heavy programs (docs/security.md "JIT profile").
enum class EngineProfile {
  // SpiderMonkey's interpreter only: the JIT backend is disabled process-wide, and the seccomp
  // filter kills any mapping or protection change that asks for PROT_EXEC.
  kInterpreter,
  // id suffix ".jit": the Baseline and Ion JIT compilers are on (on the engine thread; Wasm,
  // asm.js and the regular-expression JIT stay off), so the filter must let mmap and mprotect
  // make memory executable, though never writable and executable at once (W^X). Every other
  // layer is the same as kInterpreter's. Weaker: JIT compiler bugs are most of SpiderMonkey's
  // published exploits, and SpiderMonkey 102 no longer gets fixes. Loops in JavaScript run 15 to
  // 33 times faster in the bench, JSON-heavy work 1.5 times, a trivial program no faster
  // (docs/performance.md "JIT profile"); recursion goes deeper.
  kJit,
};

// The engine's native stack quota (ProcessAdapterOptions::stack_bytes): bounds and default. The
// engine thread's own stack is 8 MiB, so the largest quota keeps a 2 MiB margin.
inline constexpr std::int64_t kMinEngineStackBytes = 64 << 10;
inline constexpr std::int64_t kMaxEngineStackBytes = 6 << 20;

struct ProcessAdapterOptions {
  // The codemode-worker binary. Empty: default_worker_path(). A relative path is made absolute
  // (against the current directory) when the adapter is made.
  std::string worker_path;
  SpawnMode spawn = SpawnMode::kForkServer;
  IsolationProfile isolation = IsolationProfile::kProcess;
  EngineProfile engine = EngineProfile::kInterpreter;
  // The engine's native stack quota: recursion that runs on the native stack (through natives;
  // in the JIT profile, every call) throws a catchable InternalError ("too much recursion") past
  // it. Plain interpreted calls keep their frames on the engine's heap and stop at its fixed cap
  // of 51,000 frames whatever this is (docs/limits.md, "Recursion"). kMinEngineStackBytes ..
  // kMaxEngineStackBytes; any other value makes the adapter unavailable (the executor fails
  // UNSUPPORTED_PROFILE).
  std::int64_t stack_bytes = kMaxEngineStackBytes;
};

// Where codemode-worker is looked for when ProcessAdapterOptions::worker_path is empty, found
// relative to the file holding libcodemode's code (libcodemode.so, or the executable it is linked
// into statically), never by a build-tree path: beside that file, else in the install's
// libexec/codemode/MAJOR.MINOR/ relative to it (docs/install.md). The first executable file of
// those; else the installed location, so an error names it; "" when this process cannot tell
// for certain where that file is (a library loaded through a relative path).
CODEMODE_EXPORT std::string default_worker_path();

// id "codemode.process" ("codemode.isolated" for IsolationProfile::kIsolated; either followed by
// ".jit" for EngineProfile::kJit, so whoever logs or checks the adapter id sees the weaker
// engine), version "1.0.0", qualification production. is_available() is true when the worker
// binary is an executable file, starts (`codemode-worker --probe` exits 0, so the loader found
// SpiderMonkey; with `--jit` for kJit, so a worker that does not know the flag is unavailable),
// and the kernel supports seccomp filters; for kIsolated also when `codemode-worker --probe
// --isolated`, started in the new namespaces, empties its root and finds itself pid 1. The answer
// is computed once per adapter and cached.
CODEMODE_EXPORT std::shared_ptr<SandboxAdapter> make_process_adapter(
    ProcessAdapterOptions options = {});

// Why the isolated profile cannot run here, for a host to tell its operator when an isolated
// adapter is not available: UNSUPPORTED_PROFILE, rule "sandbox_unavailable", whose message names
// what the kernel or its policy refuses (user namespaces switched off by user.max_user_namespaces
// or kernel.unprivileged_userns_clone, AppArmor's restriction, a seccomp filter such as a
// container's) and points to docs/security.md, "Enabling user namespaces". OK when the worker at
// `worker_path` (as ProcessAdapterOptions::worker_path; empty: the default) runs its isolated
// probe. Probes afresh on every call (a few milliseconds), with no privilege.
CODEMODE_EXPORT Status check_isolated_profile(const std::string& worker_path = "");

}  // namespace codemode

#endif  // CODEMODE_PROCESS_ADAPTER_H_
