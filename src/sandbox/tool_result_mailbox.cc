#include "sandbox/tool_result_mailbox.h"

namespace codemode::internal {

std::shared_ptr<ToolResultMailbox> ToolResultMailbox::create() {
  std::optional<EventFd> wake = EventFd::create();
  if (!wake) return nullptr;
  return std::shared_ptr<ToolResultMailbox>(new ToolResultMailbox(std::move(*wake)));
}

void ToolResultMailbox::post(std::uint64_t call_id, CodeToolOutcome outcome) {
  std::lock_guard lock(mu_);
  if (closed_) return;
  entries_.emplace_back(call_id, std::move(outcome));
  wake_.notify();
}

void ToolResultMailbox::wake() {
  std::lock_guard lock(mu_);
  if (!closed_) wake_.notify();
}

std::vector<ToolResultMailbox::Entry> ToolResultMailbox::take() {
  std::lock_guard lock(mu_);
  wake_.drain();
  return std::exchange(entries_, {});
}

void ToolResultMailbox::close() {
  std::lock_guard lock(mu_);
  closed_ = true;
  entries_.clear();
}

}  // namespace codemode::internal
