// OutcomeTally counts an execution as expected only when status, code, rule and (where the kind
// checks it) the output all match.
#include "soak/tally.h"

#include <gtest/gtest.h>

#include "soak/tools.h"

namespace codemode::soak {
namespace {

std::size_t index_of(const std::vector<SoakKind>& kinds, const std::string& name) {
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    if (kinds[k].name == name) return k;
  }
  ADD_FAILURE() << "no kind " << name;
  return 0;
}

CodeExecutionOutcome succeeded(Json output) {
  CodeExecutionOutcome outcome;
  outcome.status = OutcomeStatus::kSucceeded;
  outcome.output = std::move(output);
  return outcome;
}

CodeExecutionOutcome failed(ErrorCode code, std::string rule) {
  CodeExecutionOutcome outcome;
  outcome.status = status_of(code);
  outcome.error = Error::with_code(code, std::move(rule), "message");
  return outcome;
}

class SoakTally : public ::testing::Test {
 protected:
  const std::vector<SoakKind> kinds_ = soak_kinds(make_soak_tools().value()).value();
  OutcomeTally tally_{kinds_};
};

TEST_F(SoakTally, RightCodeAndRuleIsExpected) {
  tally_.record(0, index_of(kinds_, "cpu_limit"), failed(ErrorCode::kLimitExceeded, "cpu_limit"));
  const TallySnapshot counts = tally_.snapshot();
  EXPECT_EQ(counts.unexpected, 0u);
  EXPECT_EQ(counts.matched_by_kind[index_of(kinds_, "cpu_limit")], 1u);
  EXPECT_EQ((counts.by_outcome.at({"failed", "LIMIT_EXCEEDED", "cpu_limit"})), 1u);
}

TEST_F(SoakTally, WrongRuleIsUnexpectedAndKept) {
  const std::size_t kind = index_of(kinds_, "cpu_limit");
  tally_.record(5, kind, failed(ErrorCode::kLimitExceeded, "memory_limit"));
  const TallySnapshot counts = tally_.snapshot();
  EXPECT_EQ(counts.unexpected, 1u);
  EXPECT_EQ(counts.unexpected_by_kind[kind], 1u);
  ASSERT_EQ(counts.first_unexpected.size(), 1u);
  EXPECT_EQ(counts.first_unexpected[0].execution, 5u);
  EXPECT_EQ(counts.first_unexpected[0].outcome["error"]["rule"], "memory_limit");
}

TEST_F(SoakTally, SuccessWithTheWrongOutputIsUnexpected) {
  const std::size_t kind = index_of(kinds_, "success_one_tool_call");
  tally_.record(0, kind, succeeded(Json{{"value", 42}}));
  tally_.record(1, kind, succeeded(Json{{"value", 43}}));
  EXPECT_EQ(tally_.snapshot().matched_by_kind[kind], 1u);
  EXPECT_EQ(tally_.snapshot().unexpected_by_kind[kind], 1u);
}

TEST_F(SoakTally, KeepsOnlyTheFirstFewUnexpectedOutcomes) {
  for (std::size_t i = 0; i < OutcomeTally::kKeptUnexpected + 5; ++i) {
    tally_.record(i, 0, failed(ErrorCode::kToolFailed, "sandbox_error"));
  }
  const TallySnapshot counts = tally_.snapshot();
  EXPECT_EQ(counts.unexpected, OutcomeTally::kKeptUnexpected + 5);
  EXPECT_EQ(counts.first_unexpected.size(), OutcomeTally::kKeptUnexpected);
}

}  // namespace
}  // namespace codemode::soak
