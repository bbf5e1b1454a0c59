// Resolving a WorkflowBinding (codemode/workflow.h) against a run's values.
#ifndef CODEMODE_WORKFLOW_DEFINITION_WORKFLOW_BINDING_H_
#define CODEMODE_WORKFLOW_DEFINITION_WORKFLOW_BINDING_H_

#include <map>
#include <string>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/workflow.h"

namespace codemode::internal {

// The most steps one binding path may have, and the longest key.
inline constexpr std::size_t kMaxBindingSteps = 32;
inline constexpr std::size_t kMaxBindingKeyBytes = 256;

// The value `binding` names: the workflow input or a phase output from `phase_outputs`, then its
// path. INVALID_INPUT (rule "binding_path") when a step names no member or element, or the phase
// has no output.
Result<Json> resolve_binding(const WorkflowBinding& binding, const Json& workflow_input,
                             const std::map<std::string, Json, std::less<>>& phase_outputs);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_DEFINITION_WORKFLOW_BINDING_H_
