#include "console/console_views.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "codemode/phase_audit.h"

namespace codemode::console {
namespace {

constexpr std::size_t kMaxRunsShown = 200;

// Phases that ran, or may have: their audit record is worth showing (or its absence).
bool has_executed(PhaseState state) {
  return state == PhaseState::kRunning || state == PhaseState::kSucceeded ||
         state == PhaseState::kFailed || state == PhaseState::kOutcomeUnknown ||
         state == PhaseState::kBlocked;
}

}  // namespace

Error not_this_workflows() {
  return Error::not_found("run", "No run of this console's workflow has that id.");
}

Result<Json> runs_view(WorkflowRuntime& runtime, std::string_view workflow_id) {
  Result<std::vector<RunView>> runs = runtime.list(kMaxRunsShown);
  if (!runs.ok()) return std::move(runs).error();
  std::erase_if(*runs, [&](const RunView& run) { return run.workflow_id != workflow_id; });
  std::stable_sort(runs->begin(), runs->end(), [](const RunView& a, const RunView& b) {
    return (a.status == RunStatus::kWaiting) > (b.status == RunStatus::kWaiting);
  });
  Json list = Json::array();
  for (const RunView& run : *runs) {
    Json json = to_json(run);
    Json pending = Json::array();
    for (const PhaseView& phase : run.phases) {
      if (phase.state == PhaseState::kAwaitingApproval) pending.push_back(phase.phase_id);
    }
    json["pendingPhases"] = std::move(pending);
    list.push_back(std::move(json));
  }
  return Json{{"runs", std::move(list)}};
}

Status check_workflow(WorkflowRuntime& runtime, std::string_view workflow_id,
                      std::string_view run_id) {
  Result<RunView> run = runtime.status(run_id);
  if (!run.ok()) return std::move(run).error();
  if (run->workflow_id != workflow_id) return not_this_workflows();
  return Status();
}

Result<Json> run_view(WorkflowRuntime& runtime, std::string_view workflow_id,
                      std::string_view run_id) {
  Result<RunView> run = runtime.status(run_id);
  if (!run.ok()) return std::move(run).error();
  if (run->workflow_id != workflow_id) return not_this_workflows();
  Result<std::vector<ApprovalRequest>> pending = runtime.pending(run_id);
  if (!pending.ok()) return std::move(pending).error();
  Json requests = Json::array();
  for (const ApprovalRequest& request : *pending) requests.push_back(to_json(request));
  Json audits = Json::object();
  for (const PhaseView& phase : run->phases) {
    if (!has_executed(phase.state)) continue;
    Result<std::optional<PhaseAudit>> audit = runtime.inspect(run_id, phase.phase_id);
    if (!audit.ok()) return std::move(audit).error();
    if (!audit->has_value()) {
      audits[phase.phase_id] = nullptr;
      continue;
    }
    Result<Json> record = to_json(**audit);
    if (!record.ok()) return std::move(record).error();
    audits[phase.phase_id] = std::move(*record);
  }
  return Json{
      {"run", to_json(*run)}, {"pending", std::move(requests)}, {"audits", std::move(audits)}};
}

Result<std::string> state_fingerprint(WorkflowRuntime& runtime, std::string_view workflow_id) {
  Result<Json> runs = runs_view(runtime, workflow_id);
  if (!runs.ok()) return std::move(runs).error();
  // The open requests' digests too: a reissued request changes nothing else a run shows.
  std::string material = runs->dump();
  for (const Json& run : runs->at("runs")) {
    if (run.at("pendingPhases").empty()) continue;
    Result<std::vector<ApprovalRequest>> pending =
        runtime.pending(run.at("runId").get<std::string>());
    if (!pending.ok()) return std::move(pending).error();
    for (const ApprovalRequest& request : *pending) material += "\n" + request.digest;
  }
  return sha256_hex(material);
}

int http_status(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidInput:
    case ErrorCode::kInvalidConfig:
    case ErrorCode::kInvalidJson:
      return 400;
    case ErrorCode::kPermissionDenied:
      return 403;
    case ErrorCode::kNotFound:
      return 404;
    case ErrorCode::kConflict:
      return 409;
    case ErrorCode::kStorageUnavailable:
      return 503;
    default:
      return 500;
  }
}

}  // namespace codemode::console
