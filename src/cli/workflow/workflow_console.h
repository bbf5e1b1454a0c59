// `codemode workflow console WORKFLOW --listen HOST:PORT [--work]`: serves the approvals console
// (src/console, docs/console.md) over the workflow's store until SIGINT or SIGTERM. The person
// deciding is the account running the command, verified as `approve --as` verifies it (listed in
// the workflow's approvers). Prints one JSON line when it listens:
//   {"console": "http://HOST:PORT/", "login": "http://HOST:PORT/login?token=..."}
// The token is CODEMODE_CONSOLE_TOKEN when set (required for a non-loopback address), else a
// fresh random one.
#ifndef CODEMODE_CLI_WORKFLOW_WORKFLOW_CONSOLE_H_
#define CODEMODE_CLI_WORKFLOW_WORKFLOW_CONSOLE_H_

#include <memory>

#include "codemode/workflow_runtime.h"

#include "cli/workflow/workflow_file.h"
#include "cli/workflow/workflow_subcommand.h"

namespace codemode::cli {

// REQUIRES: http::block_stop_signals() ran before any thread started. Returns the exit status.
int serve_console(std::shared_ptr<WorkflowRuntime> runtime, const WorkflowFile& file,
                  const WorkflowArguments& arguments);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_WORKFLOW_WORKFLOW_CONSOLE_H_
