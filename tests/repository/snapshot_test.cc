// refs and open: what a snapshot pins, how long it lives, and what it refuses.
#include <gtest/gtest.h>

#include "repository_fixture.h"
#include "support/scratch_dir.h"

namespace codemode::testing {
namespace {

TEST_F(RepositoryToolsTest, RefsListsHeadBranchesAndTagsWithTheirCommits) {
  const Json page = ok("refs", {{"repo", "code/alpha"}});
  EXPECT_EQ(page["head"]["ref"], "refs/heads/main");
  EXPECT_EQ(page["head"]["detached"], false);
  std::map<std::string, Json> by_name;
  for (const Json& item : page["items"]) by_name[item["name"]] = item;
  ASSERT_TRUE(by_name.contains("refs/heads/main"));
  ASSERT_TRUE(by_name.contains("refs/heads/feature"));
  ASSERT_TRUE(by_name.contains("refs/tags/v1.0"));
  ASSERT_TRUE(by_name.contains("refs/tags/light"));
  EXPECT_EQ(by_name["refs/heads/main"]["commit_sha"], page["head"]["commit_sha"]);
  EXPECT_EQ(by_name["refs/tags/v1.0"]["kind"], "tag");
  // The annotated tag names its own object and peels to the commit the lightweight one names.
  EXPECT_TRUE(by_name["refs/tags/v1.0"].contains("tag_sha"));
  EXPECT_FALSE(by_name["refs/tags/light"].contains("tag_sha"));
  EXPECT_EQ(by_name["refs/tags/v1.0"]["commit_sha"], by_name["refs/tags/light"]["commit_sha"]);

  const Json tags = ok("refs", {{"repo", "code/alpha"}, {"ref", "refs/tags/"}});
  EXPECT_EQ(tags["items"].size(), 2u);
}

TEST_F(RepositoryToolsTest, OpenPinsHeadABranchATagOrACommit) {
  const Json head = ok("open", {{"repo", "code/alpha"}});
  EXPECT_EQ(head["ref"], "refs/heads/main");
  const std::string sha = head["commit_sha"];
  EXPECT_EQ(head["snapshot_id"], "code/alpha@" + sha);
  EXPECT_EQ(sha.size(), 40u);

  const Json feature = ok("open", {{"repo", "code/alpha"}, {"ref", "feature"}});
  EXPECT_EQ(feature["ref"], "refs/heads/feature");
  EXPECT_NE(feature["commit_sha"], sha);
  const Json tag = ok("open", {{"repo", "code/alpha"}, {"ref", "v1.0"}});
  EXPECT_EQ(tag["ref"], "refs/tags/v1.0");
  const Json by_sha = ok("open", {{"repo", "code/alpha"}, {"ref", tag["commit_sha"]}});
  EXPECT_EQ(by_sha["snapshot_id"], tag["snapshot_id"]);
  EXPECT_TRUE(by_sha["ref"].is_null());
  const Json bare = ok("open", {{"repo", "code/group/bare.git"}});
  EXPECT_EQ(bare["commit_sha"], sha);
}

TEST_F(RepositoryToolsTest, OpenRefusesWhatIsNotACommitName) {
  for (const char* ref : {"no-such-branch", "main~1", "HEAD^", "main@{1}", ":/alpha", "-x",
                          "0000000000000000000000000000000000000000"}) {
    SCOPED_TRACE(ref);
    EXPECT_EQ(rule("open", {{"repo", "code/alpha"}, {"ref", ref}}), "unknown_ref");
  }
  EXPECT_EQ(rule("open", {{"repo", "code/empty"}}), "empty_repository");
  EXPECT_EQ(rule("open", {{"repo", 42}}), "input_schema");
}

TEST_F(RepositoryToolsTest, ASnapshotIdIsUsableOnlyOnceOpenMadeIt) {
  const std::string tag_sha =
      ok("refs", {{"repo", "code/alpha"}, {"ref", "refs/tags/light"}})["items"][0]["commit_sha"];
  // Well formed, a real commit, never opened: spending no snapshot unit reaches nothing.
  EXPECT_EQ(rule("read", {{"snapshot_id", "code/alpha@" + tag_sha}, {"path", "README.md"}}),
            "unknown_snapshot");
  const std::string snapshot = open_snapshot("code/alpha", "light");
  EXPECT_EQ(snapshot, "code/alpha@" + tag_sha);
  EXPECT_EQ(ok("read", {{"snapshot_id", snapshot}, {"path", "README.md"}})["items"][0]["text"],
            "alpha\nbeta\ngamma");
}

TEST_F(RepositoryToolsTest, TheLeastRecentlyUsedSnapshotIsForgottenPastTheCap) {
  make_tools({.max_snapshots = 1});
  const std::string first = open_snapshot("code/alpha", "light");
  const std::string second = open_snapshot("code/alpha", "feature");
  EXPECT_EQ(rule("list", {{"snapshot_id", first}}), "unknown_snapshot");
  ok("list", {{"snapshot_id", second}});
}

TEST(SnapshotPinningTest, AnOldSnapshotKeepsItsCommitWhenTheBranchMoves) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const auto repo = scratch.path() / "code" / "moving";
  std::filesystem::create_directories(repo);
  ASSERT_EQ(
      run_shell("printf 'alpha\\n' > '" + (repo / "README.md").string() + "' && " + git(repo) +
                "init -q && " + git(repo) + "add README.md && " + git(repo) + "commit -q -m one"),
      0);
  Result<RepositoryTools> made = make_repository_tools(
      {.roots = {{.name = "code", .path = (scratch.path() / "code").string()}}});
  ASSERT_TRUE(made.ok());
  const auto call = [&](std::size_t index, const Json& input) {
    return invoke_tool(made->tools[index], input,
                       invoke_options_for(made->tools[index], "c" + input.dump()));
  };
  constexpr std::size_t kOpen = 2, kRead = 5;
  ToolOutcome old_open = call(kOpen, {{"repo", "code/moving"}});
  ASSERT_TRUE(old_open.ok());
  const std::string old_snapshot = (*old_open.output)["snapshot_id"];

  ASSERT_EQ(run_shell("printf 'omega\\n' > '" + (repo / "README.md").string() + "' && " +
                      git(repo) + "commit -q -am two"),
            0);
  ToolOutcome old_read = call(kRead, {{"snapshot_id", old_snapshot}, {"path", "README.md"}});
  ASSERT_TRUE(old_read.ok());
  EXPECT_EQ((*old_read.output)["items"][0]["text"], "alpha");
  ToolOutcome new_open = call(kOpen, {{"repo", "code/moving"}, {"freshness", "require_fresh"}});
  ASSERT_TRUE(new_open.ok());
  EXPECT_NE((*new_open.output)["commit_sha"], (*old_open.output)["commit_sha"]);
  ToolOutcome new_read =
      call(kRead, {{"snapshot_id", (*new_open.output)["snapshot_id"]}, {"path", "README.md"}});
  ASSERT_TRUE(new_read.ok());
  EXPECT_EQ((*new_read.output)["items"][0]["text"], "omega");
}

}  // namespace
}  // namespace codemode::testing
