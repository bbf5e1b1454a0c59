// `codemode run`, as a user runs it: the binary is spawned, its stdout parsed as one JSON line,
// and its exit status checked (0 succeeded, 1 any other outcome, 2 usage error).
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "core/process/child_process.h"
#include "support/adapter_options.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/timing.h"

namespace codemode {
namespace {

const std::string kSource = CODEMODE_SOURCE_DIR;
const std::string kCatalog = kSource + "/examples/catalog";
const std::string kData = kSource + "/tests/cli/data";

// `run` gets the spawn mode, isolation profile and engine profile of this test run
// (CODEMODE_TEST_SPAWN, CODEMODE_TEST_ISOLATION, CODEMODE_TEST_ENGINE) as flags.
testing::ProcessRun codemode_cli(std::vector<std::string> arguments) {
  if (!arguments.empty() && arguments[0] == "run") {
    for (const std::string& flag : testing::adapter_flags()) arguments.push_back(flag);
  }
  arguments.insert(arguments.begin(), CODEMODE_CLI_BINARY);
  return testing::run_process(arguments, "");
}

// The one JSON line a run prints on stdout.
Json outcome_of(const testing::ProcessRun& run) {
  EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << "not exactly one line: " << run.out;
  return Json::parse(run.out);
}

class RunSubcommandTest : public ::testing::Test {
 protected:
  void SetUp() override { CODEMODE_REQUIRE_WORKER(); }
};

// The README's first example: TypeScript, in the model profile, with a console line.
TEST_F(RunSubcommandTest, RunsTheTypeScriptCatalogExampleInTheModelProfile) {
  const auto run = codemode_cli({"run", "--profile", "model", kCatalog + "/total.ts", "--input",
                                 R"({"skus":["ab","cde"]})", "--tools", kCatalog + "/tools.json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const Json outcome = outcome_of(run);
  EXPECT_EQ(outcome.at("status"), "succeeded") << outcome;
  EXPECT_EQ(outcome.at("output"), Json({{"totalCents", 500}}));
  EXPECT_EQ(outcome.at("logs"), Json({"priced 2 skus"}));
}

TEST_F(RunSubcommandTest, ATypeScriptErrorIsLocatedInTheFileAsWritten) {
  const auto run = codemode_cli({"run", kData + "/typed_mistake.ts"});
  EXPECT_EQ(run.exit_code, 1);
  const Json error = outcome_of(run).at("programError");
  EXPECT_EQ(error.at("name"), "ReferenceError");
  EXPECT_EQ(error.at("line"), 4);
  EXPECT_EQ(error.at("sourceLine"), "  return totl;");
}

TEST_F(RunSubcommandTest, AnEnumIsRefusedByNameAndLine) {
  const auto run = codemode_cli({"run", kData + "/enum.ts"});
  EXPECT_EQ(run.exit_code, 1);
  const Json error = outcome_of(run).at("programError");
  EXPECT_EQ(error.at("name"), "SyntaxError");
  EXPECT_EQ(error.at("line"), 1);
  EXPECT_NE(error.at("message").get<std::string>().find("enum"), std::string::npos);
}

TEST_F(RunSubcommandTest, RunsTheCatalogExample) {
  const auto run = codemode_cli({"run", kCatalog + "/total.js", "--input",
                                 R"({"skus":["ab","cde"]})", "--tools", kCatalog + "/tools.json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  const Json outcome = outcome_of(run);
  EXPECT_EQ(outcome.at("status"), "succeeded");
  EXPECT_EQ(outcome.at("output"), Json({{"totalCents", 500}}));
  EXPECT_EQ(outcome.at("usage").at("toolCalls"), 2);
  EXPECT_EQ(run.err, "");
}

TEST_F(RunSubcommandTest, ReadsTheInputFromAFile) {
  const auto run = codemode_cli({"run", kCatalog + "/total.js", "--input-file",
                                 kData + "/skus.json", "--tools", kCatalog + "/tools.json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(outcome_of(run).at("output"), Json({{"totalCents", 600}}));
}

TEST_F(RunSubcommandTest, AFailedOutcomeExitsOne) {
  // No --tools: the program's tools.call is refused, and it throws.
  const auto run = codemode_cli({"run", kCatalog + "/total.js", "--input", R"({"skus":["ab"]})"});
  EXPECT_EQ(run.exit_code, 1);
  const Json outcome = outcome_of(run);
  EXPECT_EQ(outcome.at("status"), "failed");
  EXPECT_EQ(outcome.at("error").at("code"), "TOOL_FAILED");
  EXPECT_EQ(outcome.at("error").at("rule"), "program_error");
  EXPECT_EQ(
      outcome.at("programError"),
      Json({{"name", "Error"},
            {"message", "price lookup failed"},
            {"line", 8},
            {"column", 46},
            {"sourceLine",
             "    if (result.status !== 'succeeded') throw new Error('price lookup failed');"}}));
}

TEST_F(RunSubcommandTest, ALeakyToolShowsItsSecretNowhere) {
  // The tool prints its secret argument and a host path on stdout and stderr and exits 3; the host
  // environment holds the secret too. Neither reaches the program, the outcome or the terminal.
  setenv("CODEMODE_CLI_TEST_TOKEN", "cm-secret-cli-41d9", 1);
  const auto run =
      codemode_cli({"run", kData + "/leaky.js", "--tools", kData + "/leaky_tools.json"});
  unsetenv("CODEMODE_CLI_TEST_TOKEN");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const Json outcome = outcome_of(run);
  EXPECT_EQ(outcome.at("error").at("rule"), "program_error");
  // What the program saw of the tool, rethrown: the fixed failure, nothing of the tool's text.
  EXPECT_EQ(Json::parse(outcome.at("programError").at("message").get<std::string>()),
            Json({{"status", "failed"},
                  {"error",
                   {{"code", "TOOL_FAILED"},
                    {"rule", "tool_failed"},
                    {"message", "The tool call failed."}}}}));
  for (const std::string* text : {&run.out, &run.err}) {
    EXPECT_EQ(text->find("cm-secret-cli-41d9"), std::string::npos) << *text;
    EXPECT_EQ(text->find("/private/codemode-secret"), std::string::npos) << *text;
  }
}

TEST_F(RunSubcommandTest, TheInputDefaultsToNull) {
  const auto run = codemode_cli({"run", kData + "/identity.js"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(outcome_of(run).at("output"), Json({{"input", nullptr}}));
}

TEST_F(RunSubcommandTest, LimitsFileOverridesFieldByField) {
  // cpuMillis 50 stops the endless loop; the other limits keep their defaults.
  const auto run =
      codemode_cli({"run", kData + "/loop.js", "--limits", kData + "/fast_limits.json"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(outcome_of(run).at("error").at("rule"), "cpu_limit");
}

TEST_F(RunSubcommandTest, AWorkerThatIsNotThereIsUnsupportedProfile) {
  const auto run =
      codemode_cli({"run", kData + "/identity.js", "--worker", "/nonexistent/codemode-worker"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(outcome_of(run).at("error").at("code"), "UNSUPPORTED_PROFILE");
}

// A usage error: exit 2, nothing on stdout, one JSON line on stderr naming the rule.
void expect_usage_error(const testing::ProcessRun& run, const std::string& rule = "command_line") {
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.out, "");
  ASSERT_FALSE(run.err.empty());
  ASSERT_EQ(run.err.find('\n'), run.err.size() - 1) << run.err;
  const Json error = Json::parse(run.err).at("error");
  EXPECT_EQ(error.at("code"), "INVALID_CONFIG");
  EXPECT_EQ(error.at("rule"), rule);
}

TEST_F(RunSubcommandTest, UnreadableProgramIsAUsageError) {
  expect_usage_error(codemode_cli({"run", "/nonexistent/program.js"}));
}

TEST_F(RunSubcommandTest, InvalidInputJsonIsAUsageError) {
  expect_usage_error(codemode_cli({"run", kCatalog + "/total.js", "--input", "{skus:"}));
  expect_usage_error(
      codemode_cli({"run", kCatalog + "/total.js", "--input-file", kCatalog + "/total.js"}));
}

TEST_F(RunSubcommandTest, InvalidToolsFileIsAUsageError) {
  expect_usage_error(
      codemode_cli({"run", kCatalog + "/total.js", "--tools", kData + "/fast_limits.json"}),
      "tools_file");
  expect_usage_error(
      codemode_cli({"run", kCatalog + "/total.js", "--tools", kCatalog + "/total.js"}));
}

TEST_F(RunSubcommandTest, InvalidLimitsAreAUsageError) {
  expect_usage_error(
      codemode_cli({"run", kCatalog + "/total.js", "--limits", kData + "/unknown_limit.json"}));
  expect_usage_error(
      codemode_cli({"run", kCatalog + "/total.js", "--limits", kData + "/too_much_cpu.json"}));
}

// A limits file that lowers maxToolCalls below the default concurrency (8) and says nothing of
// maxToolConcurrency runs: the default follows maxToolCalls down. Before this, the default the
// user never wrote refused the file. A concurrency written above the calls is still refused.
TEST_F(RunSubcommandTest, ADefaultConcurrencyFollowsALowerMaxToolCalls) {
  const auto run =
      codemode_cli({"run", kCatalog + "/total.js", "--input", R"({"skus":["ab","cde"]})", "--tools",
                    kCatalog + "/tools.json", "--limits", kData + "/few_tool_calls.json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(outcome_of(run).at("output"), Json({{"totalCents", 500}}));
  const auto written =
      codemode_cli({"run", kCatalog + "/total.js", "--tools", kCatalog + "/tools.json", "--limits",
                    kData + "/concurrency_above_calls.json"});
  expect_usage_error(written);
  EXPECT_NE(written.err.find("maxToolConcurrency cannot be greater than limits.maxToolCalls"),
            std::string::npos)
      << written.err;
}

TEST_F(RunSubcommandTest, BadFlagsExitTwo) {
  EXPECT_EQ(codemode_cli({"run", kCatalog + "/total.js", "--no-such-flag"}).exit_code, 2);
  EXPECT_EQ(codemode_cli({"run"}).exit_code, 2);
  EXPECT_EQ(codemode_cli({"run", kCatalog + "/total.js", "--spawn", "vfork"}).exit_code, 2);
  EXPECT_EQ(codemode_cli({"run", kCatalog + "/total.js", "--isolation", "docker"}).exit_code, 2);
  EXPECT_EQ(codemode_cli({"run", kCatalog + "/total.js", "--engine", "ion"}).exit_code, 2);
  EXPECT_EQ(codemode_cli({}).exit_code, 2);
  EXPECT_EQ(codemode_cli({"run", kCatalog + "/total.js", "--input", "1", "--input-file",
                          kData + "/skus.json"})
                .exit_code,
            2);
}

TEST_F(RunSubcommandTest, HelpDescribesTheFlagsAndDefaults) {
  const auto run = codemode_cli({"run", "--help"});
  EXPECT_EQ(run.exit_code, 0);
  for (const char* text : {"--input",
                           "--input-file",
                           "--tools",
                           "--limits",
                           "--worker",
                           "--spawn",
                           "fork_server",
                           "exec",
                           "--isolation",
                           "isolated",
                           "--engine",
                           "interpreter",
                           "jit",
                           "WEAKER",
                           "cpuMillis 1000",
                           "wallTimeMillis 10000",
                           "memoryBytes 67108864",
                           "maxToolCalls 100",
                           "maxToolConcurrency 8",
                           "Exit status: 0"}) {
    EXPECT_NE(run.out.find(text), std::string::npos) << text;
  }
}

// A runtime killed mid-call (SIGKILL: no destructor, no cleanup of its own) takes its command
// tool with it, so the tool cannot finish an effect after the call was given up. The tool records
// its pid, waits a second, then makes its effect (a file); `codemode run` is killed as soon as the
// pid is there, and two seconds later the effect must still be missing and the pid gone. Only the
// tool is bound: what a tool starts itself may outlive the runtime (docs/security.md), which is
// why this tool is one perl process that starts nothing.
TEST_F(RunSubcommandTest, ACommandToolDiesWithTheRunThatStartedIt) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string pid_file = dir.file("tool.pid");
  const std::string effect = dir.file("effect");
  const std::string script =
      "open(my $f, '>', \"$ARGV[0].tmp\") or die; print $f $$; close $f; "
      "rename(\"$ARGV[0].tmp\", $ARGV[0]) or die; select(undef, undef, undef, 1.0); "
      "open(my $e, '>', $ARGV[1]) or die; close $e; print '{}';";
  const Json tools{{"tools",
                    {{{"id", "test.slow_effect"},
                      {"version", "1"},
                      {"description", "Makes its effect after a second."},
                      {"effects", "write"},
                      {"timeoutMs", 30000},
                      {"command", {"/usr/bin/perl", "-e", script, pid_file, effect}}}}}};
  std::ofstream(dir.file("tools.json")) << tools.dump();
  std::ofstream(dir.file("program.js"))
      << "async (input, tools) => { await tools.call('test.slow_effect', {}); return {}; }";
  std::vector<std::string> argv{CODEMODE_CLI_BINARY, "run", dir.file("program.js"), "--tools",
                                dir.file("tools.json")};
  for (const std::string& flag : testing::adapter_flags()) argv.push_back(flag);
  auto run = internal::spawn_child(
      {.path = argv[0], .argv = argv, .stderr_mode = internal::SpawnOptions::Stderr::kDiscard});
  ASSERT_TRUE(run.ok());
  const auto started = std::chrono::steady_clock::now();
  while (!std::filesystem::exists(pid_file) &&
         std::chrono::steady_clock::now() - started < testing::slack(std::chrono::seconds(10))) {
    usleep(1000);
  }
  ASSERT_TRUE(std::filesystem::exists(pid_file)) << "the tool never started";
  ASSERT_EQ(run->process.kill_and_reap()->signal, SIGKILL);
  pid_t tool = 0;
  std::ifstream(pid_file) >> tool;
  ASSERT_GT(tool, 0);
  usleep(2'000'000);  // twice the tool's wait: an unbound tool has made its effect by now
  EXPECT_FALSE(std::filesystem::exists(effect)) << "the tool outlived the runtime";
  // Gone, or a zombie its new parent has not reaped yet: either way it runs no more.
  std::string state;
  if (std::ifstream stat("/proc/" + std::to_string(tool) + "/stat"); stat) {
    std::string pid_text, name;
    stat >> pid_text >> name >> state;
  }
  EXPECT_TRUE(state.empty() || state == "Z" || state == "X") << "tool state " << state;
}

}  // namespace
}  // namespace codemode
