// Runs every program under tests/adversarial/cases/ through the real worker and checks it ends
// exactly as its header says, shows no secret, leaves no process behind, and that the executor
// still runs an ordinary program afterwards.
#include <string>

#include <gtest/gtest.h>

#include "codemode/code_mode.h"

#include "adversarial_fixture.h"
#include "case_expectations.h"
#include "js_case.h"

namespace codemode::testing {
namespace {

const std::string kCasesDirectory = std::string(CODEMODE_SOURCE_DIR) + "/tests/adversarial/cases";

class JsCaseTest : public ::testing::TestWithParam<JsCase> {};

void expect_executor_still_works() {
  const auto program =
      adversarial_program("(input) => input.n + 1", adversarial_limits({}).value()).value();
  const CodeExecutionOutcome after =
      adversarial_mode().execute(program, Json{{"n", 41}}, adversarial_execute_options());
  ASSERT_TRUE(after.ok()) << to_json(after).dump();
  EXPECT_EQ(after.output, Json(42));
}

TEST_P(JsCaseTest, EndsAsItsHeaderSays) {
  const JsCase& c = GetParam();
  ASSERT_TRUE(c.parse_error.empty()) << c.path << ": " << c.parse_error;
  const Result<CodeLimits> limits = adversarial_limits(c.limits);
  ASSERT_TRUE(limits.ok()) << c.path << ": " << limits.error().message;
  const Result<CodeProgram> program = adversarial_program(c.source, *limits);
  if (c.expected_status == "rejected") {
    ASSERT_FALSE(program.ok()) << c.path;
    EXPECT_EQ(to_string(program.error().code), c.expected_code) << c.path;
    EXPECT_EQ(program.error().rule, c.expected_rule) << c.path;
    return;
  }
  ASSERT_TRUE(program.ok()) << c.path << ": " << program.error().message;
  expect_case_outcome(c,
                      adversarial_mode().execute(*program, c.input, adversarial_execute_options()));
  EXPECT_TRUE(child_processes().empty()) << c.path << " left a process behind";
  expect_executor_still_works();
}

INSTANTIATE_TEST_SUITE_P(Adversarial, JsCaseTest,
                         ::testing::ValuesIn(load_js_cases(kCasesDirectory)),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace codemode::testing
