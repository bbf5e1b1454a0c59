// The WorkflowRuntime `codemode workflow` runs: the workflow file's definition, scope and budget,
// the store named by --store, the process sandbox (or --sandbox FILE's), the local-account
// approver, and grants for exactly the workflow's phase tools and their nested tools.
#ifndef CODEMODE_CLI_WORKFLOW_WORKFLOW_HOST_H_
#define CODEMODE_CLI_WORKFLOW_WORKFLOW_HOST_H_

#include <memory>
#include <optional>
#include <string>

#include "codemode/process_adapter.h"
#include "codemode/workflow_runtime.h"

#include "cli/workflow/workflow_file.h"

namespace codemode::cli {

struct WorkflowHostOptions {
  std::string store_url;
  std::optional<std::string> worker_path;
  IsolationProfile isolation = IsolationProfile::kProcess;
  // SANDBOX.json (cli/json_file.h load_sandbox_file): where phases run instead of the process
  // adapter with `isolation`, e.g. in Docker.
  std::optional<std::string> sandbox_path;
};

Result<std::unique_ptr<WorkflowRuntime>> make_workflow_runtime(const WorkflowFile& file,
                                                               const WorkflowHostOptions& options);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_WORKFLOW_WORKFLOW_HOST_H_
