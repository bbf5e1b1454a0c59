// The JavaScript the worker installs in a program's global (src/worker/engine/scripts/), checked
// from inside a real program: each tests/worker/scripts/<name>.program.js is one function
// expression returning the list of its failed checks, run through the process adapter in each
// profile that has what it checks.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "codemode/code_mode.h"
#include "codemode/process_adapter.h"
#include "codemode/program.h"

#include "support/adapter_options.h"
#include "support/executor_fixture.h"
#include "support/process_support.h"
#include "support/program_fixture.h"

namespace codemode {
namespace {

std::string read_script(const std::string& name) {
  std::ifstream file(std::string(CODEMODE_SOURCE_DIR) + "/tests/worker/scripts/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The checks' own failures, as the program returned them; the outcome when it did not run.
Json failures(const std::string& script, ProgramProfile profile) {
  CodeProgramOptions options = testing::calculate_options();
  options.language = ProgramLanguage::kJavaScript;
  options.profile = profile;
  options.source = read_script(script);
  options.input = Schema::any();
  options.output = Schema::any();
  options.limits.cpu_millis = 5'000;
  options.limits.wall_time_millis = 20'000;
  options.limits.max_output_bytes = 1 << 20;
  options.limits.memory_bytes = 256 << 20;
  const CodeProgram program = define_code_program(options).value();
  auto mode = CodeMode::create({.adapter = make_process_adapter(testing::adapter_options(
                                    testing::worker_binary().value_or(""))),
                                .invoke_tool = testing::doubling_broker()})
                  .value();
  const CodeExecutionOutcome outcome = mode->execute(program, nullptr, testing::execute_options());
  return outcome.ok() ? *outcome.output : to_json(outcome);
}

class GuestScriptsTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_WORKER(); }
};

TEST_F(GuestScriptsTest, TheStandardLibraryHoldsInTheStandardProfile) {
  EXPECT_EQ(failures("standard_library.program.js", ProgramProfile::kStandard), Json::array());
}

TEST_F(GuestScriptsTest, TheStandardLibraryHoldsInTheModelProfile) {
  EXPECT_EQ(failures("standard_library.program.js", ProgramProfile::kModel), Json::array());
}

TEST_F(GuestScriptsTest, TheModelGlobalsHoldInTheModelProfile) {
  EXPECT_EQ(failures("model_globals.program.js", ProgramProfile::kModel), Json::array());
}

TEST_F(GuestScriptsTest, TheStandardProfileHasNoModelGlobals) {
  const Json left = failures("standard_profile_globals.program.js", ProgramProfile::kStandard);
  EXPECT_EQ(left, Json::array());
}

}  // namespace
}  // namespace codemode
