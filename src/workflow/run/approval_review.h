// What a person reviews before approving: the stored form of a workflow definition (every phase's
// program manifest and source), and the ApprovalRequest built from it and a run. Built from the
// store, not from the runtime's own definitions, so a process that lists pending approvals shows
// exactly what was stored for the run.
#ifndef CODEMODE_WORKFLOW_RUN_APPROVAL_REVIEW_H_
#define CODEMODE_WORKFLOW_RUN_APPROVAL_REVIEW_H_

#include <string>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/workflow.h"
#include "codemode/workflow_runtime.h"

#include "workflow/run/run_document.h"

namespace codemode::internal {

// {manifest, phases:[{id, tool (its manifest), program (its manifest), source}]}
Json definition_document(const DurableWorkflow& workflow);

// The request for `phase` (awaiting approval) of `run`, from the stored `definition` and the
// stored material of the phase binding its approval names. STORAGE_UNAVAILABLE (rule
// "workflow_definition") when the documents do not describe the phase.
Result<ApprovalRequest> approval_request(const RunDocument& run, const PhaseRecord& phase,
                                         const Json& definition, const Json& binding);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_APPROVAL_REVIEW_H_
