#include "workflow/definition/phase_binding.h"

#include <utility>

#include "workflow/definition/bound_file.h"
#include "workflow/definition/hash_material.h"

namespace codemode::internal {
namespace {

Result<Json> tool_binding(const Tool& tool) {
  Json files = Json::array();
  for (const std::string& path : tool.binding().files) {
    Result<std::string> content = bound_file_state(path);
    if (!content.ok()) return std::move(content).error();
    files.push_back({{"path", path}, {"content", std::move(*content)}});
  }
  return Json{{"id", tool.id()},
              {"version", tool.version()},
              {"inputSchema", tool.input_schema().document()},
              {"outputSchema", tool.output_schema().document()},
              {"timeoutMs", tool.timeout().count()},
              {"runs", tool.binding().description},
              {"files", std::move(files)}};
}

}  // namespace

Result<PhaseBinding> phase_binding(const DurableWorkflow::Phase& phase) {
  const CodeProgram& program = phase.program;
  Json tools = Json::array();
  for (const Tool& tool : program.tools()) {
    Result<Json> bound = tool_binding(tool);
    if (!bound.ok()) return std::move(bound).error();
    tools.push_back(std::move(*bound));
  }
  Json material{{"format", 1},
                {"inputSchema", program.input_schema().document()},
                {"outputSchema", program.output_schema().document()},
                {"tools", std::move(tools)}};
  Result<std::string> digest = hash_material_digest(kPhaseBindingDomain, material);
  if (!digest.ok()) return std::move(digest).error();
  return PhaseBinding{.material = std::move(material), .digest = std::move(*digest)};
}

}  // namespace codemode::internal
