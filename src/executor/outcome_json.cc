// The JSON form of an execution's outcome (code_mode.h: to_json).
#include "codemode/code_mode.h"

namespace codemode {
namespace {

Json usage_json(const CodeExecutionUsage& usage) {
  return Json{{"toolCalls", usage.tool_calls},
              {"unknownCalls", usage.unknown_calls},
              {"knownCostMicros", usage.known_cost_micros},
              {"unknownCostMicros", usage.unknown_cost_micros},
              {"maximumCostMicros", usage.maximum_cost_micros}};
}

Json evidence_json(const std::vector<ExecutionEvidence>& evidence) {
  Json entries = Json::array();
  for (const ExecutionEvidence& entry : evidence) {
    entries.push_back({{"runId", entry.run_id},
                       {"receipt",
                        {{"callId", entry.receipt.call_id},
                         {"toolId", entry.receipt.tool_id},
                         {"execution", to_string(entry.receipt.execution)},
                         {"disclosure", to_string(entry.receipt.disclosure)}}}});
  }
  return entries;
}

}  // namespace

Json to_json(const CodeExecutionOutcome& outcome) {
  Json json{{"status", to_string(outcome.status)}};
  if (outcome.output) json["output"] = *outcome.output;
  if (outcome.error) {
    json["error"] = {{"code", to_string(outcome.error->code)},
                     {"rule", outcome.error->rule},
                     {"message", outcome.error->message}};
  }
  if (outcome.program_error) {
    json["programError"] = {{"name", outcome.program_error->name},
                            {"message", outcome.program_error->message}};
    if (const auto& location = outcome.program_error->location) {
      json["programError"]["line"] = location->line;
      json["programError"]["column"] = location->column;
      json["programError"]["sourceLine"] = location->source_line;
    }
  }
  if (outcome.logs) {
    json["logs"] = outcome.logs->lines;
    if (outcome.logs->dropped > 0) json["logsDropped"] = outcome.logs->dropped;
  }
  json["usage"] = usage_json(outcome.usage);
  if (!outcome.evidence.empty()) json["evidence"] = evidence_json(outcome.evidence);
  return json;
}

}  // namespace codemode
