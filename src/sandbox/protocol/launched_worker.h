// One execution in a worker that a host command starts (the protocol adapter's launch, the Docker
// adapter's `docker run`): the command's process group is killed and reaped however the
// execution ends, then the terminate command, if any, removes what the launch made elsewhere.
#ifndef CODEMODE_SANDBOX_PROTOCOL_LAUNCHED_WORKER_H_
#define CODEMODE_SANDBOX_PROTOCOL_LAUNCHED_WORKER_H_

#include <cstdint>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/sandbox.h"

namespace codemode::internal {

struct WorkerCommands {
  // argv; launch[0] absolute (no PATH lookup).
  std::vector<std::string> launch;
  // Runs once after the launch command has been killed and reaped; empty: none. Its output is
  // discarded; it is killed after 10 s or 64 KiB of output.
  std::vector<std::string> terminate;
  // The whole environment of both commands ("NAME=value"); nothing is inherited.
  std::vector<std::string> environment;
};

// A fresh name for one execution's sandbox: "codemode-" and 32 random hex digits; empty when the
// kernel gave no randomness.
std::string new_sandbox_name();

// execute_in_worker (worker_execution.h) over a worker that `commands.launch` starts as the leader
// of its own process group; worker_start_failed when it cannot be started. `commands.terminate`
// runs before this returns, whatever happened.
SandboxResult execute_launched_worker(const SandboxRequest& request, ToolBridge& tools,
                                      std::stop_token stop, const WorkerCommands& commands,
                                      std::span<const std::string_view> layers,
                                      std::int64_t stack_bytes);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROTOCOL_LAUNCHED_WORKER_H_
