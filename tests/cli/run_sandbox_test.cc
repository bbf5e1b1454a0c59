// `codemode run --sandbox SANDBOX.json`: the program runs in the sandbox the file describes, the
// same "sandbox" object as `codemode mcp`'s config (docs/mcp.md). A protocol sandbox runs only
// when the file declares it production; the flag excludes --spawn, --isolation and --engine.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "support/bubblewrap.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"

namespace codemode {
namespace {

const std::string kCatalogExample = std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog";

class RunSandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_WORKER();
    ASSERT_TRUE(dir_.ok());
  }

  // `codemode run` of the catalog example with `sandbox` written to a file, and `extra` flags.
  testing::ProcessRun run_in(const Json& sandbox, std::vector<std::string> extra = {}) {
    const std::string path = dir_.file("sandbox.json");
    std::ofstream(path) << sandbox.dump();
    std::vector<std::string> argv{CODEMODE_CLI_BINARY,
                                  "run",
                                  kCatalogExample + "/total.js",
                                  "--input",
                                  R"({"skus":["ab","cde"]})",
                                  "--tools",
                                  kCatalogExample + "/tools.json",
                                  "--sandbox",
                                  path};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::run_process(argv, "");
  }

  static Json bwrap_sandbox(const char* qualification) {
    return Json{{"type", "protocol"},
                {"id", "tests.bwrap"},
                {"qualification", qualification},
                {"launch", testing::bubblewrap_launch(*testing::worker_binary())}};
  }

  static std::string rule_of(const testing::ProcessRun& run) {
    const Json line = Json::parse(run.err, nullptr, false);
    return line.is_discarded() ? "" : line["error"].value("rule", "");
  }

  testing::ScratchDir dir_;
};

TEST_F(RunSandboxTest, RunsTheCatalogExampleInTheIsolatedProfile) {
  const auto run = run_in(Json{{"type", "process"}, {"isolation", "isolated"}});
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_EQ(Json::parse(run.out).at("output"), Json({{"totalCents", 500}}));
}

TEST_F(RunSandboxTest, RunsTheCatalogExampleThroughABubblewrapLaunch) {
  ASSERT_EQ(access(testing::kBubblewrap, X_OK), 0)
      << "bubblewrap is missing: scripts/install-deps installs it";
  const auto run = run_in(bwrap_sandbox("production"));
  ASSERT_EQ(run.exit_code, 0) << run.err << run.out;
  EXPECT_EQ(Json::parse(run.out).at("output"), Json({{"totalCents", 500}}));
}

TEST_F(RunSandboxTest, RefusesASandboxQualifiedForTests) {
  const auto run = run_in(bwrap_sandbox("test"));
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(rule_of(run), "test_adapter") << run.err;
  EXPECT_EQ(run.out, "");
}

TEST_F(RunSandboxTest, ExcludesTheProcessFlags) {
  const auto run = run_in(Json{{"type", "process"}}, {"--isolation", "isolated"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(run.out, "");
}

TEST_F(RunSandboxTest, NamesTheMemberABadFileGetsWrong) {
  const auto run = run_in(Json{{"type", "vm"}});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_NE(run.err.find("--sandbox: sandbox.type"), std::string::npos) << run.err;
}

}  // namespace
}  // namespace codemode
