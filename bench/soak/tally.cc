#include "soak/tally.h"

namespace codemode::soak {

OutcomeTally::OutcomeTally(const std::vector<SoakKind>& kinds) : kinds_(kinds) {
  counts_.matched_by_kind.assign(kinds.size(), 0);
  counts_.unexpected_by_kind.assign(kinds.size(), 0);
}

void OutcomeTally::record(std::size_t execution, std::size_t kind,
                          const CodeExecutionOutcome& outcome) {
  const bool expected = matches(kinds_[kind].expected, outcome);
  OutcomeKey key = key_of(outcome);
  Json whole;
  if (!expected) whole = to_json(outcome);  // outside the lock; unexpected outcomes are rare
  std::lock_guard lock(mu_);
  ++counts_.by_outcome[key];
  if (expected) {
    ++counts_.matched_by_kind[kind];
    return;
  }
  ++counts_.unexpected_by_kind[kind];
  ++counts_.unexpected;
  if (counts_.first_unexpected.size() < kKeptUnexpected) {
    counts_.first_unexpected.push_back({execution, kind, std::move(whole)});
  }
}

TallySnapshot OutcomeTally::snapshot() const {
  std::lock_guard lock(mu_);
  return counts_;
}

}  // namespace codemode::soak
