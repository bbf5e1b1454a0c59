#include "tools/tool_responder.h"

#include <algorithm>
#include <array>
#include <utility>

#include "codemode/rules.h"

#include "core/json/json_text.h"
#include "core/text/identifiers.h"

namespace codemode {
namespace internal {

bool ResponseSlot::answer(AnswerKind kind, std::optional<Json> output,
                          std::optional<std::string> tool_message,
                          std::optional<std::string> tool_rule) {
  {
    std::lock_guard lock(mu_);
    if (answer_.has_value()) return false;
    answer_ = Answer{.kind = kind,
                     .output = std::move(output),
                     .tool_message = std::move(tool_message),
                     .tool_rule = std::move(tool_rule)};
  }
  answered_.notify_all();
  return true;
}

bool ResponseSlot::answered() const {
  std::lock_guard lock(mu_);
  return answer_.has_value();
}

Answer ResponseSlot::wait() {
  std::unique_lock lock(mu_);
  answered_.wait(lock, [&] { return answer_.has_value(); });
  return std::move(*answer_);
}

}  // namespace internal

ToolResponder::State::~State() {
  if (slot) slot->answer(internal::AnswerKind::kAbandoned);
}

ToolResponder::ToolResponder(std::shared_ptr<State> state) : state_(std::move(state)) {}

void ToolResponder::succeed(Json output) const {
  if (state_) state_->slot->answer(internal::AnswerKind::kSucceeded, std::move(output));
}

void ToolResponder::fail() const {
  if (state_) state_->slot->answer(internal::AnswerKind::kFailed);
}

void ToolResponder::fail(std::string_view tool_message) const {
  if (!state_) return;
  if (tool_message.empty() || !internal::is_valid_utf8(tool_message)) return fail();
  state_->slot->answer(internal::AnswerKind::kFailed, std::nullopt,
                       internal::cut_utf8(std::string(tool_message), kMaxToolMessageBytes));
}

void ToolResponder::fail_as(std::string_view rule, std::string_view tool_message) const {
  if (!state_) return;
  if (!is_tool_failure_rule(rule)) return fail(tool_message);
  std::optional<std::string> words;
  if (!tool_message.empty() && internal::is_valid_utf8(tool_message)) {
    words = internal::cut_utf8(std::string(tool_message), kMaxToolMessageBytes);
  }
  state_->slot->answer(internal::AnswerKind::kFailed, std::nullopt, std::move(words),
                       std::string(rule));
}

bool is_tool_failure_rule(std::string_view rule) {
  // The rules codemode itself reports for a call, which a tool's own must never be mistaken for
  // (the code tool maps some of them to its own codes, docs/mcp.md, and rethrows host_calls_limit).
  static constexpr std::array<std::string_view, 16> kReserved = {
      rules::kAborted, rules::kApprovalRejected, rules::kBridgeClosed, rules::kBridgeInternal,
      rules::kBrokerInternal, rules::kCancelled, rules::kInputGuard, rules::kInputSchema,
      rules::kOutputGuard, rules::kOutputSchema, rules::kPermission, rules::kSchema,
      // The code tool's own answers, which are no Error's rule (codemode mcp, docs/mcp.md).
      "code_rejected", "deadline_exceeded", "invalid_arguments", "unknown_method"};
  if (!internal::is_rule_name(rule)) return false;
  if (rule.starts_with("tool_") || rule.starts_with("worker_") || rule.starts_with("max_") ||
      rule.starts_with("downstream_") || rule.starts_with("budget_") || rule.ends_with("_limit")) {
    return false;
  }
  return std::find(kReserved.begin(), kReserved.end(), rule) == kReserved.end();
}

void ToolResponder::refuse() const {
  if (state_) state_->slot->answer(internal::AnswerKind::kRefused);
}

}  // namespace codemode
