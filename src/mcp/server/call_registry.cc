#include "mcp/server/call_registry.h"

#include <system_error>
#include <utility>
#include <vector>

namespace codemode::mcp {

void CallRegistry::join_finished(std::unique_lock<std::mutex>& lock) {
  std::list<std::shared_ptr<Call>> finished = std::move(finished_);
  finished_.clear();
  lock.unlock();
  for (const std::shared_ptr<Call>& call : finished) {
    if (call->thread.joinable()) call->thread.join();
  }
  lock.lock();
}

CallRegistry::Admission CallRegistry::start(const std::string& id, CallFn call) {
  std::unique_lock lock(mu_);
  join_finished(lock);
  if (stopping_) return Admission::kStopping;
  if (running_.contains(id)) return Admission::kDuplicateId;
  auto entry = std::make_shared<Call>();
  running_.emplace(id, entry);
  // The thread is stored before it can finish: finish() takes the same lock.
  try {
    entry->thread = std::thread([this, id, entry, call = std::move(call)] {
      const std::function<bool()> cancelled = [this, entry] {
        std::lock_guard guard(mu_);
        return entry->cancelled;
      };
      call(entry->stop.get_token(), cancelled);
      finish(id);
    });
  } catch (const std::system_error&) {
    running_.erase(id);
    return Admission::kNoThread;
  }
  return Admission::kStarted;
}

void CallRegistry::finish(const std::string& id) {
  std::lock_guard lock(mu_);
  const auto found = running_.find(id);
  if (found == running_.end()) return;
  finished_.push_back(found->second);
  running_.erase(found);
}

void CallRegistry::cancel(const std::string& id) {
  std::lock_guard lock(mu_);
  const auto found = running_.find(id);
  if (found == running_.end()) return;
  found->second->cancelled = true;
  found->second->stop.request_stop();
}

void CallRegistry::stop_all_and_join() {
  std::vector<std::shared_ptr<Call>> calls;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (auto& [id, call] : running_) {
      call->stop.request_stop();
      calls.push_back(call);
    }
    for (auto& call : finished_) calls.push_back(call);
    finished_.clear();
  }
  for (const std::shared_ptr<Call>& call : calls) {
    if (call->thread.joinable()) call->thread.join();
  }
  std::lock_guard lock(mu_);
  for (auto& call : finished_) {
    if (call->thread.joinable()) call->thread.join();
  }
  finished_.clear();
}

}  // namespace codemode::mcp
