// OutcomeTally counts what the soak's executions ended as: by (status, code, rule), and per kind
// how many ended as they must and how many did not. It keeps the first few unexpected outcomes
// whole, to print.
//
// Thread-safety: every method is thread-safe.
#ifndef CODEMODE_BENCH_SOAK_TALLY_H_
#define CODEMODE_BENCH_SOAK_TALLY_H_

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "codemode/code_mode.h"

#include "soak/kinds.h"
#include "soak/outcome_key.h"

namespace codemode::soak {

struct UnexpectedOutcome {
  std::size_t execution = 0;  // index in the plan
  std::size_t kind = 0;       // index in the kinds
  Json outcome;               // to_json of what it ended as
};

struct TallySnapshot {
  std::map<OutcomeKey, std::size_t> by_outcome;
  std::vector<std::size_t> matched_by_kind;     // indexed like the kinds
  std::vector<std::size_t> unexpected_by_kind;  // indexed like the kinds
  std::size_t unexpected = 0;
  std::vector<UnexpectedOutcome> first_unexpected;  // at most kKeptUnexpected
};

class OutcomeTally {
 public:
  static constexpr std::size_t kKeptUnexpected = 20;

  explicit OutcomeTally(const std::vector<SoakKind>& kinds);  // must outlive this tally

  void record(std::size_t execution, std::size_t kind, const CodeExecutionOutcome& outcome);
  TallySnapshot snapshot() const;

 private:
  const std::vector<SoakKind>& kinds_;
  mutable std::mutex mu_;
  TallySnapshot counts_;
};

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_TALLY_H_
