#include "tools/tool_responder.h"

#include <utility>

#include "core/json_text.h"

namespace codemode {
namespace internal {

bool ResponseSlot::answer(AnswerKind kind, std::optional<Json> output,
                          std::optional<std::string> tool_message) {
  {
    std::lock_guard lock(mu_);
    if (answer_.has_value()) return false;
    answer_ =
        Answer{.kind = kind, .output = std::move(output), .tool_message = std::move(tool_message)};
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

void ToolResponder::refuse() const {
  if (state_) state_->slot->answer(internal::AnswerKind::kRefused);
}

}  // namespace codemode
