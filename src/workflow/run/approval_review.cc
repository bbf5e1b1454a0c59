#include "workflow/run/approval_review.h"

#include <utility>

namespace codemode::internal {

Json definition_document(const DurableWorkflow& workflow) {
  Json phases = Json::array();
  for (const DurableWorkflow::Phase& phase : workflow.phases()) {
    phases.push_back({{"id", phase.id},
                      {"tool", phase.tool.manifest()},
                      {"program", phase.program.manifest()},
                      {"source", phase.program.source()}});
  }
  return Json{{"manifest", workflow.manifest()}, {"phases", std::move(phases)}};
}

Result<ApprovalRequest> approval_request(const RunDocument& run, const PhaseRecord& phase,
                                         const Json& definition, const Json& binding) {
  const Error invalid = Error::storage_unavailable(
      "workflow_definition", "A stored workflow definition does not describe the run.");
  if (!phase.approval || !phase.input || !definition.is_object() ||
      !definition.contains("phases") || !definition.at("phases").is_array()) {
    return invalid;
  }
  try {
    for (const Json& stored : definition.at("phases")) {
      if (stored.at("id") != phase.id) continue;
      const Json& tool = stored.at("tool");
      const Json& program = stored.at("program");
      auto effects = tool_effects_from_string(tool.at("effects").get<std::string>());
      if (!effects) return invalid;
      return ApprovalRequest{.run_id = run.run_id,
                             .phase_id = phase.id,
                             .digest = phase.approval->digest,
                             .expires_at_millis = phase.approval->expires_at_millis,
                             .tool_id = tool.at("id").get<std::string>(),
                             .program_digest = tool.at("version").get<std::string>(),
                             .program_id = program.at("id").get<std::string>(),
                             .intent = program.at("intent").get<std::string>(),
                             .source = stored.at("source").get<std::string>(),
                             .input = *phase.input,
                             .tools = program.at("tools"),
                             .effects = *effects,
                             .limits = program.at("limits"),
                             .cost_micros = tool.at("costMicros").get<std::int64_t>(),
                             // null for a request issued before approvals bound it
                             .binding = binding.is_object() ? binding : Json()};
    }
  } catch (const Json::exception&) {
  }
  return invalid;
}

}  // namespace codemode::internal

namespace codemode {

Json to_json(const ApprovalRequest& request) {
  return Json{{"runId", request.run_id},         {"phaseId", request.phase_id},
              {"digest", request.digest},        {"expiresAt", request.expires_at_millis},
              {"toolId", request.tool_id},       {"programDigest", request.program_digest},
              {"programId", request.program_id}, {"intent", request.intent},
              {"source", request.source},        {"input", request.input},
              {"tools", request.tools},          {"effects", to_string(request.effects)},
              {"limits", request.limits},        {"costMicros", request.cost_micros},
              {"binding", request.binding}};
}

}  // namespace codemode
