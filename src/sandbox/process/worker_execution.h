// The steps every adapter that runs programs in a codemode-worker shares, whoever starts the
// worker (the process adapter's exec or fork-server launcher, the protocol adapter's host
// command): refuse what the worker cannot run, start nothing once stopped, then one WorkerSession
// from the start frame to the result.
#ifndef CODEMODE_SANDBOX_PROCESS_WORKER_EXECUTION_H_
#define CODEMODE_SANDBOX_PROCESS_WORKER_EXECUTION_H_

#include <cstdint>
#include <functional>
#include <span>
#include <stop_token>
#include <string_view>

#include "codemode/error.h"
#include "codemode/sandbox.h"

#include "sandbox/process/worker_process.h"

namespace codemode::internal {

// Whether the worker runs `program`: JavaScript or TypeScript, without approved imports.
bool runs_in_worker(const CodeProgram& program);

// One execution: unsupported_program for a program the worker cannot run; sandbox_error without
// a fault when `stop` was requested already (the executor reports the timeout or cancellation);
// worker_start_failed when `launch` fails; otherwise what the WorkerSession over the launched
// worker reports (worker_session.h). The worker must confirm exactly `layers`; `stack_bytes`
// goes in its start frame. The worker is killed and reaped before this returns.
SandboxResult execute_in_worker(const SandboxRequest& request, ToolBridge& tools,
                                std::stop_token stop,
                                const std::function<Result<WorkerProcess>()>& launch,
                                std::span<const std::string_view> layers, std::int64_t stack_bytes);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_WORKER_EXECUTION_H_
