#include "workflow/definition/phase_tool.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "codemode/workflow.h"

namespace codemode::internal {

ToolEffects strongest_effect(const CodeProgram& program) {
  ToolEffects strongest = ToolEffects::kNone;
  for (const Tool& tool : program.tools()) strongest = std::max(strongest, tool.effects());
  return strongest;
}

Result<Tool> make_phase_tool(const CodeProgram& program, std::string_view scope_digest) {
  if (program.limits().max_tool_calls > kMaxPhaseToolCalls) {
    return Error::limit_exceeded("phase_tool_calls",
                                 "Durable phases support at most 64 auditable nested calls.");
  }
  const std::string& digest = program.digest();
  std::vector<std::string> capabilities{"code:execute", "code:audit:v2",
                                        "code:audit-scope:" + std::string(scope_digest),
                                        "code:program:" + digest};
  return define_tool({
      .id = "code." + digest.substr(0, 32),
      .version = digest,
      .description = "Approved Code Mode phase: " + program.manifest().at("id").get<std::string>(),
      .input = program.input_schema(),
      .output = program.output_schema(),
      .effects = strongest_effect(program),
      .capabilities = std::move(capabilities),
      .cost_micros = program.maximum_cost_micros(),
      .timeout = std::chrono::milliseconds(program.limits().wall_time_millis),
      .execute = [](const Json&, const ToolContext&, ToolResponder respond) { respond.refuse(); },
  });
}

}  // namespace codemode::internal
