// OutcomeKey: an execution's outcome reduced to (status, code, rule), the unit the soak counts.
#ifndef CODEMODE_BENCH_SOAK_OUTCOME_KEY_H_
#define CODEMODE_BENCH_SOAK_OUTCOME_KEY_H_

#include <compare>
#include <optional>
#include <string>

#include "codemode/code_mode.h"

namespace codemode::soak {

struct OutcomeKey {
  std::string status;  // "succeeded", "failed", ...
  std::string code;    // "LIMIT_EXCEEDED", ...; "-" for a success
  std::string rule;    // "cpu_limit", ...; "-" for a success

  auto operator<=>(const OutcomeKey&) const = default;
  std::string to_string() const;  // "failed LIMIT_EXCEEDED cpu_limit"
};

OutcomeKey key_of(const CodeExecutionOutcome& outcome);
OutcomeKey succeeded_key();
OutcomeKey error_key(ErrorCode code, std::string rule);  // status follows status_of(code)

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_OUTCOME_KEY_H_
