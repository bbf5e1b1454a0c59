// A phase from claim to completion. Each step that changes the run is its own commit, in this
// order, so that a runtime killed between any two leaves a run that says what is known:
//   claim (lease + reservation) -> execute -> audit -> receipt + ledger -> completion.
// A commit the store could not take leaves the phase unsettled (unsettled_phases.h): the steps
// after execute are committed on a later pass, and a claim in doubt is given back; the program is
// never run again.
#include "workflow/run/phase_runner.h"

#include <utility>

#include "codemode/permissions.h"

#include "workflow/audit/audit_log.h"
#include "workflow/run/approval.h"
#include "workflow/run/usage_binding.h"

namespace codemode::internal {
namespace {

Error phase_failed(ErrorCode code, std::string rule) {
  return Error::with_code(code, std::move(rule),
                          "Durable Code Mode phase failed; nested details are withheld.");
}

PhaseState state_of(OutcomeStatus status) {
  switch (status) {
    case OutcomeStatus::kBlocked:
      return PhaseState::kBlocked;
    case OutcomeStatus::kCancelled:
      return PhaseState::kCancelled;
    case OutcomeStatus::kOutcomeUnknown:
      return PhaseState::kOutcomeUnknown;
    default:
      return PhaseState::kFailed;
  }
}

// The scope, permission and budget checks before anything is reserved; the refusal, if any.
std::optional<Error> admission_refusal(const RuntimeCore& core, const RunDocument& run,
                                       const DurableWorkflow& workflow,
                                       const DurableWorkflow::Phase& phase) {
  if (run.scope_digest != core.scope_digest() ||
      workflow.audit_scope_digest() != core.scope_digest()) {
    return Error::permission_denied("audit_scope",
                                    "The phase's audit scope is not the runtime's scope.");
  }
  if (Status granted = check_permissions(phase.tool, core.options().permissions); !granted.ok()) {
    return granted.error();
  }
  const RunLedger& ledger = run.ledger;
  if (phase.tool.cost_micros() >
      ledger.max_cost_micros - ledger.spent_micros - ledger.reserved_micros) {
    return Error::budget_exceeded("budget_cost",
                                  "The run's budget cannot cover the phase's reservation.");
  }
  return std::nullopt;
}

// Claims the phase under the lease owner `claim_id`: lease and reservation in one commit, or a
// refusal that ends the run.
Result<std::optional<ClaimedPhase>> claim(const RuntimeCore& core, std::string_view run_id,
                                          std::string_view phase_id, const std::string& claim_id) {
  std::optional<ClaimedPhase> claimed;
  bool unknown_workflow = false;
  Result<RunDocument> updated = core.update(run_id, [&](RunDocument& run) -> Result<Change> {
    claimed.reset();
    PhaseRecord* phase = run.find_phase(phase_id);
    if (run.over() || phase == nullptr || phase->state != PhaseState::kApproved ||
        !phase->approval || phase->approval->policy_hash != core.policy_hash() || !phase->input) {
      return Change::kKeep;
    }
    const DurableWorkflow* workflow = core.workflow(run.workflow_digest);
    const DurableWorkflow::Phase* definition =
        workflow == nullptr ? nullptr : workflow->find_phase(phase->id);
    unknown_workflow = definition == nullptr;
    if (unknown_workflow) return Change::kKeep;
    const Tool& tool = definition->tool;
    // What the person approved must be what runs now: a phase whose tools changed since (their
    // commands, the files those name, schemas or timeouts) is asked again, not run.
    Result<std::string> binding = core.binding_digest(*definition);
    if (!binding.ok()) return std::move(binding).error();
    if (phase->approval->binding_digest != *binding) {
      if (Status issued = issue_approval(run, *phase, *definition, core.approval_policy());
          !issued.ok()) {
        return issued.error();
      }
      // Said on the phase, so that runtimes that read the tools differently (another PATH,
      // another working directory) do not pass a phase back and forth unnoticed.
      phase->error = Error::conflict("approval_stale",
                                     "What the phase's tools run changed after it was approved; "
                                     "it waits for a new approval.");
      refresh_status(run);
      return Change::kWrite;
    }
    // The approval must be the digest of what is stored now: an input or binding rewritten in the
    // store after the decision (which a signature, over the digest, would not reveal) never runs.
    Result<std::string> expected =
        approval_digest(run.run_id, phase->id, tool, *phase->input, phase->approval->policy_hash,
                        *binding, phase->approval->expires_at_millis);
    if (!expected.ok()) return std::move(expected).error();
    std::optional<Error> refusal;
    if (*expected != phase->approval->digest) {
      refusal = Error::integrity_violation(
          "approval_digest", "The phase's approval is not the digest of its input and tools.");
    }
    if (!refusal) refusal = admission_refusal(core, run, *workflow, *definition);
    // The decision is checked against this runtime's own approvers: a decision stored by anyone
    // else (another runtime's approver set, a hand-edited store) does not run.
    if (!refusal &&
        (!phase->approval->decided_by || !core.is_approver(*phase->approval->decided_by))) {
      refusal = Error::permission_denied(
          "approver", "The phase's approval was not made by one of this runtime's approvers.");
    }
    // With approver keys, only the person's signature makes a stored decision an approval.
    const ApproverKeys& keys = core.approver_keys();
    if (!refusal && keys.required() &&
        !keys.verifies(*phase->approval->decided_by, run.run_id, phase->id, phase->approval->digest,
                       Decision::kApprove, phase->approval->signature.value_or(""))) {
      refusal = Error::permission_denied(
          "approval_signature", "The phase's approval is not signed with its approver's key.");
    }
    if (refusal) {
      phase->receipt = ExecutionReceipt{.call_id = phase_call_id(run, *phase),
                                        .tool_id = tool.id(),
                                        .execution = ExecutionState::kNotStarted,
                                        .disclosure = Disclosure::kWithheld};
      end_phase(run, *phase, PhaseState::kBlocked, std::move(*refusal));
      return Change::kWrite;
    }
    const std::int64_t wall = definition->program.limits().wall_time_millis;
    phase->state = PhaseState::kRunning;
    phase->lease =
        PhaseLease{.owner = claim_id,
                   .expires_at_millis = core.now_millis() + wall + core.options().lease.count(),
                   .effects = tool.effects()};
    phase->reserved_micros = tool.cost_micros();
    run.ledger.reserved_micros += tool.cost_micros();
    refresh_status(run);
    claimed = ClaimedPhase{.workflow = workflow,
                           .definition = definition,
                           .input = *phase->input,
                           .execution_id = phase_execution_id(run, *phase)};
    return Change::kWrite;
  });
  if (!updated.ok()) return std::move(updated).error();
  if (unknown_workflow) {
    return Error::not_found("unknown_workflow", "This runtime was not given the run's workflow.");
  }
  return claimed;
}

// Runs the program and checks its usage against the approved program. The audit it yields is
// written by settle.
Settlement execute(const RuntimeCore& core, std::string_view run_id, std::string_view phase_id,
                   const ClaimedPhase& claimed) {
  const CodeProgram& program = claimed.definition->program;
  const std::int64_t cost = claimed.definition->tool.cost_micros();
  CodeExecutionOutcome outcome =
      core.options().code_mode->execute(program, claimed.input,
                                        ExecuteOptions{.run_id = std::string(run_id),
                                                       .execution_id = claimed.execution_id,
                                                       .scope = core.options().scope});
  Settlement settlement;
  if (Status bound = check_usage_binding(program, cost, outcome); !bound.ok()) {
    // Usage that cannot be bound is not trusted: the whole reservation stays unknown, and no
    // audit is written from it.
    settlement.unknown_micros = cost;
    settlement.error = bound.error();
    settlement.status = OutcomeStatus::kOutcomeUnknown;
    return settlement;
  }
  settlement.known_micros = outcome.usage.known_cost_micros;
  settlement.unknown_micros = outcome.usage.unknown_cost_micros;
  settlement.status = outcome.status;
  settlement.audit = PhaseAudit{.run_id = std::string(run_id),
                                .phase_id = std::string(phase_id),
                                .execution_id = claimed.execution_id,
                                .program_digest = program.digest(),
                                .outcome = outcome.status,
                                .evidence = outcome.evidence,
                                .usage = outcome.usage};
  if (outcome.ok()) {
    settlement.succeeded = true;
    settlement.output = std::move(outcome.output);
  } else {
    settlement.error = phase_failed(outcome.error->code, outcome.error->rule);
  }
  return settlement;
}

// Writes the settlement's audit, if it has one not yet written. An audit the store refuses (it
// hands back another record) leaves the phase's outcome unknown; a store that cannot be reached is
// an error, to try again.
Status write_audit(const RuntimeCore& core, Settlement& settlement) {
  if (!settlement.audit) return {};
  if (Status written = write_phase_audit(core.store(), core.scope_digest(), *settlement.audit);
      !written.ok()) {
    if (is_store_outage(written.error())) return written;
    settlement.succeeded = false;
    settlement.output.reset();
    settlement.error = written.error();
    settlement.status = OutcomeStatus::kOutcomeUnknown;
  }
  settlement.audit.reset();
  return {};
}

// The error a phase with effects ends with when it did not succeed: OUTCOME_UNKNOWN, keeping the
// rule and message of an unbound usage or an audit that could not be written, and the fixed
// "nested details are withheld" otherwise.
Error unknown_error(const Error& error) {
  if (error.code == ErrorCode::kOutcomeUnknown) return error;
  if (error.code == ErrorCode::kStorageUnavailable) {
    return Error::outcome_unknown(error.rule, error.message);
  }
  return phase_failed(ErrorCode::kOutcomeUnknown, "phase_failed");
}

// Whether the phase is still running under the claim `claim_id` (nobody recovered or settled it).
bool holds_claim(const PhaseRecord* phase, std::string_view claim_id) {
  return phase != nullptr && phase->state == PhaseState::kRunning && phase->lease &&
         phase->lease->owner == claim_id;
}

// The receipt and the ledger change, in one commit. A phase that did not succeed ends here, with
// the run: outcome_unknown when it has effects (a failure after a nested effect is not a refusal),
// its own status when it has none.
Status record_receipt(const RuntimeCore& core, const UnsettledPhase& unsettled) {
  const Tool& tool = unsettled.claimed->definition->tool;
  const Settlement& settlement = *unsettled.settlement;
  Result<RunDocument> updated =
      core.update(unsettled.run_id, [&](RunDocument& run) -> Result<Change> {
        PhaseRecord* phase = run.find_phase(unsettled.phase_id);
        if (!holds_claim(phase, unsettled.claim) || phase->receipt) return Change::kKeep;
        run.ledger.spent_micros += settlement.known_micros;
        run.ledger.reserved_micros -= phase->reserved_micros - settlement.unknown_micros;
        phase->reserved_micros = settlement.unknown_micros;
        ExecutionReceipt receipt{.call_id = phase_call_id(run, *phase),
                                 .tool_id = tool.id(),
                                 .execution = ExecutionState::kSucceeded,
                                 .disclosure = Disclosure::kWithheld};
        if (settlement.succeeded) {
          phase->receipt = receipt;
          return Change::kWrite;
        }
        if (tool.effects() == ToolEffects::kNone) {
          // Without effects nothing is left to reconcile: the phase failed, whatever went wrong.
          receipt.execution = ExecutionState::kFailed;
          phase->receipt = receipt;
          const bool unknown = settlement.status == OutcomeStatus::kOutcomeUnknown;
          end_phase(run, *phase, unknown ? PhaseState::kFailed : state_of(settlement.status),
                    unknown ? Error::tool_failed(settlement.error.rule, settlement.error.message)
                            : settlement.error);
        } else {
          receipt.execution = ExecutionState::kUnknown;
          phase->receipt = receipt;
          end_phase(run, *phase, PhaseState::kOutcomeUnknown, unknown_error(settlement.error));
        }
        return Change::kWrite;
      });
  return updated.ok() ? Status() : Status(std::move(updated).error());
}

// The output, the released receipt and the next approval requests (or the run's result), in one
// commit.
Status complete(const RuntimeCore& core, const UnsettledPhase& unsettled) {
  Result<RunDocument> updated =
      core.update(unsettled.run_id, [&](RunDocument& run) -> Result<Change> {
        PhaseRecord* phase = run.find_phase(unsettled.phase_id);
        if (!holds_claim(phase, unsettled.claim) || !phase->receipt) return Change::kKeep;
        phase->state = PhaseState::kSucceeded;
        phase->lease.reset();
        phase->output = unsettled.settlement->output;
        phase->receipt->disclosure = Disclosure::kReleased;
        if (Status opened =
                open_ready_phases(run, *unsettled.claimed->workflow, core.approval_policy());
            !opened.ok()) {
          return opened.error();
        }
        return Change::kWrite;
      });
  return updated.ok() ? Status() : Status(std::move(updated).error());
}

// Commits what is known of an executed phase: its audit, then its receipt, then its completion.
// Each step finds what an earlier attempt committed and does not do it again, so a settlement cut
// short by the store can be tried again as it is.
Status settle(const RuntimeCore& core, UnsettledPhase& unsettled) {
  if (Status audited = write_audit(core, *unsettled.settlement); !audited.ok()) return audited;
  if (Status recorded = record_receipt(core, unsettled); !recorded.ok()) return recorded;
  if (!unsettled.settlement->succeeded) return {};
  return complete(core, unsettled);
}

// Gives back a claim whose commit may have landed although nothing was executed under it: the
// phase is approved again and its reservation released, for a claim that runs it.
Status release_claim(const RuntimeCore& core, const UnsettledPhase& unsettled) {
  Result<RunDocument> updated =
      core.update(unsettled.run_id, [&](RunDocument& run) -> Result<Change> {
        PhaseRecord* phase = run.find_phase(unsettled.phase_id);
        if (!holds_claim(phase, unsettled.claim) || phase->receipt) return Change::kKeep;
        run.ledger.reserved_micros -= phase->reserved_micros;
        phase->reserved_micros = 0;
        phase->lease.reset();
        phase->state = PhaseState::kApproved;
        refresh_status(run);
        return Change::kWrite;
      });
  return updated.ok() ? Status() : Status(std::move(updated).error());
}

// `failed`, after holding the phase for a later pass when the store could not be reached.
Error hold_if_outage(const RuntimeCore& core, UnsettledPhase unsettled, Error failed) {
  if (is_store_outage(failed)) core.unsettled().hold(std::move(unsettled));
  return failed;
}

}  // namespace

Result<bool> run_phase(const RuntimeCore& core, std::string_view run_id,
                       std::string_view phase_id) {
  UnsettledPhase phase{.run_id = std::string(run_id),
                       .phase_id = std::string(phase_id),
                       .claim = core.next_claim(),
                       .claimed = std::nullopt,
                       .settlement = std::nullopt};
  Result<std::optional<ClaimedPhase>> claimed = claim(core, run_id, phase_id, phase.claim);
  if (!claimed.ok()) return hold_if_outage(core, std::move(phase), std::move(claimed).error());
  if (!claimed->has_value()) return false;
  phase.claimed = std::move(**claimed);
  phase.settlement = execute(core, run_id, phase_id, *phase.claimed);
  if (Status settled = settle(core, phase); !settled.ok()) {
    return hold_if_outage(core, std::move(phase), std::move(settled).error());
  }
  return true;
}

Result<std::size_t> settle_unsettled(const RuntimeCore& core) {
  std::vector<UnsettledPhase> phases = core.unsettled().take_all();
  std::optional<Error> failed;
  std::size_t settled = 0;
  for (UnsettledPhase& phase : phases) {
    if (failed) {  // the store is still away: the rest wait for the next pass
      core.unsettled().hold(std::move(phase));
      continue;
    }
    const bool executed = phase.settlement.has_value();
    Status done = executed ? settle(core, phase) : release_claim(core, phase);
    if (done.ok()) {
      settled += executed ? 1 : 0;
      continue;
    }
    // Anything but an outage drops the phase: its lease lapses and recovery ends it.
    failed = hold_if_outage(core, std::move(phase), std::move(done).error());
  }
  if (failed) return std::move(*failed);
  return settled;
}

Result<std::size_t> recover_run(const RuntimeCore& core, std::string_view run_id) {
  std::size_t recovered = 0;
  const std::int64_t now = core.now_millis();
  Result<RunDocument> updated = core.update(run_id, [&](RunDocument& run) -> Result<Change> {
    recovered = 0;
    for (PhaseRecord& phase : run.phases) {
      if (phase.state != PhaseState::kRunning || !phase.lease ||
          phase.lease->expires_at_millis > now) {
        continue;
      }
      const bool has_effects = phase.lease->effects != ToolEffects::kNone;
      if (!phase.receipt) {
        phase.receipt = ExecutionReceipt{
            .call_id = phase_call_id(run, phase),
            .tool_id = phase.approval ? phase.approval->tool_id : "",
            .execution = has_effects ? ExecutionState::kUnknown : ExecutionState::kFailed,
            .disclosure = Disclosure::kWithheld};
        if (!has_effects) {
          // Without effects the broker's rule applies: a call that never answered is charged.
          run.ledger.spent_micros += phase.reserved_micros;
          run.ledger.reserved_micros -= phase.reserved_micros;
          phase.reserved_micros = 0;
        }
      }
      if (has_effects) {
        end_phase(run, phase, PhaseState::kOutcomeUnknown,
                  Error::outcome_unknown("phase_interrupted",
                                         "The phase was interrupted; its outcome is unknown and it "
                                         "is not run again."));
      } else {
        end_phase(run, phase, PhaseState::kFailed,
                  Error::tool_failed("phase_interrupted",
                                     "The phase was interrupted and is not run again."));
      }
      ++recovered;
    }
    return recovered == 0 ? Change::kKeep : Change::kWrite;
  });
  if (!updated.ok()) return std::move(updated).error();
  return recovered;
}

}  // namespace codemode::internal
