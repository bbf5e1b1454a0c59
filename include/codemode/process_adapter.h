// The process adapter ("codemode.process", production): runs each program in a fresh
// codemode-worker process, confined before the program starts (seccomp allow-list, rlimits, no
// new privileges, empty environment, no fds but its pipes), and relays its tool calls to the
// executor's ToolBridge. The worker is never reused: every execution gets a new process, and the
// process is killed and reaped however the execution ends.
//
//   auto mode = create_code_mode({.adapter = make_process_adapter(),
//                                 .invoke_tool = standard_broker({...})}).value();
//
// What it reports (SandboxResult reasons; the executor maps them to codes, code_mode.h):
//   unsupported_program  language "typescript" or any approved import; no worker is started
//   cpu_limit, memory_limit, invalid_output, program_error   as the worker reports them
//   sandbox_error        the worker could not start, failed to confirm its confinement, crashed
//                        (a seccomp kill included), broke the wire protocol (docs/protocol.md),
//                        wrote more than 64 KiB to stderr, or was killed on the caller's stop
// Nothing a worker writes (stderr, a malformed frame) ever reaches an error message.
//
// Ownership and thread-safety: make_process_adapter returns a shared adapter; execute may run on
// many threads at once, one worker process per execution.
#ifndef CODEMODE_PROCESS_ADAPTER_H_
#define CODEMODE_PROCESS_ADAPTER_H_

#include <memory>
#include <string>

#include "codemode/export.h"
#include "codemode/sandbox.h"

namespace codemode {

struct ProcessAdapterOptions {
  // The codemode-worker binary. Empty: default_worker_path(). A relative path is made absolute
  // (against the current directory) when the adapter is made.
  std::string worker_path;
};

// Where the build put codemode-worker: next to libcodemode.
CODEMODE_EXPORT std::string default_worker_path();

// id "codemode.process", version "1.0.0", qualification production. is_available() is true when
// the worker binary is an executable file, starts (`codemode-worker --probe` exits 0, so the loader
// found SpiderMonkey), and the kernel supports seccomp filters; the answer is computed once per
// adapter and cached.
CODEMODE_EXPORT std::shared_ptr<SandboxAdapter> make_process_adapter(
    ProcessAdapterOptions options = {});

}  // namespace codemode

#endif  // CODEMODE_PROCESS_ADAPTER_H_
