#include "codemode/broker.h"

#include <optional>
#include <utility>

#include "codemode/rules.h"

#include "core/text/js_whitespace.h"
#include "core/text/utf16.h"
#include "core/time/deadline_timer.h"
#include "tools/tool_access.h"
#include "tools/tool_responder.h"

namespace codemode {
namespace {

using internal::Answer;
using internal::AnswerKind;
using internal::ResponseSlot;

constexpr std::size_t kMaxIdLength = 256;

// Every message the broker writes is one of these: fixed text, so nothing the caller or the tool
// supplied (input, output, ids, a tool's own error text) can reach it. The one exception is
// input_schema_error's.
struct Refusal {
  ErrorCode code;
  std::string_view rule;
  std::string_view message;
};

constexpr Refusal kInputBytes{ErrorCode::kInvalidInput, rules::kToolInputBytes,
                              "The tool input is not bounded, plain JSON within max_input_bytes."};
constexpr Refusal kInputSchema{ErrorCode::kInvalidInput, rules::kInputSchema,
                               "The tool input does not match the tool's input schema."};
constexpr Refusal kInputGuardBlocked{ErrorCode::kGuardBlocked, rules::kInputGuard,
                                     "The tool's input guard blocked the call."};
constexpr Refusal kInputGuardUnavailable{ErrorCode::kGuardUnavailable, rules::kInputGuard,
                                         "The tool's input guard gave no verdict."};
constexpr Refusal kToolFailed{ErrorCode::kToolFailed, rules::kToolFailed,
                              "The tool reported that the call failed."};
constexpr Refusal kToolRefused{ErrorCode::kToolFailed, rules::kToolRefused,
                               "The tool refused the call before acting."};
constexpr Refusal kToolThrew{ErrorCode::kToolFailed, rules::kToolFailed,
                             "The tool failed unexpectedly."};
constexpr Refusal kToolAbandoned{ErrorCode::kToolFailed, rules::kToolFailed,
                                 "The tool ended the call without answering."};
constexpr Refusal kToolTimedOut{ErrorCode::kTimeout, rules::kToolTimeout,
                                "The tool did not answer within its timeout."};
constexpr Refusal kCallCancelled{ErrorCode::kCancelled, rules::kCancelled,
                                 "The tool call was cancelled."};
constexpr Refusal kOutputBytes{
    ErrorCode::kInvalidOutput, rules::kToolOutputBytes,
    "The tool output is not bounded, plain JSON within max_output_bytes."};
constexpr Refusal kOutputSchema{ErrorCode::kInvalidOutput, rules::kOutputSchema,
                                "The tool output does not match the tool's output schema."};
constexpr Refusal kOutputGuardBlocked{ErrorCode::kGuardBlocked, rules::kOutputGuard,
                                      "The tool's output guard blocked the result."};
constexpr Refusal kOutputGuardUnavailable{ErrorCode::kGuardUnavailable, rules::kOutputGuard,
                                          "The tool's output guard gave no verdict."};
constexpr Refusal kBrokerInternal{ErrorCode::kToolFailed, rules::kBrokerInternal,
                                  "The broker failed unexpectedly while handling the call."};
constexpr std::string_view kUnknownMessage =
    "The external operation may have occurred. Reconcile its outcome before retrying.";

Error to_error(const Refusal& refusal) {
  return Error::with_code(refusal.code, std::string(refusal.rule), std::string(refusal.message));
}

// A refused input is told where and why, so the caller can fix the call: Schema::validate's
// explanation ("/items/2/qty: must be >= 1"), a pointer into the input and the rule it broke, never
// a value from it. Any other answer from validate (check_json's, which step 3 has already passed)
// keeps the fixed text.
// The output schema's refusal stays fixed: the caller never sees the output it would describe.
Error input_schema_error(const Error& schema_error) {
  if (schema_error.rule != rules::kSchema) return to_error(kInputSchema);
  return Error::with_code(kInputSchema.code, std::string(kInputSchema.rule), schema_error.message);
}

Error option_error(std::string_view field, std::string_view requirement) {
  std::string message = "Invoke option '";
  message.append(field).append("' ").append(requirement);
  return Error::invalid_config("invoke_options", message);
}

bool is_valid_id(std::string_view id) {
  const std::size_t length = internal::utf16_length(id);
  return length >= 1 && length <= kMaxIdLength;
}

// Step 1. The permission list is checked with the permissions (step 2), still without a receipt.
Status check_options(const Tool& tool, const InvokeOptions& options) {
  if (!internal::ToolAccess::has_definition(tool)) {
    return option_error("tool", "must be a tool made by define_tool.");
  }
  if (internal::is_js_blank(options.run_id) || !is_valid_id(options.run_id)) {
    return option_error("run_id", "must be 1 to 256 characters, not all blank.");
  }
  if (internal::is_js_blank(options.call_id) || !is_valid_id(options.call_id)) {
    return option_error("call_id", "must be 1 to 256 characters, not all blank.");
  }
  if (!is_valid_id(options.scope.principal_id)) {
    return option_error("scope.principal_id", "must be 1 to 256 characters.");
  }
  if (!is_valid_id(options.scope.project_id)) {
    return option_error("scope.project_id", "must be 1 to 256 characters.");
  }
  if (!options.budget) return option_error("budget", "is required.");
  if (options.max_input_bytes == 0) return option_error("max_input_bytes", "must be positive.");
  if (options.max_output_bytes == 0) return option_error("max_output_bytes", "must be positive.");
  return {};
}

// Ends the call for one reason: the reason becomes the call's answer first, so a stop and an
// answer from the tool cannot both win. It may run on the timer thread or on the thread that
// stopped the caller's stop_token.
struct StopWithAnswer {
  std::shared_ptr<ResponseSlot> slot;
  std::stop_source source;
  AnswerKind kind;

  void operator()() {
    if (slot->answer(kind)) source.request_stop();
  }
};

// One invoke_tool call from permissions on (steps 2-9 in broker.h). Members are declared so that
// the timer and the stop link, which end the call, are destroyed first.
class BrokerCall {
 public:
  BrokerCall(const Tool& tool, const Json& input, const InvokeOptions& options);

  ToolOutcome run();
  // For an exception that escaped run(): ends the call as safely as what is known allows.
  ToolOutcome internal_failure();

 private:
  ToolOutcome refused(Error error) const;
  ToolOutcome refused(const Refusal& refusal) const { return refused(to_error(refusal)); }
  ExecutionReceipt receipt(Disclosure disclosure) const;

  void start_deadline();
  const Refusal* run_guard(const ToolGuard& guard, const Json& value, const Refusal& blocked,
                           const Refusal& unavailable) const;
  ToolOutcome stopped_before_dispatch();
  Answer dispatch();
  ToolOutcome conclude(Answer answer);
  ToolOutcome unanswered(const Refusal& reason);
  ToolOutcome deliver(Json output);
  void settle(std::int64_t known_micros, std::int64_t unknown_micros);

  const Tool& tool_;
  const Json& input_;
  const InvokeOptions& options_;
  std::stop_source stop_;  // the call's own: the timeout and the caller both stop it
  ToolContext context_;
  const std::shared_ptr<ResponseSlot> slot_ = std::make_shared<ResponseSlot>();
  ExecutionState execution_ = ExecutionState::kNotStarted;
  std::optional<BudgetReservation> reservation_;  // empty before reserving and once settled
  internal::TimerHandle timer_;
  std::optional<std::stop_callback<StopWithAnswer>> caller_link_;
};

BrokerCall::BrokerCall(const Tool& tool, const Json& input, const InvokeOptions& options)
    : tool_(tool),
      input_(input),
      options_(options),
      context_{.run_id = options.run_id,
               .call_id = options.call_id,
               .scope = options.scope,
               .stop_token = stop_.get_token()} {}

ToolOutcome BrokerCall::run() {
  if (auto s = check_permissions(tool_, options_.permissions); !s) {
    // A malformed grant list is a bad option: like step 1, it gets no receipt.
    if (s.error().code == ErrorCode::kInvalidConfig) return ToolOutcome::failed(s.error());
    return refused(std::move(s).error());
  }
  if (!check_json(input_, {.max_bytes = options_.max_input_bytes}).ok()) {
    return refused(kInputBytes);
  }
  start_deadline();  // from here on, schema checks and guards count against the timeout
  if (Status valid = tool_.input_schema().validate(input_); !valid.ok()) {
    return refused(input_schema_error(valid.error()));
  }
  const ToolGuards& guards = internal::ToolAccess::guards(tool_);
  if (auto* refusal = run_guard(guards.input, input_, kInputGuardBlocked, kInputGuardUnavailable)) {
    return refused(*refusal);
  }
  if (slot_->answered()) return stopped_before_dispatch();
  auto reservation = options_.budget->reserve(tool_.cost_micros());
  if (!reservation.ok()) return refused(std::move(reservation).error());
  reservation_.emplace(std::move(reservation).value());
  return conclude(dispatch());
}

ToolOutcome BrokerCall::internal_failure() {
  if (execution_ == ExecutionState::kUnknown) return unanswered(kBrokerInternal);
  return refused(kBrokerInternal);
}

ToolOutcome BrokerCall::refused(Error error) const {
  return ToolOutcome::failed(std::move(error), receipt(Disclosure::kWithheld));
}

ExecutionReceipt BrokerCall::receipt(Disclosure disclosure) const {
  return ExecutionReceipt{.call_id = options_.call_id,
                          .tool_id = tool_.id(),
                          .execution = execution_,
                          .disclosure = disclosure};
}

void BrokerCall::start_deadline() {
  timer_ = internal::DeadlineTimer::schedule(
      internal::DeadlineTimer::Clock::now() + tool_.timeout(),
      StopWithAnswer{.slot = slot_, .source = stop_, .kind = AnswerKind::kTimedOut});
  // Runs at once if the caller has stopped already; the call then ends before dispatch.
  caller_link_.emplace(
      options_.stop_token,
      StopWithAnswer{.slot = slot_, .source = stop_, .kind = AnswerKind::kCancelled});
}

// Null when the guard is absent or allows; the refusal otherwise. A verdict outside the enum is
// no verdict.
const Refusal* BrokerCall::run_guard(const ToolGuard& guard, const Json& value,
                                     const Refusal& blocked, const Refusal& unavailable) const {
  if (!guard) return nullptr;
  GuardVerdict verdict;
  try {
    verdict = guard(value, context_);
  } catch (...) {
    return &unavailable;
  }
  if (verdict == GuardVerdict::kAllow) return nullptr;
  return verdict == GuardVerdict::kBlock ? &blocked : &unavailable;
}

// The timeout or the caller stopped the call while its input was being checked: nothing ran and
// nothing was reserved.
ToolOutcome BrokerCall::stopped_before_dispatch() {
  const Answer answer = slot_->wait();
  return refused(answer.kind == AnswerKind::kTimedOut ? kToolTimedOut : kCallCancelled);
}

// Step 7. execute runs inline; an asynchronous tool answers later from its own thread.
Answer BrokerCall::dispatch() {
  execution_ = ExecutionState::kUnknown;  // from here on, the tool may have acted
  // Held across the catch so that a throw is reported as such, not as the responder being
  // abandoned during unwinding.
  std::optional<ToolResponder> held = internal::ToolResponderAccess::for_slot(slot_);
  try {
    internal::ToolAccess::execute(tool_)(input_, context_, *held);
  } catch (...) {
    slot_->answer(AnswerKind::kThrew);
  }
  held.reset();  // the broker's own copy must not keep the call answerable
  return slot_->wait();
}

ToolOutcome BrokerCall::conclude(Answer answer) {
  switch (answer.kind) {
    case AnswerKind::kSucceeded:
      execution_ = ExecutionState::kSucceeded;
      settle(tool_.cost_micros(), 0);
      return deliver(std::move(*answer.output));
    case AnswerKind::kFailed:
      execution_ = ExecutionState::kFailed;
      settle(tool_.cost_micros(), 0);
      {
        ToolOutcome failed = refused(kToolFailed);
        if (answer.tool_rule) failed.error->rule = std::move(*answer.tool_rule);
        failed.tool_message = std::move(answer.tool_message);
        return failed;
      }
    case AnswerKind::kRefused:
      execution_ = ExecutionState::kNotStarted;
      settle(0, 0);
      return refused(kToolRefused);
    case AnswerKind::kThrew:
      return unanswered(kToolThrew);
    case AnswerKind::kAbandoned:
      return unanswered(kToolAbandoned);
    case AnswerKind::kTimedOut:
      return unanswered(kToolTimedOut);
    case AnswerKind::kCancelled:
      return unanswered(kCallCancelled);
  }
  return unanswered(kToolAbandoned);
}

// Execute started and gave no answer that counts. A tool without effects simply failed; any other
// may have acted, so its cost stays reserved as unknown and the caller must reconcile.
ToolOutcome BrokerCall::unanswered(const Refusal& reason) {
  if (tool_.effects() == ToolEffects::kNone) {
    execution_ = ExecutionState::kFailed;
    settle(tool_.cost_micros(), 0);
    return refused(reason);
  }
  execution_ = ExecutionState::kUnknown;
  settle(0, tool_.cost_micros());
  return refused(Error::outcome_unknown(std::string(reason.rule), std::string(kUnknownMessage)));
}

// Step 8-9: the output crosses the JSON boundary, the schema and the guard before release.
ToolOutcome BrokerCall::deliver(Json output) {
  if (!check_json(output, {.max_bytes = options_.max_output_bytes}).ok()) {
    return refused(kOutputBytes);
  }
  if (!tool_.output_schema().validate(output).ok()) return refused(kOutputSchema);
  const ToolGuards& guards = internal::ToolAccess::guards(tool_);
  if (auto* refusal =
          run_guard(guards.output, output, kOutputGuardBlocked, kOutputGuardUnavailable)) {
    return refused(*refusal);
  }
  return ToolOutcome::succeeded(std::move(output), receipt(Disclosure::kReleased));
}

void BrokerCall::settle(std::int64_t known_micros, std::int64_t unknown_micros) {
  if (!reservation_) return;
  // Never more than the reservation, so settle cannot refuse.
  (void)reservation_->settle(known_micros, unknown_micros);
  reservation_.reset();
}

}  // namespace

ToolOutcome invoke_tool(const Tool& tool, const Json& input,
                        const InvokeOptions& options) noexcept {
  try {
    if (auto s = check_options(tool, options); !s) return ToolOutcome::failed(std::move(s).error());
    BrokerCall call(tool, input, options);
    try {
      return call.run();
    } catch (...) {
      return call.internal_failure();
    }
  } catch (...) {
    return ToolOutcome::failed(to_error(kBrokerInternal));
  }
}

}  // namespace codemode
