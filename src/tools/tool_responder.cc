#include "tools/tool_responder.h"

#include <utility>

namespace codemode {
namespace internal {

bool ResponseSlot::answer(AnswerKind kind, std::optional<Json> output) {
  {
    std::lock_guard lock(mu_);
    if (answer_.has_value()) return false;
    answer_ = Answer{.kind = kind, .output = std::move(output)};
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

void ToolResponder::refuse() const {
  if (state_) state_->slot->answer(internal::AnswerKind::kRefused);
}

}  // namespace codemode
