#include "case_expectations.h"

#include <string>

#include <gtest/gtest.h>

#include "adversarial_fixture.h"

namespace codemode::testing {
namespace {

std::string describe(const Json& outcome) { return outcome.dump().substr(0, 2'000); }

void expect_program_error(const JsCase& c, const CodeExecutionOutcome& outcome) {
  if (!c.expected_program_error) return;
  ASSERT_TRUE(outcome.program_error.has_value()) << c.path;
  const std::string thrown = outcome.program_error->name + ": " + outcome.program_error->message;
  EXPECT_NE(thrown.find(*c.expected_program_error), std::string::npos) << c.path << ": " << thrown;
}

}  // namespace

void expect_case_outcome(const JsCase& c, const CodeExecutionOutcome& outcome) {
  const Json shown = to_json(outcome);
  EXPECT_EQ(to_string(outcome.status), c.expected_status) << c.path << ": " << describe(shown);
  if (c.expected_status == "succeeded" && c.expected_output) {
    EXPECT_EQ(outcome.output, *c.expected_output) << c.path;
  } else if (outcome.error) {
    EXPECT_EQ(to_string(outcome.error->code), c.expected_code) << c.path << ": " << describe(shown);
    EXPECT_EQ(outcome.error->rule, c.expected_rule) << c.path << ": " << describe(shown);
  }
  expect_program_error(c, outcome);
  if (c.expected_tool_calls) {
    EXPECT_EQ(outcome.usage.tool_calls, *c.expected_tool_calls) << c.path;
  }
  const std::string text = shown.dump();
  EXPECT_EQ(text.find(kSecretToken), std::string::npos) << c.path << " shows the secret";
  EXPECT_EQ(text.find(kSecretPath), std::string::npos) << c.path << " shows the host path";
}

}  // namespace codemode::testing
