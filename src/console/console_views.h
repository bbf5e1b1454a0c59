// What the approvals console's page reads, as JSON built from WorkflowRuntime's public views
// (docs/console.md, "API"). Nothing here changes a run.
#ifndef CODEMODE_CONSOLE_CONSOLE_VIEWS_H_
#define CODEMODE_CONSOLE_CONSOLE_VIEWS_H_

#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/workflow_runtime.h"

namespace codemode::console {

// Only runs of the workflow `workflow_id` are shown: the console vouches for its approvers only.

// {"runs": [...]}: the workflow's runs (to_json(RunView)), each with "pendingPhases" (the ids of
// its phases awaiting approval); runs waiting for approval first, then newest first.
Result<Json> runs_view(WorkflowRuntime& runtime, std::string_view workflow_id);

// {"run": to_json(RunView), "pending": [to_json(ApprovalRequest)...],
//  "audits": {phaseId: audit record or null}} for every phase that ran or may have. NOT_FOUND
// (rule "run") for a run of another workflow.
Result<Json> run_view(WorkflowRuntime& runtime, std::string_view workflow_id,
                      std::string_view run_id);

// NOT_FOUND (rule "run") unless `run_id` is a run of the workflow `workflow_id`.
Status check_workflow(WorkflowRuntime& runtime, std::string_view workflow_id,
                      std::string_view run_id);

// A digest of everything runs_view and the open requests show: it changes when the page should
// refresh.
Result<std::string> state_fingerprint(WorkflowRuntime& runtime, std::string_view workflow_id);

// The HTTP status for a refused operation's code (400, 403, 404, 409, 503, 500).
int http_status(ErrorCode code);

}  // namespace codemode::console

#endif  // CODEMODE_CONSOLE_CONSOLE_VIEWS_H_
