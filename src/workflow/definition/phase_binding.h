// What an approval binds of a phase beyond its program digest: everything else that decides what
// the phase does. The program digest covers the source, limits, tool manifests and the schemas'
// ids; the binding adds the program's input and output schemas by content, and for each tool its
// input and output schemas, its timeout, what it runs (ToolBinding::description) and the content
// of every file it names (ToolBinding::files, read now). docs/workflows.md, "What an approval
// binds".
#ifndef CODEMODE_WORKFLOW_DEFINITION_PHASE_BINDING_H_
#define CODEMODE_WORKFLOW_DEFINITION_PHASE_BINDING_H_

#include <string>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/workflow.h"

namespace codemode::internal {

struct PhaseBinding {
  // {format, inputSchema, outputSchema, tools:[{id, version, inputSchema, outputSchema,
  //  timeoutMs, runs, files:[{path, content}]}]}: shown to the person who approves.
  Json material;
  std::string digest;  // sha256 of the material under its own domain
};

// STORAGE_UNAVAILABLE (rule "tool_binding") when a file could not be read for a reason of the
// moment (bound_file.h); INVALID_CONFIG (rule "hash_material") when the material is not bounded
// JSON.
Result<PhaseBinding> phase_binding(const DurableWorkflow::Phase& phase);

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_DEFINITION_PHASE_BINDING_H_
