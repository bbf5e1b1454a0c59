#include "executor/tool_bridge.h"

#include <atomic>
#include <memory>
#include <utility>

#include "executor/outcome_messages.h"

namespace codemode::internal {
namespace {

CodeToolOutcome guest_success(Json output) {
  return CodeToolOutcome{.status = OutcomeStatus::kSucceeded, .output = std::move(output)};
}

// A receipt is admitted only when it names exactly this call.
bool receipt_matches(const std::optional<ExecutionReceipt>& receipt, const std::string& call_id,
                     const Tool& tool) {
  return receipt.has_value() && receipt->call_id == call_id && receipt->tool_id == tool.id();
}

}  // namespace

ExecutionBridge::ExecutionBridge(const CodeProgram& program, const ExecuteOptions& options,
                                 const ToolBroker& broker, const ExecutionAbort& abort)
    : program_(program), options_(options), broker_(broker), abort_(abort), limits_(program) {
  usage_.maximum_cost_micros = program.maximum_cost_micros();
}

ExecutionBridge::~ExecutionBridge() {
  close(ErrorCode::kConflict);
  wait_for_admitted_calls();
}

void ExecutionBridge::call(std::string_view tool_id, Json input, Callback done) {
  Result<std::int64_t> sequence = admit(tool_id);
  if (!sequence.ok()) {
    done(bridge_refusal(sequence.error()));
    return;
  }
  if (Status status = limits_.check_tool_input(input); !status.ok()) {
    release_slot();
    done(bridge_refusal(status.error()));
    return;
  }
  if (std::optional<ErrorCode> aborted = abort_.code()) {
    release_slot();
    done(bridge_refusal(*aborted, "aborted"));
    return;
  }
  const Tool& tool = *program_.find_tool(tool_id);
  try {
    std::lock_guard lock(mu_);
    reap_finished_threads();
    auto finished = std::make_shared<std::atomic<bool>>(false);
    call_threads_.push_back(CallThread{
        std::jthread([this, &tool, input = std::move(input), n = *sequence, done,
                      finished]() mutable {
          run_call(tool, std::move(input), n, done);
          finished->store(true);  // last: after this the thread touches nothing of the bridge
        }),
        finished});
  } catch (...) {
    // No thread could be started (or recorded): the broker never saw the call, so it did not
    // happen. std::jthread joins itself if it started and the push failed.
    release_slot();
    done(bridge_refusal(ErrorCode::kToolFailed, "bridge_internal"));
  }
}

// Joins the threads of calls that settled, so an execution holds at most about
// maxToolConcurrency thread stacks, not one per call. REQUIRES: mu_ held.
void ExecutionBridge::reap_finished_threads() {
  std::erase_if(call_threads_, [](const CallThread& call) { return call.finished->load(); });
}

Result<std::int64_t> ExecutionBridge::admit(std::string_view tool_id) {
  std::lock_guard lock(mu_);
  if (closed_with_) return Error{*closed_with_, "bridge_closed", ""};
  if (std::optional<ErrorCode> aborted = abort_.code()) return Error{*aborted, "aborted", ""};
  if (Status status = limits_.admit_tool_call(tool_id, admitted_, in_flight_); !status.ok()) {
    return std::move(status).error();
  }
  ++in_flight_;
  return ++admitted_;
}

void ExecutionBridge::run_call(const Tool& tool, Json input, std::int64_t sequence,
                               const Callback& done) noexcept {
  CodeToolOutcome guest = bridge_refusal(ErrorCode::kToolFailed, "bridge_internal");
  try {
    const std::string call_id = options_.execution_id + ":code:" + std::to_string(sequence);
    Settlement settlement = settle_with_broker(tool, input, call_id);
    account(tool, settlement);
    guest = std::move(settlement.guest);
  } catch (...) {
    // Only allocation can fail here. The call may have reached the broker: count it unknown.
    account_unknown(tool);
  }
  // The slot is free before the program hears back, so its next call is not refused spuriously.
  release_slot();
  try {
    done(std::move(guest));
  } catch (...) {
    // An adapter's callback must not throw; if it does, the program simply misses this answer.
  }
}

ExecutionBridge::Settlement ExecutionBridge::settle_with_broker(const Tool& tool,
                                                                const Json& input,
                                                                const std::string& call_id) {
  const BrokerContext context{.run_id = options_.run_id,
                              .execution_id = options_.execution_id,
                              .call_id = call_id,
                              .program_digest = program_.digest(),
                              .scope = options_.scope,
                              .stop_token = abort_.token(),
                              .max_tool_input_bytes =
                                  static_cast<std::size_t>(program_.limits().max_tool_input_bytes),
                              .max_output_bytes =
                                  static_cast<std::size_t>(program_.limits().max_output_bytes)};
  try {
    const ToolOutcome outcome = broker_(tool, input, context);
    return admit_outcome(tool, outcome, call_id);
  } catch (...) {
    // A broker that throws cannot say whether the tool ran: the call is unknown.
    return Settlement{bridge_refusal(ErrorCode::kToolFailed, "broker_internal"), std::nullopt};
  }
}

ExecutionBridge::Settlement ExecutionBridge::admit_outcome(const Tool& tool,
                                                           const ToolOutcome& outcome,
                                                           const std::string& call_id) const {
  std::optional<ExecutionReceipt> receipt;
  if (receipt_matches(outcome.receipt, call_id, tool)) receipt = outcome.receipt;
  const bool succeeded = outcome.status == OutcomeStatus::kSucceeded;
  const bool well_formed = succeeded ? outcome.output.has_value() && !outcome.error
                                     : outcome.error.has_value() && !outcome.output;
  // A malformed outcome, or an output the program may not see, leaves the call unknown.
  if (!well_formed) {
    return Settlement{bridge_refusal(ErrorCode::kToolFailed, "broker_internal"), std::nullopt};
  }
  if (!succeeded) {
    CodeToolOutcome guest = bridge_refusal(*outcome.error);
    guest.status = outcome.status;
    return Settlement{std::move(guest), receipt};
  }
  if (Status shown = limits_.check_tool_output(*outcome.output); !shown.ok()) {
    return Settlement{bridge_refusal(shown.error()), std::nullopt};
  }
  return Settlement{guest_success(*outcome.output), receipt};
}

void ExecutionBridge::account(const Tool& tool, const Settlement& settlement) {
  std::lock_guard lock(mu_);
  ++usage_.tool_calls;
  const bool unknown =
      !settlement.receipt || settlement.receipt->execution == ExecutionState::kUnknown;
  if (unknown) {
    ++usage_.unknown_calls;
    usage_.unknown_cost_micros += tool.cost_micros();
  } else if (settlement.receipt->execution != ExecutionState::kNotStarted) {
    usage_.known_cost_micros += tool.cost_micros();
  }
  if (settlement.receipt) evidence_.push_back({options_.run_id, *settlement.receipt});
}

void ExecutionBridge::account_unknown(const Tool& tool) noexcept {
  std::lock_guard lock(mu_);
  ++usage_.tool_calls;
  ++usage_.unknown_calls;
  usage_.unknown_cost_micros += tool.cost_micros();
}

void ExecutionBridge::release_slot() {
  std::lock_guard lock(mu_);
  --in_flight_;
  if (in_flight_ == 0) all_settled_.notify_all();
}

void ExecutionBridge::close(ErrorCode code) {
  std::lock_guard lock(mu_);
  if (!closed_with_) closed_with_ = code;
}

void ExecutionBridge::wait_for_admitted_calls() {
  std::vector<CallThread> threads;
  {
    std::unique_lock lock(mu_);
    all_settled_.wait(lock, [this] { return in_flight_ == 0; });
    threads.swap(call_threads_);
  }
  threads.clear();  // joins: each thread has finished or is returning from its callback
}

CodeExecutionUsage ExecutionBridge::usage() const {
  std::lock_guard lock(mu_);
  return usage_;
}

std::vector<ExecutionEvidence> ExecutionBridge::evidence() const {
  std::lock_guard lock(mu_);
  return evidence_;
}

}  // namespace codemode::internal
