#include "workflow/run/unsettled_phases.h"

#include <utility>

#include "codemode/rules.h"

namespace codemode::internal {

bool is_store_outage(const Error& error) {
  // The rules both SQL stores give a failed read or write, and a store that cannot be opened
  // (workflow/store/store_errors.h); every other STORAGE_UNAVAILABLE is a record refused.
  return error.code == ErrorCode::kStorageUnavailable &&
         (error.rule == rules::kStoreIo || error.rule == rules::kStoreOpen);
}

void UnsettledPhases::hold(UnsettledPhase phase) {
  std::lock_guard lock(mutex_);
  phases_.push_back(std::move(phase));
}

std::vector<UnsettledPhase> UnsettledPhases::take_all() {
  std::lock_guard lock(mutex_);
  return std::exchange(phases_, {});
}

}  // namespace codemode::internal
