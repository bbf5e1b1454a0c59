// The repository tools over the fixture repositories (make_fixture_repositories.sh), made once per
// ctest run into the build tree by the `repositories` fixture and only ever read. A test that
// changes a repository makes its own in a ScratchDir.
//
// Every call checks what every answer must hold: no host path of the fixture, in an output or in
// an error's message.
#ifndef CODEMODE_TESTS_REPOSITORY_REPOSITORY_FIXTURE_H_
#define CODEMODE_TESTS_REPOSITORY_REPOSITORY_FIXTURE_H_

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "codemode/broker.h"
#include "codemode/budget.h"
#include "codemode/repository_tools.h"

namespace codemode::testing {

inline std::string fixture_root() {
  return std::string(CODEMODE_BINARY_DIR) + "/repository-fixture";
}

// Runs a shell command line; its exit status.
inline int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());  // NOLINT(concurrency-mt-unsafe)
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// git with no configuration of the machine's, a fixed identity and fixed dates.
inline std::string git(const std::filesystem::path& directory) {
  return "env -u GIT_DIR GIT_CONFIG_NOSYSTEM=1 HOME=/nonexistent GIT_AUTHOR_NAME=t "
         "GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com "
         "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z GIT_COMMITTER_DATE=2026-01-01T00:00:00Z "
         "git -c init.defaultBranch=main -C '" +
         directory.string() + "' ";
}

// What the broker needs to call `tool` once, granted and budgeted.
inline InvokeOptions invoke_options_for(const Tool& tool, const std::string& call_id) {
  InvokeOptions options{.run_id = "run",
                        .call_id = call_id,
                        .scope = {.principal_id = "alice", .project_id = "demo"}};
  options.permissions.allow = required_grants(tool);
  options.budget = Budget::create({.max_cost_micros = 0, .max_calls = 1'000'000}).value();
  options.max_output_bytes = 16u << 20;
  return options;
}

class RepositoryToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::is_directory(fixture_root() + "/code/alpha"))
        << "the repositories fixture (ctest -R repository_fixture) has not run";
    make_tools({});
  }

  void make_tools(RepositoryToolsOptions options) {
    if (options.roots.empty()) options.roots = {{.name = "code", .path = fixture_root() + "/code"}};
    Result<RepositoryTools> made = make_repository_tools(options);
    ASSERT_TRUE(made.ok()) << made.error().message;
    tools_ = std::move(*made);
  }

  const Tool& tool(std::string_view operation) const {
    for (const Tool& tool : tools_.tools) {
      if (tool.id() == "repo." + std::string(operation)) return tool;
    }
    ADD_FAILURE() << "no tool " << operation;
    return tools_.tools.front();
  }

  ToolOutcome call(std::string_view operation, const Json& input) {
    const Tool& called = tool(operation);
    ToolOutcome outcome =
        invoke_tool(called, input, invoke_options_for(called, "call-" + std::to_string(++calls_)));
    const std::string shown = (outcome.output ? outcome.output->dump() : "") +
                              (outcome.error ? outcome.error->message : "") +
                              outcome.tool_message.value_or("");
    EXPECT_EQ(shown.find(fixture_root()), std::string::npos) << shown;
    return outcome;
  }

  // The output of a call that must succeed.
  Json ok(std::string_view operation, const Json& input) {
    ToolOutcome outcome = call(operation, input);
    EXPECT_TRUE(outcome.ok()) << operation << " " << input.dump() << ": "
                              << (outcome.error ? outcome.error->rule : "") << " "
                              << outcome.tool_message.value_or("");
    return outcome.output.value_or(Json());
  }

  // The rule of a call that must fail.
  std::string rule(std::string_view operation, const Json& input) {
    ToolOutcome outcome = call(operation, input);
    EXPECT_FALSE(outcome.ok()) << operation << " " << input.dump();
    return outcome.error ? outcome.error->rule : "";
  }

  std::string open_snapshot(const std::string& repo, const std::string& ref = "") {
    Json input{{"repo", repo}};
    if (!ref.empty()) input["ref"] = ref;
    return ok("open", input).value("snapshot_id", "");
  }

  RepositoryTools tools_;
  int calls_ = 0;
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_REPOSITORY_REPOSITORY_FIXTURE_H_
