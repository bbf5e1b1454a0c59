#include "mcp/code_tool/diagnostics_log.h"

#include <cstdio>

#include "mcp/catalog/tool_results.h"

namespace codemode::mcp {

void log_to_stderr(const Json& event) {
  const std::string line = json_text(event) + "\n";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

std::optional<Json> worker_diagnostics_event(const std::string& execution_id,
                                             const std::string& sandbox,
                                             const CodeExecutionOutcome& outcome) {
  const WorkerDiagnostics& diagnostics = outcome.diagnostics;
  if (diagnostics.diagnostic_bytes == 0 && !diagnostics.diagnostics_truncated) return std::nullopt;
  Json event{{"event", "code_worker_diagnostics"},
             {"execution", execution_id},
             {"sandbox", sandbox},
             {"status", to_string(outcome.status)}};
  if (outcome.error) event["rule"] = outcome.error->rule;
  event["diagnosticBytes"] = diagnostics.diagnostic_bytes;
  event["diagnosticsTruncated"] = diagnostics.diagnostics_truncated;
  return event;
}

}  // namespace codemode::mcp
