// The tool a durable phase is known by: derived from its program so that permissions, approvals
// and the ledger all refer to the exact program.
#ifndef CODEMODE_WORKFLOW_DEFINITION_PHASE_TOOL_H_
#define CODEMODE_WORKFLOW_DEFINITION_PHASE_TOOL_H_

#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/program.h"
#include "codemode/tool.h"

namespace codemode::internal {

// The strongest effect among the program's tools (none < read < write < host); none without tools.
ToolEffects strongest_effect(const CodeProgram& program);

// The phase tool of `program` under the audit scope `scope_digest` (codemode/workflow.h lists its
// fields). LIMIT_EXCEEDED (rule "phase_tool_calls") past 64 tool calls. Its execute refuses
// (not_started): a phase runs only inside a WorkflowRuntime, which records its approval,
// reservation, receipt and audit; the Tool exists for its identity and its grants.
Result<Tool> make_phase_tool(const CodeProgram& program, std::string_view scope_digest);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_DEFINITION_PHASE_TOOL_H_
