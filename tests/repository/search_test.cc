// searchCode and context: matching, filters, paging, skipped files, the scan's time budget, and
// that nothing in a repository changes.
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "repository_fixture.h"
#include "support/scratch_dir.h"

namespace codemode::testing {
namespace {

class SearchTest : public RepositoryToolsTest {
 protected:
  void SetUp() override {
    RepositoryToolsTest::SetUp();
    snapshot_ = open_snapshot("code/alpha");
  }
  Json at(Json input) {
    input["snapshot_id"] = snapshot_;
    return input;
  }
  // "path:line:text" of every hit, following cursors to the end.
  std::vector<std::string> all_hits(Json input) {
    std::vector<std::string> hits;
    for (int pages = 0; pages < 1000; ++pages) {
      const Json page = ok("searchCode", input);
      for (const Json& item : page["items"]) {
        hits.push_back(item["path"].get<std::string>() + ":" +
                       std::to_string(item["line_number"].get<int>()) + ":" +
                       item["text"].get<std::string>());
      }
      if (!page["has_more"]) {
        EXPECT_TRUE(page["next_cursor"].is_null());
        return hits;
      }
      input["cursor"] = page["next_cursor"];
    }
    ADD_FAILURE() << "the cursor never ended";
    return hits;
  }
  std::string snapshot_;
};

TEST_F(SearchTest, LiteralQueriesFindTheirLinesWithProvenance) {
  const Json page = ok("searchCode", at({{"queries", {"needle"}}}));
  ASSERT_EQ(page["items"].size(), 1u);
  EXPECT_EQ(page["items"][0]["path"], "src/nested/deep/file.txt");
  EXPECT_EQ(page["items"][0]["line_number"], 1);
  EXPECT_EQ(page["items"][0]["text"], "needle in a haystack");
  EXPECT_EQ(page["items"][0]["blob_sha"].get<std::string>().size(), 40u);
  EXPECT_EQ(page["snapshot_id"], snapshot_);
  EXPECT_EQ(page["repo"], "code/alpha");
  EXPECT_EQ(page["scan"]["skipped_binary"], 1);  // bin/blob.bin
}

TEST_F(SearchTest, RegexAndCaseAndSpecialCharacters) {
  EXPECT_EQ(all_hits(at({{"queries", {"^(alpha|beta)$"}}, {"regex", true}})),
            (std::vector<std::string>{"README.md:1:alpha", "README.md:2:beta"}));
  EXPECT_EQ(all_hits(at({{"queries", {"ALPHA"}}, {"case_sensitive", false}, {"glob", "*.md"}})),
            (std::vector<std::string>{"README.md:1:alpha"}));
  // Literal by default: regular expression characters are text.
  EXPECT_EQ(all_hits(at({{"queries", {"u32 { 42 }"}}})).size(), 1u);
  EXPECT_EQ(all_hits(at({{"queries", {"a.p.a"}}})).size(), 0u);
  EXPECT_EQ(rule("searchCode", at({{"queries", {"(unclosed"}}, {"regex", true}})),
            "invalid_pattern");
}

TEST_F(SearchTest, FiltersByPrefixGlobAndExclude) {
  EXPECT_EQ(all_hits(at({{"queries", {"42"}}, {"path_prefix", "src"}})),
            (std::vector<std::string>{
                "src/lib.rs:" +
                std::to_string(
                    ok("searchCode", at({{"queries", {"42"}},
                                         {"path_prefix", "src/lib.rs"}}))["items"][0]["line_number"]
                        .get<int>()) +
                ":pub fn answer() -> u32 { 42 }"}));
  EXPECT_EQ(all_hits(at({{"queries", {"alpha"}}, {"exclude", {"README.md"}}})).size(), 0u);
  EXPECT_EQ(all_hits(at({{"queries", {"alpha"}}, {"glob", "README.md"}})).size(), 1u);
  EXPECT_EQ(all_hits(at({{"queries", {"alpha"}}, {"path_prefix", "sr"}})).size(), 0u);  // not "src"
  EXPECT_EQ(rule("searchCode", at({{"queries", {"x"}}, {"path_prefix", "../"}})), "path_refused");
}

TEST_F(SearchTest, AFirstMatchLongerThanThePageIsCutToFit) {
  const Json page = ok("searchCode", at({{"queries", {"mmmm"}}, {"max_bytes", 1500}}));
  ASSERT_EQ(page["items"].size(), 1u);
  EXPECT_EQ(page["items"][0]["cut"], true);
  EXPECT_LE(page.dump().size(), 1500u);
  EXPECT_TRUE(page["has_more"] == false || page["next_cursor"].is_string());
}

TEST_F(SearchTest, ContextLinesSurroundAMatch) {
  const Json page =
      ok("searchCode", at({{"queries", {"beta"}}, {"context_lines", 1}, {"glob", "README.md"}}));
  ASSERT_EQ(page["items"].size(), 1u);
  EXPECT_EQ(page["items"][0]["before"], Json::parse(R"(["alpha"])"));
  EXPECT_EQ(page["items"][0]["after"], Json::parse(R"(["gamma2"])"));
}

TEST_F(SearchTest, CursorsExhaustStablyWithoutDuplicates) {
  const Json input = at({{"queries", {"row 1"}}, {"max_results", 7}});
  const std::vector<std::string> first = all_hits(input);
  EXPECT_EQ(first, all_hits(input));  // the same twice
  const std::set<std::string> unique(first.begin(), first.end());
  EXPECT_EQ(unique.size(), first.size());
  std::vector<std::string> at_once = all_hits(at({{"queries", {"row 1"}}, {"max_results", 1000}}));
  EXPECT_EQ(first, at_once);
  EXPECT_GT(first.size(), 100u);  // row 1, row 10..19, row 100..199 of medium.txt
}

TEST_F(SearchTest, AScanPastItsTimeBudgetSaysSoAndContinues) {
  make_tools({.search_time = std::chrono::milliseconds(10)});
  snapshot_ = open_snapshot("code/alpha");
  // big.txt takes longer than 10 ms to inflate and scan; the one match is in a later file.
  Json input = at({{"queries", {"needle in a"}}});
  bool stopped = false;
  std::vector<std::string> hits;
  for (int pages = 0; pages < 100; ++pages) {
    const Json page = ok("searchCode", input);
    if (page.value("stopped", "") == "time_budget") {
      stopped = true;
      EXPECT_TRUE(page["has_more"]);
    }
    for (const Json& item : page["items"]) hits.push_back(item["path"]);
    if (!page["has_more"]) break;
    input["cursor"] = page["next_cursor"];
  }
  EXPECT_TRUE(stopped);
  EXPECT_EQ(hits, (std::vector<std::string>{"src/nested/deep/file.txt"}));
}

TEST(SearchLimitsTest, FilesOverEightMebibytesAreSkippedAndCounted) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const auto repo = scratch.path() / "code" / "large";
  std::filesystem::create_directories(repo);
  ASSERT_EQ(
      run_shell("head -c 9437184 /dev/zero | tr '\\0' 'a' > '" + (repo / "huge.txt").string() +
                "' && echo 'a needle' > '" + (repo / "small.txt").string() + "' && " + git(repo) +
                "init -q && " + git(repo) + "add . && " + git(repo) + "commit -q -m one"),
      0);
  Result<RepositoryTools> made = make_repository_tools(
      {.roots = {{.name = "code", .path = (scratch.path() / "code").string()}}});
  ASSERT_TRUE(made.ok());
  const auto call = [&](std::size_t index, const Json& input) {
    return invoke_tool(made->tools[index], input,
                       invoke_options_for(made->tools[index], "c" + std::to_string(index)));
  };
  ToolOutcome opened = call(2, {{"repo", "code/large"}});
  ASSERT_TRUE(opened.ok());
  ToolOutcome found =
      call(4, {{"snapshot_id", (*opened.output)["snapshot_id"]}, {"queries", {"a"}}});
  ASSERT_TRUE(found.ok());
  EXPECT_EQ((*found.output)["scan"]["skipped_large"], 1);
  ASSERT_EQ((*found.output)["items"].size(), 1u);
  EXPECT_EQ((*found.output)["items"][0]["path"], "small.txt");
}

TEST_F(SearchTest, ContextRanksWindowsWhereMoreQueriesMeet) {
  const Json page =
      ok("context", at({{"queries", {"alpha", "gamma2", "needle"}}, {"context_lines", 1}}));
  ASSERT_GE(page["items"].size(), 2u);
  const Json& best = page["items"][0];
  EXPECT_EQ(best["path"], "README.md");
  EXPECT_EQ(best["queries_matched"], Json::parse("[0,1]"));
  EXPECT_EQ(best["start_line"], 1);
  EXPECT_EQ(best["end_line"], 3);
  EXPECT_EQ(best["text"], "alpha\nbeta\ngamma2");
  EXPECT_EQ(best["matched_lines"], Json::parse("[1,3]"));
  EXPECT_EQ(page["items"][1]["queries_matched"].size(), 1u);
  // One window a page, by cursor, the same windows in the same order.
  Json input =
      at({{"queries", {"alpha", "gamma2", "needle"}}, {"context_lines", 1}, {"max_results", 1}});
  std::vector<Json> windows;
  for (int pages = 0; pages < 50; ++pages) {
    const Json one = ok("context", input);
    for (const Json& item : one["items"]) windows.push_back(item);
    if (!one["has_more"]) break;
    input["cursor"] = one["next_cursor"];
  }
  EXPECT_EQ(Json(windows), page["items"]);
}

// A digest of every file under `directory`: names, sizes, modes, times and contents.
std::string tree_digest(const std::filesystem::path& directory) {
  std::ostringstream out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           directory, std::filesystem::directory_options::none)) {
    std::error_code ignored;
    const auto status = entry.symlink_status();
    out << entry.path().string() << ' ' << static_cast<int>(status.permissions()) << ' '
        << entry.last_write_time(ignored).time_since_epoch().count();
    if (status.type() == std::filesystem::file_type::regular) {
      std::ifstream file(entry.path(), std::ios::binary);
      out << ' ' << sha256_hex(std::string(std::istreambuf_iterator<char>(file), {}));
    }
    out << '\n';
  }
  return out.str();
}

TEST_F(SearchTest, NothingInARepositoryChanges) {
  const auto alpha = std::filesystem::path(fixture_root()) / "code" / "alpha";
  const std::string before = tree_digest(alpha);
  ok("refs", {{"repo", "code/alpha"}});
  ok("list", at({{"depth", 32}}));
  ok("read", at({{"path", "big.txt"}, {"max_lines", 1000}}));
  ok("searchCode", at({{"queries", {"line"}}}));
  ok("context", at({{"queries", {"alpha", "beta"}}}));
  ok("open", {{"repo", "code/alpha"}, {"ref", "feature"}});
  EXPECT_EQ(before, tree_digest(alpha));
}

}  // namespace
}  // namespace codemode::testing

namespace codemode::testing {
namespace {

// A commit whose trees name one subtree ten times over, seven levels down: ten million paths from
// a few objects. Every walk stops at its cap and says so.
TEST(SearchLimitsTest, ATreeBombIsWalkedOnlyToTheCap) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const auto repo = scratch.path() / "code" / "bomb";
  std::filesystem::create_directories(repo);
  const std::string g = git(repo);
  ASSERT_EQ(run_shell(g + "init -q && blob=$(echo needle | " + g +
                      "hash-object -w --stdin) && tree=$(for i in 0 1 2 3 4 5 6 7 8 9; do "
                      "printf '100644 blob %s\\tf%s\\n' $blob $i; done | " +
                      g +
                      "mktree) && for level in 1 2 3 4 5 6 7; do tree=$(for i in 0 1 2 3 4 5 6 7 8 "
                      "9; do printf '040000 tree %s\\td%s\\n' $tree $i; done | " +
                      g + "mktree); done && commit=$(" + g + "commit-tree -m bomb $tree) && " + g +
                      "update-ref refs/heads/main $commit"),
            0);
  // The longest search time there is: walking to the cap takes over a second under the
  // sanitizers, and this test is about the cap, not about the clock that ends a page.
  Result<RepositoryTools> made = make_repository_tools(
      {.roots = {{.name = "code", .path = (scratch.path() / "code").string()}},
       .search_time = std::chrono::milliseconds(60'000)});
  ASSERT_TRUE(made.ok());
  const auto call = [&](std::size_t index, const Json& input) {
    return invoke_tool(made->tools[index], input, invoke_options_for(made->tools[index], "c"));
  };
  ToolOutcome opened = call(2, {{"repo", "code/bomb"}});
  ASSERT_TRUE(opened.ok());
  const Json snapshot = (*opened.output)["snapshot_id"];
  ToolOutcome found =
      call(4, {{"snapshot_id", snapshot}, {"queries", {"needle"}}, {"max_results", 5}});
  ASSERT_TRUE(found.ok()) << found.error->rule;
  EXPECT_EQ((*found.output)["walk_truncated"], true);
  EXPECT_EQ((*found.output)["items"].size(), 5u);
  ToolOutcome listed = call(3, {{"snapshot_id", snapshot}, {"depth", 32}, {"format", "paths"}});
  ASSERT_TRUE(listed.ok());
  EXPECT_EQ((*listed.output)["walk_truncated"], true);
}

}  // namespace
}  // namespace codemode::testing
