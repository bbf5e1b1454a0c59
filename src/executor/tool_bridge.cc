#include "executor/tool_bridge.h"

#include <optional>
#include <string>
#include <utility>

#include "codemode/rules.h"
#include "codemode/tool.h"

#include "core/json/json_text.h"
#include "executor/outcome_messages.h"
#include "protocol/tool_refusal.h"

namespace codemode::internal {
namespace {

// A receipt is admitted only when it names exactly this call.
bool receipt_matches(const std::optional<ExecutionReceipt>& receipt, const std::string& call_id,
                     const Tool& tool) {
  return receipt.has_value() && receipt->call_id == call_id && receipt->tool_id == tool.id();
}

// The tool's own words replace the fixed message only for a call the tool itself failed
// (ToolResponder::fail(text)). A broker is host code and may build outcomes by hand, so the
// bounds ToolResponder applies are checked again rather than trusted.
std::optional<std::string> shown_tool_message(const ToolOutcome& outcome) {
  if (!outcome.tool_message || outcome.status != OutcomeStatus::kFailed ||
      outcome.error->code != ErrorCode::kToolFailed ||
      (outcome.error->rule != rules::kToolFailed && !is_tool_failure_rule(outcome.error->rule))) {
    return std::nullopt;
  }
  const std::string& words = *outcome.tool_message;
  if (words.empty() || !is_valid_utf8(words)) return std::nullopt;
  return cut_utf8(words, ToolResponder::kMaxToolMessageBytes);
}

// A refusal under input_schema tells the program where its input failed and why
// ("/customerId: must be string"). That message is written here by the tool's own schema, never
// taken from the broker, which may build outcomes by hand; a refusal under that rule of an input
// the schema accepts gets the fixed message.
std::optional<std::string> shown_schema_message(const Tool& tool, const Json& input,
                                                const ToolOutcome& outcome) {
  if (outcome.status != OutcomeStatus::kFailed || outcome.error->code != ErrorCode::kInvalidInput ||
      outcome.error->rule != rules::kInputSchema) {
    return std::nullopt;
  }
  Status valid = tool.input_schema().validate(input);
  if (valid.ok() || valid.error().rule != rules::kSchema) return std::nullopt;
  return std::move(valid).error().message;
}

}  // namespace

ExecutionBridge::ExecutionBridge(const CodeProgram& program, const ExecuteOptions& options,
                                 const ToolBroker& broker, const ExecutionAbort& abort,
                                 CallPool& pool, bool run_non_blocking_inline)
    : program_(program),
      options_(options),
      broker_(broker),
      abort_(abort),
      limits_(program),
      pool_(pool),
      run_non_blocking_inline_(run_non_blocking_inline) {
  usage_.maximum_cost_micros = program.maximum_cost_micros();
}

ExecutionBridge::~ExecutionBridge() {
  close(ErrorCode::kConflict);
  wait_for_admitted_calls();
}

void ExecutionBridge::call(std::string_view tool_id, Json input, Callback done) {
  dispatch(tool_id, std::move(input), std::move(done), false);
}

void ExecutionBridge::call_inline_if_non_blocking(std::string_view tool_id, Json input,
                                                  Callback done) {
  dispatch(tool_id, std::move(input), std::move(done), run_non_blocking_inline_);
}

void ExecutionBridge::dispatch(std::string_view tool_id, Json input, Callback done,
                               bool inline_if_non_blocking) {
  Result<std::int64_t> sequence = admit(tool_id);
  if (!sequence.ok()) {
    done(bridge_refusal(sequence.error()));
    return;
  }
  if (Status status = limits_.check_tool_input(input); !status.ok()) {
    return refuse_admitted(done, status.error());
  }
  if (std::optional<ErrorCode> aborted = abort_.code()) {
    return refuse_admitted(done, Error::with_code(*aborted, "aborted", ""));
  }
  const Tool& tool = *program_.find_tool(tool_id);
  if (inline_if_non_blocking && tool.non_blocking()) {
    // The tool answers before returning (ToolOptions.non_blocking): handing it to a pool thread
    // would cost a wake-up for no concurrency.
    run_call(tool, std::move(input), *sequence, done);
    end_task();
    return;
  }
  try {
    // `done` is copied: if no thread takes the task, the refusal below still needs it.
    CallPool::Task task = [this, &tool, input = std::move(input), n = *sequence, done]() mutable {
      run_call(tool, std::move(input), n, done);
      end_task();  // last: after this the task touches nothing of the bridge
    };
    if (pool_.run(std::move(task))) return;
  } catch (...) {
    // The task could not be built (out of memory).
  }
  // No thread took the call: the broker never saw it, so it did not happen.
  refuse_admitted(done, Error::tool_failed("bridge_internal", ""));
}

Result<std::int64_t> ExecutionBridge::admit(std::string_view tool_id) {
  std::lock_guard lock(mu_);
  if (closed_with_) return Error::with_code(*closed_with_, "bridge_closed", "");
  if (std::optional<ErrorCode> aborted = abort_.code())
    return Error::with_code(*aborted, "aborted", "");
  if (Status status = limits_.admit_tool_call(tool_id, admitted_, in_flight_); !status.ok()) {
    return std::move(status).error();
  }
  ++in_flight_;
  ++tasks_;
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

ExecutionBridge::Settlement ExecutionBridge::settle_with_broker(const Tool& tool, const Json& input,
                                                                const std::string& call_id) {
  const BrokerContext context{
      .run_id = options_.run_id,
      .execution_id = options_.execution_id,
      .call_id = call_id,
      .program_digest = program_.digest(),
      .scope = options_.scope,
      .stop_token = abort_.token(),
      .max_tool_input_bytes = static_cast<std::size_t>(program_.limits().max_tool_input_bytes),
      .max_output_bytes = static_cast<std::size_t>(program_.limits().max_output_bytes)};
  try {
    const ToolOutcome outcome = broker_(tool, input, context);
    return admit_outcome(tool, input, outcome, call_id);
  } catch (...) {
    // A broker that throws cannot say whether the tool ran: the call is unknown.
    return Settlement{bridge_refusal(ErrorCode::kToolFailed, "broker_internal"), std::nullopt};
  }
}

ExecutionBridge::Settlement ExecutionBridge::admit_outcome(const Tool& tool, const Json& input,
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
    // The broker's status; the tool's own words, the input's failure or, as for every other
    // refusal, the fixed message.
    const Error& error = *outcome.error;
    std::optional<std::string> words = shown_tool_message(outcome);
    if (!words) words = shown_schema_message(tool, input, outcome);
    std::string message = words ? std::move(*words) : std::string(bridge_message(error.code));
    return Settlement{
        CodeToolOutcome::failure(outcome.status, error.code, error.rule, std::move(message)),
        receipt};
  }
  if (Status shown = limits_.check_tool_output(*outcome.output); !shown.ok()) {
    return Settlement{bridge_refusal(shown.error()), std::nullopt};
  }
  return Settlement{CodeToolOutcome::success(*outcome.output), receipt};
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

void ExecutionBridge::refuse_admitted(const Callback& done, const Error& refusal) noexcept {
  release_slot();
  end_task();
  try {
    done(bridge_refusal(refusal));
  } catch (...) {
    // As in run_call: the program misses this answer. Refused here, on the adapter's own thread,
    // before call() returns, as the ToolBridge contract says.
  }
}

void ExecutionBridge::release_slot() {
  std::lock_guard lock(mu_);
  --in_flight_;
}

void ExecutionBridge::end_task() {
  std::lock_guard lock(mu_);
  // Notified under the lock: the waiter may destroy the bridge as soon as it can take mu_.
  if (--tasks_ == 0) all_settled_.notify_all();
}

void ExecutionBridge::close(ErrorCode code) {
  std::lock_guard lock(mu_);
  if (!closed_with_) closed_with_ = code;
}

void ExecutionBridge::wait_for_admitted_calls() {
  std::unique_lock lock(mu_);
  all_settled_.wait(lock, [this] { return tasks_ == 0; });
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
