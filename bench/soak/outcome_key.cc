#include "soak/outcome_key.h"

#include <utility>

namespace codemode::soak {

std::string OutcomeKey::to_string() const { return status + " " + code + " " + rule; }

OutcomeKey key_of(const CodeExecutionOutcome& outcome) {
  OutcomeKey key{std::string(codemode::to_string(outcome.status)), "-", "-"};
  if (outcome.error) {
    key.code = std::string(codemode::to_string(outcome.error->code));
    key.rule = outcome.error->rule;
  }
  return key;
}

OutcomeKey succeeded_key() {
  return {std::string(codemode::to_string(OutcomeStatus::kSucceeded)), "-", "-"};
}

OutcomeKey error_key(ErrorCode code, std::string rule) {
  return {std::string(codemode::to_string(status_of(code))), std::string(codemode::to_string(code)),
          std::move(rule)};
}

}  // namespace codemode::soak
