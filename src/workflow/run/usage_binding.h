// The usage binding check: the usage an execution reports must be what its evidence and the
// approved program's declared tool costs say, or the phase's outcome is unknown.
#ifndef CODEMODE_WORKFLOW_RUN_USAGE_BINDING_H_
#define CODEMODE_WORKFLOW_RUN_USAGE_BINDING_H_

#include "codemode/code_mode.h"
#include "codemode/error.h"
#include "codemode/program.h"

namespace codemode::internal {

// OK when the outcome's usage is bound to `program`: every receipt names one of its tools,
// maximumCostMicros equals `phase_cost`, toolCalls <= maxToolCalls, knownCostMicros equals the
// declared cost of the settled receipts, and unknownCalls and unknownCostMicros are at least what
// the unknown receipts say. OUTCOME_UNKNOWN (rule "usage_binding", "Code Mode usage could not be
// bound to the approved program.") otherwise.
Status check_usage_binding(const CodeProgram& program, std::int64_t phase_cost,
                           const CodeExecutionOutcome& outcome);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_USAGE_BINDING_H_
