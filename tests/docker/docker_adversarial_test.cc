// The part of the adversarial suite (tests/adversarial/cases) whose outcome the container could
// change, run through the Docker adapter: "secrets" and "ambient" (what a program can reach from
// where it runs: the environment, globals, the host's secrets) and "exhaustion" (CPU, memory and
// stack limits, now inside a memory cgroup and a pids limit as well as the worker's own rlimits).
// The other groups (byte budgets, fan-out, the raw bridge, result shapes) exercise the host's
// broker and frame checks, which are the same code whichever adapter launched the worker; they
// run against the process adapter in adversarial_tests.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codemode/code_mode.h"
#include "codemode/docker_adapter.h"

#include "adversarial/adversarial_fixture.h"
#include "adversarial/case_expectations.h"
#include "adversarial/js_case.h"
#include "docker_fixture.h"

namespace codemode::testing {
namespace {

const std::string kCasesDirectory = std::string(CODEMODE_SOURCE_DIR) + "/tests/adversarial/cases";

std::vector<JsCase> docker_cases() {
  std::vector<JsCase> cases;
  for (const char* group : {"secrets", "ambient", "exhaustion"}) {
    for (JsCase& c : load_js_cases(kCasesDirectory + "/" + group)) cases.push_back(std::move(c));
  }
  return cases;
}

CodeMode& docker_mode() {
  static CodeMode* const mode =
      adversarial_mode_with(make_docker_adapter(docker_options(docker_daemon())).value()).release();
  return *mode;
}

class DockerJsCaseTest : public ::testing::TestWithParam<JsCase> {};

TEST_P(DockerJsCaseTest, EndsAsItsHeaderSays) {
  const DockerDaemon daemon = docker_daemon();
  ASSERT_FALSE(daemon.image.empty()) << "the docker fixture did not build the image";
  const JsCase& c = GetParam();
  ASSERT_TRUE(c.parse_error.empty()) << c.path << ": " << c.parse_error;
  const Result<CodeLimits> limits = adversarial_limits(c.limits);
  ASSERT_TRUE(limits.ok()) << c.path << ": " << limits.error().message;
  const Result<CodeProgram> program = adversarial_program(c.source, *limits);
  if (c.expected_status == "rejected") return;  // refused before any sandbox: nothing to run
  ASSERT_TRUE(program.ok()) << c.path << ": " << program.error().message;
  expect_case_outcome(c, docker_mode().execute(*program, c.input, adversarial_execute_options()));
  EXPECT_THAT(codemode_containers_left(daemon), ::testing::IsEmpty())
      << c.path << " left a container";
}

INSTANTIATE_TEST_SUITE_P(Docker, DockerJsCaseTest, ::testing::ValuesIn(docker_cases()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace codemode::testing
