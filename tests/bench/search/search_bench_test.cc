// codemode-search-bench: each baseline's command line, and the built bench on a tiny generated
// repository (make_large_repository.sh with 300 files), where every subject must count the same
// lines and codemode must follow its cursors over several pages. Never its speed.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/wait.h>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "search/search_cases.h"
#include "support/scratch_dir.h"

namespace codemode::search_bench {
namespace {

namespace fs = std::filesystem;

using Argv = std::vector<std::string>;

TEST(SearchCasesTest, EachCaseAsksEveryToolForTheSameLines) {
  const std::vector<SearchCase> cases =
      make_cases({.rare = "needle_token_xyz", .common = "return", .regex = "ret[a-z]+n"},
                 {"regex", "ignore_case", "rare", "common"});
  ASSERT_EQ(cases.size(), 4u);  // in kCaseNames order, whatever order they were asked in
  EXPECT_EQ(cases[0].name, "rare");
  EXPECT_EQ(cases[2].pattern, "NEEDLE_TOKEN_XYZ");
  EXPECT_FALSE(cases[2].case_sensitive);
  EXPECT_TRUE(cases[3].regex);

  const BaselineCommand command;
  EXPECT_EQ(git_grep_argv(command, "/r", "abc", cases[0], false),
            (Argv{"git", "-C", "/r", "grep", "-n", "-I", "--no-color", "-F", "-e",
                  "needle_token_xyz", "abc"}));
  EXPECT_EQ(git_grep_argv(command, "/r", "abc", cases[2], true),
            (Argv{"git", "-C", "/r", "grep", "-n", "-I", "--no-color", "--threads", "1", "-F", "-i",
                  "-e", "NEEDLE_TOKEN_XYZ", "abc"}));
  EXPECT_EQ(
      git_grep_argv(command, "/r", "abc", cases[3], false),
      (Argv{"git", "-C", "/r", "grep", "-n", "-I", "--no-color", "-E", "-e", "ret[a-z]+n", "abc"}));
  EXPECT_EQ(rg_argv(command, "/c", cases[1], true),
            (Argv{"rg", "--no-config", "-n", "--no-heading", "--hidden", "--no-ignore", "--color",
                  "never", "-j1", "-F", "-e", "return", "/c"}));
  EXPECT_EQ(rg_argv(command, "/c", cases[3], false),
            (Argv{"rg", "--no-config", "-n", "--no-heading", "--hidden", "--no-ignore", "--color",
                  "never", "-e", "ret[a-z]+n", "/c"}));
}

int run_shell(const std::string& command) {
  const int status = std::system(command.c_str());  // NOLINT(concurrency-mt-unsafe)
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(SearchBenchCliTest, TinyRepositoryEverySubjectCountsTheSameLines) {
  testing::ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const fs::path repository = scratch.path() / "tiny";
  ASSERT_EQ(run_shell(std::string(CODEMODE_SOURCE_DIR) + "/bench/search/make_large_repository.sh " +
                      repository.string() + " 300 2>/dev/null"),
            0);
  const std::string json = scratch.file("report.json");
  // 100 items a page: the common queries take several pages.
  const int status = run_shell(std::string(CODEMODE_SEARCH_BENCH_BINARY) +
                               " --repository tiny=" + repository.string() + " --checkout-dir " +
                               scratch.file("checkouts") + " --repetitions 1 --max-results 100 " +
                               "--json " + json + " >/dev/null 2>&1");
  ASSERT_EQ(status, 0);
  std::ifstream file(json);
  const Json report = Json::parse(file, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["allSucceeded"], true);
  EXPECT_EQ(report["countsAgree"], true);
  ASSERT_EQ(report["repositories"].size(), 1u);
  EXPECT_EQ(report["repositories"][0]["treeFiles"], 300);

  ASSERT_EQ(report["results"].size(), kCaseNames.size() * kSubjectNames.size());
  for (const std::string& name : kCaseNames) {
    std::vector<const Json*> rows;
    for (const Json& row : report["results"]) {
      if (row["case"] == name) rows.push_back(&row);
    }
    ASSERT_EQ(rows.size(), kSubjectNames.size()) << name;
    for (const Json* row : rows) {
      EXPECT_EQ((*row)["lines"], (*rows[0])["lines"]) << name << " " << (*row)["subject"];
      EXPECT_EQ((*row)["wallMs"]["count"], 1) << name << " " << (*row)["subject"];
      EXPECT_TRUE((*row)["failure"].is_null()) << name << " " << (*row)["subject"];
    }
    const Json& codemode = *rows[0];
    ASSERT_EQ(codemode["subject"], "codemode");
    // File 137 alone holds the rare word, once; `return` is on lines of 270 of the 300 files.
    if (name == "rare" || name == "ignore_case") {
      EXPECT_EQ(codemode["lines"], 1) << name;
      EXPECT_EQ(codemode["codemode"]["pages"], 1) << name;
    } else {
      EXPECT_GT(codemode["codemode"]["pages"].get<int>(), 1) << name;
    }
    EXPECT_FALSE(codemode["ratios"]["wallOverGitGrep"].is_null()) << name;
  }
}

}  // namespace
}  // namespace codemode::search_bench
