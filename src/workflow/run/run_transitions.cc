#include "workflow/run/run_transitions.h"

#include <algorithm>
#include <map>
#include <utility>

#include "workflow/definition/workflow_binding.h"
#include "workflow/run/approval.h"
#include "workflow/run/run_status.h"

namespace codemode::internal {
namespace {

std::map<std::string, Json, std::less<>> outputs_of(const RunDocument& run) {
  std::map<std::string, Json, std::less<>> outputs;
  for (const PhaseRecord& phase : run.phases) {
    if (phase.state == PhaseState::kSucceeded && phase.output) outputs[phase.id] = *phase.output;
  }
  return outputs;
}

bool dependencies_met(const RunDocument& run, const DurableWorkflow::Phase& definition) {
  return std::all_of(definition.depends_on.begin(), definition.depends_on.end(),
                     [&](const std::string& id) {
                       const PhaseRecord* dependency = run.find_phase(id);
                       return dependency != nullptr && dependency->state == PhaseState::kSucceeded;
                     });
}

// Ends the run as failed with `error` at `phase` (not run).
void fail_before_running(RunDocument& run, PhaseRecord& phase, Error error) {
  end_phase(run, phase, PhaseState::kFailed, std::move(error));
}

Status finish_run(RunDocument& run, const DurableWorkflow& workflow) {
  Result<Json> result = resolve_binding(workflow.result(), run.input, outputs_of(run));
  Status valid = result.ok() ? workflow.output_schema().validate(*result) : Status(result.error());
  if (!valid.ok()) {
    run.status = RunStatus::kFailed;
    run.error = Error::invalid_output("workflow_output",
                                      "The workflow result does not match its output schema.");
    return {};
  }
  run.status = RunStatus::kSucceeded;
  run.output = std::move(*result);
  return {};
}

}  // namespace

Status issue_approval(RunDocument& run, PhaseRecord& phase,
                      const DurableWorkflow::Phase& definition, const ApprovalPolicy& policy) {
  const std::int64_t expires_at = policy.now_millis + policy.ttl_millis;
  Result<std::string> binding = policy.binding_digest(definition);
  if (!binding.ok()) return std::move(binding).error();
  Result<std::string> digest = approval_digest(run.run_id, phase.id, definition.tool, *phase.input,
                                               policy.policy_hash, *binding, expires_at);
  if (!digest.ok()) return std::move(digest).error();
  phase.state = PhaseState::kAwaitingApproval;
  phase.approval = PhaseApproval{.tool_id = definition.tool.id(),
                                 .digest = std::move(*digest),
                                 .expires_at_millis = expires_at,
                                 .policy_hash = policy.policy_hash,
                                 .binding_digest = std::move(*binding),
                                 .decided_by = std::nullopt,
                                 .decided_at_millis = std::nullopt,
                                 .signature = std::nullopt};
  return {};
}

Status open_ready_phases(RunDocument& run, const DurableWorkflow& workflow,
                         const ApprovalPolicy& policy) {
  if (run.over()) return {};
  const auto outputs = outputs_of(run);
  for (PhaseRecord& phase : run.phases) {
    const DurableWorkflow::Phase* definition = workflow.find_phase(phase.id);
    if (phase.state != PhaseState::kNotReady || definition == nullptr ||
        !dependencies_met(run, *definition)) {
      continue;
    }
    Result<Json> input = resolve_binding(definition->input, run.input, outputs);
    if (!input.ok()) {
      fail_before_running(run, phase, std::move(input).error());
      return {};
    }
    if (Status valid = definition->program.input_schema().validate(*input); !valid.ok()) {
      fail_before_running(
          run, phase,
          Error::invalid_input("phase_input", "A phase input does not match its input schema."));
      return {};
    }
    phase.input = std::move(*input);
    if (Status issued = issue_approval(run, phase, *definition, policy); !issued.ok()) {
      return issued;
    }
  }
  bool all_succeeded = std::all_of(run.phases.begin(), run.phases.end(), [](const PhaseRecord& p) {
    return p.state == PhaseState::kSucceeded;
  });
  if (all_succeeded) return finish_run(run, workflow);
  refresh_status(run);
  return {};
}

void end_phase(RunDocument& run, PhaseRecord& phase, PhaseState state, Error error) {
  phase.state = state;
  phase.lease.reset();
  phase.error = error;
  for (PhaseRecord& other : run.phases) {
    if (other.state == PhaseState::kNotReady || other.state == PhaseState::kAwaitingApproval ||
        other.state == PhaseState::kApproved) {
      other.state = PhaseState::kWithdrawn;
    }
  }
  // A run already over keeps how it ended, unless this phase makes its effects unknown: then
  // the run is outcome_unknown, whatever it was.
  if (!run.over() || state == PhaseState::kOutcomeUnknown) {
    run.status = run_status_after(state);
    run.error = std::move(error);
    run.output.reset();
  }
}

void refresh_status(RunDocument& run) {
  if (run.over()) return;
  bool active = std::any_of(run.phases.begin(), run.phases.end(), [](const PhaseRecord& phase) {
    return phase.state == PhaseState::kApproved || phase.state == PhaseState::kRunning;
  });
  run.status = active ? RunStatus::kRunning : RunStatus::kWaiting;
}

std::string phase_call_id(const RunDocument& run, const PhaseRecord& phase) {
  return run.run_id + "/step:" + phase.id;
}

std::string phase_execution_id(const RunDocument& run, const PhaseRecord& phase) {
  return phase_call_id(run, phase) + ":sandbox";
}

}  // namespace codemode::internal
