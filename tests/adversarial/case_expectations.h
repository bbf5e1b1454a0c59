// Checks that an execution ended exactly as an adversarial case's header says (js_case.h) and
// shows neither the fixture's secret token nor its host path; shared by the process adapter's
// suite and the Docker adapter's.
#ifndef CODEMODE_TESTS_ADVERSARIAL_CASE_EXPECTATIONS_H_
#define CODEMODE_TESTS_ADVERSARIAL_CASE_EXPECTATIONS_H_

#include "codemode/code_mode.h"

#include "js_case.h"

namespace codemode::testing {

// Records gtest failures for every difference.
void expect_case_outcome(const JsCase& c, const CodeExecutionOutcome& outcome);

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_ADVERSARIAL_CASE_EXPECTATIONS_H_
