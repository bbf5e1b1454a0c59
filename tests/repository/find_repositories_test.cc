// findRepositories and the roots' refusals: what is found, what is never reached.
#include <set>

#include <gtest/gtest.h>

#include "repository_fixture.h"
#include "support/scratch_dir.h"

namespace codemode::testing {
namespace {

std::set<std::string> names(const Json& page) {
  std::set<std::string> found;
  for (const Json& item : page["items"]) found.insert(item["repo"].get<std::string>());
  return found;
}

TEST_F(RepositoryToolsTest, FindsTheRepositoriesUnderTheRootWithinTheWalkDepth) {
  const Json page = ok("findRepositories", Json::object());
  EXPECT_EQ(names(page), (std::set<std::string>{"code/alpha", "code/empty", "code/group/bare.git",
                                                "code/shared", "code/withsub"}));
  EXPECT_FALSE(page["has_more"]);
  EXPECT_EQ(page["walk_truncated"], false);
  for (const Json& item : page["items"]) {
    EXPECT_EQ(item["bare"], item["repo"] == "code/group/bare.git") << item;
  }
}

TEST_F(RepositoryToolsTest, ADeeperWalkFindsTheDeepRepositoryButNeverLeavesTheRoot) {
  make_tools({.walk_depth = 16});
  const std::set<std::string> found = names(ok("findRepositories", Json::object()));
  EXPECT_TRUE(found.contains("code/deep/a/b/c/d/e/f/g/h/deeprepo"));
  for (const std::string& name : found) {
    EXPECT_EQ(name.find("secretrepo"), std::string::npos);  // beside the root
    EXPECT_FALSE(name.starts_with("code/escape"));          // a symbolic link to /
  }
}

TEST_F(RepositoryToolsTest, PatternsAreSubstringsInAnyCaseOrGlobs) {
  EXPECT_EQ(names(ok("findRepositories", {{"pattern", "ALPHA"}})),
            (std::set<std::string>{"code/alpha"}));
  EXPECT_EQ(names(ok("findRepositories", {{"pattern", "*.git"}})),
            (std::set<std::string>{"code/group/bare.git"}));
  EXPECT_EQ(ok("findRepositories", {{"pattern", "nothing-like-this"}})["items"].size(), 0u);
}

TEST_F(RepositoryToolsTest, PagesFollowTheirCursorToTheEndWithoutRepeats) {
  std::vector<std::string> seen;
  Json input{{"max_items", 2}};
  for (int page_number = 0; page_number < 10; ++page_number) {
    const Json page = ok("findRepositories", input);
    for (const Json& item : page["items"]) seen.push_back(item["repo"]);
    if (!page["has_more"]) {
      EXPECT_TRUE(page["next_cursor"].is_null());
      break;
    }
    input["cursor"] = page["next_cursor"];
  }
  EXPECT_EQ(seen, (std::vector<std::string>{"code/alpha", "code/empty", "code/group/bare.git",
                                            "code/shared", "code/withsub"}));
}

TEST_F(RepositoryToolsTest, NamesOutsideTheRootsAreUnknown) {
  for (const char* name :
       {"other/secretrepo", "code/../other/secretrepo", "code/./alpha", "code//alpha", "/etc",
        "code/alpha/.git", "code/notarepo", "code/nope", ""}) {
    SCOPED_TRACE(name);
    const std::string refused = rule("open", {{"repo", name}});
    EXPECT_TRUE(refused == "unknown_repository" || refused == "invalid_arguments" ||
                refused == "input_schema")
        << refused;
  }
}

TEST_F(RepositoryToolsTest, OpenReachesOnlyWhatTheWalkFinds) {
  // A checkout inside another repository's working tree: its content is the outer repository's
  // to decide, so it is no repository of the root's.
  ASSERT_TRUE(std::filesystem::exists(fixture_root() + "/code/withsub/vendor/alpha/README.md"));
  EXPECT_EQ(rule("open", {{"repo", "code/withsub/vendor/alpha"}}), "unknown_repository");
  EXPECT_EQ(rule("open", {{"repo", "code/deep/a/b/c/d/e/f/g/h/deeprepo"}}), "unknown_repository");
  make_tools({.walk_depth = 16});
  ok("open", {{"repo", "code/deep/a/b/c/d/e/f/g/h/deeprepo"}});
}

TEST_F(RepositoryToolsTest, ASymbolicLinkOnTheWayIsRefused) {
  EXPECT_EQ(rule("open", {{"repo", "code/escape/etc"}}), "repository_refused");
}

TEST_F(RepositoryToolsTest, BorrowedObjectsAreRefused) {
  ToolOutcome outcome = call("open", {{"repo", "code/shared"}});
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.error->rule, "repository_refused");
  EXPECT_NE(outcome.tool_message.value_or("").find("alternates"), std::string::npos);
}

TEST(RepositoryRootsTest, AGitDirectoryOutsideTheRootIsRefused) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const auto root = scratch.path() / "root";
  const auto elsewhere = scratch.path() / "elsewhere";
  std::filesystem::create_directories(root / "linked");
  std::filesystem::create_directories(elsewhere);
  ASSERT_EQ(run_shell(git(elsewhere) + "init -q store && " + git(elsewhere / "store") +
                      "commit -q --allow-empty -m one"),
            0);
  // A worktree whose .git file points at a git directory beside the root.
  ASSERT_EQ(run_shell("printf 'gitdir: " + (elsewhere / "store" / ".git").string() + "\\n' > '" +
                      (root / "linked" / ".git").string() + "'"),
            0);
  Result<RepositoryTools> tools =
      make_repository_tools({.roots = {{.name = "r", .path = root.string()}}});
  ASSERT_TRUE(tools.ok());
  ToolOutcome outcome = invoke_tool(tools->tools[2], {{"repo", "r/linked"}},
                                    invoke_options_for(tools->tools[2], "c1"));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.error->rule, "repository_refused");
  EXPECT_EQ(outcome.tool_message.value_or("").find(scratch.path().string()), std::string::npos);
}

TEST(RepositoryRootsTest, APackLinkedFromAnotherStoreIsRefused) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const auto root = scratch.path() / "root";
  std::filesystem::create_directories(root / "borrower");
  std::filesystem::create_directories(scratch.path() / "lender");
  ASSERT_EQ(
      run_shell(git(scratch.path() / "lender") + "init -q && " + git(scratch.path() / "lender") +
                "commit -q --allow-empty -m one && " + git(scratch.path() / "lender") +
                "gc -q && " + git(root / "borrower") + "init -q"),
      0);
  for (const auto& pack : std::filesystem::directory_iterator(scratch.path() / "lender" / ".git" /
                                                              "objects" / "pack")) {
    std::filesystem::create_symlink(
        pack.path(), root / "borrower" / ".git" / "objects" / "pack" / pack.path().filename());
  }
  Result<RepositoryTools> tools =
      make_repository_tools({.roots = {{.name = "r", .path = root.string()}}});
  ASSERT_TRUE(tools.ok());
  ToolOutcome outcome = invoke_tool(tools->tools[2], {{"repo", "r/borrower"}},
                                    invoke_options_for(tools->tools[2], "c1"));
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.error->rule, "repository_refused");
}

TEST(RepositoryToolsOptionsTest, BadOptionsNameTheirField) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::string dir = scratch.path().string();
  struct Case {
    RepositoryToolsOptions options;
    std::string field;
  };
  const std::vector<Case> cases = {
      {{}, "roots"},
      {{.roots = {{.name = "1x", .path = dir}}}, "roots"},
      {{.roots = {{.name = "a", .path = "relative"}}}, "roots.a"},
      {{.roots = {{.name = "a", .path = dir + "/missing"}}}, "roots.a"},
      {{.roots = {{.name = "a", .path = dir}, {.name = "a", .path = dir}}}, "roots.a"},
      {{.roots = {{.name = "a", .path = dir}}, .tool_namespace = "re po"}, "tool_namespace"},
      {{.roots = {{.name = "a", .path = dir}}, .walk_depth = 0}, "walk_depth"},
      {{.roots = {{.name = "a", .path = dir}}, .search_time = std::chrono::milliseconds(1)},
       "search_time"},
      {{.roots = {{.name = "a", .path = dir}}, .max_snapshots = 0}, "max_snapshots"},
  };
  for (const Case& bad : cases) {
    Result<RepositoryTools> tools = make_repository_tools(bad.options);
    ASSERT_FALSE(tools.ok()) << bad.field;
    EXPECT_EQ(tools.error().code, ErrorCode::kInvalidConfig);
    EXPECT_EQ(tools.error().rule, "repository_tools");
    EXPECT_TRUE(tools.error().message.starts_with(bad.field)) << tools.error().message;
    EXPECT_EQ(tools.error().message.find(dir), std::string::npos);
  }
}

TEST_F(RepositoryToolsTest, ThePageAndSnapshotToolsAreNamed) {
  EXPECT_EQ(tools_.snapshot_tools, (std::vector<std::string>{"repo.open"}));
  EXPECT_EQ(tools_.page_tools,
            (std::vector<std::string>{"repo.findRepositories", "repo.refs", "repo.list",
                                      "repo.searchCode", "repo.read", "repo.context"}));
  for (const Tool& tool : tools_.tools) EXPECT_EQ(tool.effects(), ToolEffects::kRead);
}

}  // namespace
}  // namespace codemode::testing
