// `codemode workflow`: durable code workflows from the command line. Every command names the
// WORKFLOW.json it works on (workflow_file.h: the definition, whose runs they are, who may
// approve) and the store (--store, default sqlite:codemode-workflows.db in the current
// directory), and prints one JSON line on stdout:
//   start WORKFLOW --input JSON      stores a run; its first phases wait for approval
//   list WORKFLOW                    the runs of the workflow's scope, newest first
//   status WORKFLOW RUN              one run: status, output, ledger, phases
//   pending WORKFLOW [RUN]           each phase waiting for approval, with what to review
//   approve WORKFLOW RUN PHASE DIGEST --as NAME [--key FILE]
//   reject WORKFLOW RUN PHASE DIGEST --as NAME [--key FILE]
//   inspect WORKFLOW RUN PHASE       the phase's audit record
//   worker WORKFLOW [--once]         executes approved phases (and recovers lapsed claims) until
//                                    stopped, through failures (WorkflowRuntime::work)
//   console WORKFLOW [--listen HOST:PORT] [--work] [--key FILE]
//                                    the approvals console: a web page to review and decide
//                                    (workflow_console.h)
// Exit status: 0 done, 1 refused (the error as one JSON line on stderr), 2 usage error.
#ifndef CODEMODE_CLI_WORKFLOW_WORKFLOW_SUBCOMMAND_H_
#define CODEMODE_CLI_WORKFLOW_WORKFLOW_SUBCOMMAND_H_

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "codemode/workflow_runtime.h"

#include "cli/workflow/workflow_host.h"

namespace codemode::cli {

// The subcommands above.
enum class WorkflowCommand {
  kStart,
  kList,
  kStatus,
  kPending,
  kApprove,
  kReject,
  kInspect,
  kWorker,
  kConsole,
};

struct WorkflowArguments {
  WorkflowCommand command = WorkflowCommand::kStart;  // the one given (parsing requires one)
  std::string workflow_path;
  WorkflowHostOptions host{.store_url = "sqlite:codemode-workflows.db"};
  std::optional<std::string> input_json;
  std::optional<std::string> input_file;
  std::string run_id;
  std::string phase_id;
  std::string digest;
  std::optional<std::string> approver;  // --as; else CODEMODE_APPROVER
  std::optional<std::string> key_path;  // --key: the approver's private key, to sign decisions
  bool once = false;
  int poll_millis = 500;
  std::string listen = "127.0.0.1:8809";  // console
  bool work = false;                      // console: also execute approved phases
  std::string public_origin;              // console: its origin behind a TLS proxy
};

CLI::App* add_workflow_subcommand(CLI::App& app, WorkflowArguments& arguments);

int run_workflow_command(const WorkflowArguments& arguments);

// One line of JSON on stderr for what the worker loop reports:
//   {"event":"workflow_worker_failing","error":{"code","rule","message"},"retryInMillis":N}
//   {"event":"workflow_worker_recovered","failedPasses":N,"failingMillis":M}
void log_worker_event(const WorkerEvent& event);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_WORKFLOW_WORKFLOW_SUBCOMMAND_H_
