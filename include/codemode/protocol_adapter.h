// The protocol adapter: runs each program in a codemode-worker that the host starts itself,
// wherever it likes (under bubblewrap or nsjail, over ssh on another machine, through
// `kubectl exec`), and speaks codemode's frames (docs/protocol.md) with it over the launched
// command's stdin and stdout. Every frame is checked as the process adapter checks its own
// worker's, and the worker must confirm its confinement layers before it gets the program.
//
//   ProtocolAdapterOptions options;
//   options.id = "acme.bwrap";
//   options.launch = {"/usr/bin/bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/",
//                     "/", "/usr/libexec/codemode-worker"};
//   std::shared_ptr<SandboxAdapter> adapter = make_protocol_adapter(options).value();
//   // Qualified for tests unless the host says production (below): CodeMode::create then needs
//   // allow_test_adapter.
//
// Each execution:
//   - executes launch[0] (an absolute path; there is no PATH lookup) with argv `launch`, the
//     environment `environment` and nothing else (no variable is inherited), fds 0, 1 and 2 on
//     pipes, every other fd closed, as the leader of a new process group;
//   - every "{sandbox}" in an argument of `launch` or `terminate` becomes the execution's own
//     name, "codemode-" and 32 random hex digits, so a launch can name what it creates (a
//     container, a pod) and `terminate` can remove it;
//   - however it ends (result, failure, timeout, cancellation, a launch that failed), the
//     command's process group is killed with SIGKILL and reaped, then `terminate`, if given, runs
//     once (same environment, output discarded, killed after 10 s or 64 KiB of output) before
//     execute returns: killing a local client (docker, ssh, kubectl) does not stop what it
//     started elsewhere.
//     A process that leaves the group (setsid, as `bwrap --new-session` does for the sandboxed
//     child) is not reached by that kill: the launch must end its own children when it dies
//     (`bwrap --die-with-parent`), or `terminate` must.
//
// What it reports is the process adapter's (process_adapter.h), with one difference: the process
// codemode reaps is the launch command, not the worker, so its CPU time need not be the
// program's, and a worker that dies at its CPU backstop may be reported worker_exited rather than
// cpu_limit (a worker's own cpu_limit result is reported as such). Nothing the command writes on
// stderr ever reaches an error message; it is counted as the worker's (SandboxResult::diagnostics),
// so a launch command's own messages (docker's, ssh's) count too.
//
// Qualification (docs/security.md, "Choosing a sandbox"): kTest unless the host sets kProduction,
// which it should do only for a launch whose isolation it has documented and tested.
//
// Ownership and thread-safety: make_protocol_adapter returns a shared adapter; execute may run on
// many threads at once, one launched command per execution.
#ifndef CODEMODE_PROTOCOL_ADAPTER_H_
#define CODEMODE_PROTOCOL_ADAPTER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/process_adapter.h"
#include "codemode/sandbox.h"

namespace codemode {

struct ProtocolAdapterOptions {
  // The adapter's id (^[A-Za-z][A-Za-z0-9._/-]{0,127}$) and version (1..128 characters).
  std::string id;
  std::string version = "1.0.0";
  AdapterQualification qualification = AdapterQualification::kTest;
  // The command that starts a worker speaking codemode's frames on its stdin and stdout: 1..256
  // arguments of at most 4096 bytes, without NUL; launch[0] absolute.
  std::vector<std::string> launch;
  // Runs after each execution's command has been killed and reaped; empty: none. Same rules as
  // `launch`.
  std::vector<std::string> terminate;
  // "NAME=value" entries (NAME: ^[A-Za-z_][A-Za-z0-9_]{0,127}$), at most 256; nothing else is
  // passed on.
  std::vector<std::string> environment;
  // Which of the worker's own profiles the launched worker runs (its flags, --isolated and --jit,
  // are the launch command's to pass): its confined frame must name exactly that profile's layers.
  IsolationProfile isolation = IsolationProfile::kProcess;
  EngineProfile engine = EngineProfile::kInterpreter;
  // The engine's stack quota, sent in the start frame: kMinEngineStackBytes..kMaxEngineStackBytes.
  std::int64_t stack_bytes = kMaxEngineStackBytes;
  // Asked before every execution (the executor fails UNSUPPORTED_PROFILE when it answers false).
  // Empty: available when launch[0] is an executable file. Called on the executing thread; must
  // be thread-safe and must not throw.
  std::function<bool()> is_available;
};

// INVALID_CONFIG, rule "protocol_adapter_options", with a message naming the field, when an
// option breaks its rule.
CODEMODE_EXPORT Result<std::shared_ptr<SandboxAdapter>> make_protocol_adapter(
    ProtocolAdapterOptions options);

}  // namespace codemode

#endif  // CODEMODE_PROTOCOL_ADAPTER_H_
