// refs' steps, each on its own (src/repository/operations/refs_steps.h): HEAD, the filter, each
// reference's item, the sorted list and the page of it that fits.
#include "repository/operations/refs_steps.h"

#include <gtest/gtest.h>

#include "operation_steps_fixture.h"
#include "support/scratch_dir.h"

namespace codemode::testing {
namespace {

namespace refs_steps = repository::refs_steps;

TEST(RefsStepsTest, TheFilterIsAPrefixOfTheFullOrTheShortName) {
  EXPECT_TRUE(refs_steps::ref_matches("refs/heads/main", "main", ""));
  EXPECT_TRUE(refs_steps::ref_matches("refs/heads/main", "main", "refs/heads/"));
  EXPECT_TRUE(refs_steps::ref_matches("refs/heads/main", "main", "ma"));
  EXPECT_TRUE(refs_steps::ref_matches("refs/tags/v1.0", "v1.0", "v1"));
  EXPECT_FALSE(refs_steps::ref_matches("refs/heads/main", "main", "heads/"));
  EXPECT_FALSE(refs_steps::ref_matches("refs/heads/main", "main", "main2"));
}

std::vector<refs_steps::RefItem> numbered_refs(std::size_t count) {
  std::vector<refs_steps::RefItem> items;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string name = "refs/heads/b" + std::to_string(i);
    items.push_back({name, Json{{"name", name}}});
  }
  return items;
}

TEST(RefsStepsTest, APageTakesItemsFromItsOffsetWhileTheyFit) {
  std::vector<refs_steps::RefItem> items = numbered_refs(5);
  repository::PageBudget roomy = budget_with_room(10'000);
  const refs_steps::RefsPage two = refs_steps::page_refs(items, 1, 2, roomy);
  EXPECT_EQ(two.items, Json::parse(R"([{"name":"refs/heads/b1"},{"name":"refs/heads/b2"}])"));
  EXPECT_EQ(two.next, 3u);
  EXPECT_EQ(refs_steps::page_refs(items, 9, 2, roomy).next, 5u);  // past the end: none

  // {"name":"refs/heads/bN"} is 24 bytes, and its comma one more: room for two.
  std::vector<refs_steps::RefItem> again = numbered_refs(5);
  repository::PageBudget fifty = budget_with_room(50);
  const refs_steps::RefsPage fitted = refs_steps::page_refs(again, 0, 100, fifty);
  EXPECT_EQ(fitted.items.size(), 2u);
  EXPECT_EQ(fitted.next, 2u);
}

class RefsStepsFixtureTest : public RepositoryStateTest {
 protected:
  repository::GitRepository opened(const std::string& repo) {
    Result<repository::GitRepository> repository = state_->roots.open(repo);
    EXPECT_TRUE(repository.ok()) << repo;
    return std::move(repository).value();
  }
};

TEST_F(RefsStepsFixtureTest, HeadNamesTheBranchAndItsCommit) {
  const repository::GitRepository alpha = opened("code/alpha");
  const Json head = refs_steps::head_of(alpha.get());
  EXPECT_EQ(head["ref"], "refs/heads/main");
  EXPECT_EQ(head["detached"], false);
  const std::string snapshot = open_snapshot("code/alpha");
  EXPECT_EQ(snapshot, "code/alpha@" + head["commit_sha"].get<std::string>());
}

TEST_F(RefsStepsFixtureTest, ADetachedHeadNamesOnlyItsCommit) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const auto repo = scratch.path() / "code" / "detached";
  std::filesystem::create_directories(repo);
  ASSERT_EQ(run_shell("printf 'x\\n' > '" + (repo / "x.txt").string() + "' && " + git(repo) +
                      "init -q && " + git(repo) + "add x.txt && " + git(repo) +
                      "commit -q -m one && " + git(repo) + "checkout -q --detach"),
            0);
  make_state((scratch.path() / "code").string());
  const repository::GitRepository detached = opened("code/detached");
  const Json head = refs_steps::head_of(detached.get());
  EXPECT_TRUE(head["ref"].is_null());
  EXPECT_EQ(head["detached"], true);
  EXPECT_EQ(head["commit_sha"].get<std::string>().size(), 40u);
}

TEST_F(RefsStepsFixtureTest, ListRefsKeepsWhatTheFilterNamesSortedByName) {
  const repository::GitRepository alpha = opened("code/alpha");
  const Result<std::vector<refs_steps::RefItem>> all =
      refs_steps::list_refs(alpha.get(), "", "code/alpha");
  ASSERT_TRUE(all.ok());
  std::vector<std::string> names;
  for (const refs_steps::RefItem& item : *all) names.push_back(item.name);
  EXPECT_EQ(names, (std::vector<std::string>{"refs/heads/feature", "refs/heads/main",
                                             "refs/tags/light", "refs/tags/v1.0"}));
  const Result<std::vector<refs_steps::RefItem>> main =
      refs_steps::list_refs(alpha.get(), "main", "code/alpha");
  ASSERT_TRUE(main.ok());
  ASSERT_EQ(main->size(), 1u);
  EXPECT_EQ((*main)[0].json["kind"], "branch");
  EXPECT_FALSE((*main)[0].json.contains("tag_sha"));
}

TEST_F(RefsStepsFixtureTest, AnAnnotatedTagsItemNamesItsOwnObjectAndItsCommit) {
  const repository::GitRepository alpha = opened("code/alpha");
  const Result<std::vector<refs_steps::RefItem>> tags =
      refs_steps::list_refs(alpha.get(), "refs/tags/", "code/alpha");
  ASSERT_TRUE(tags.ok());
  ASSERT_EQ(tags->size(), 2u);
  const Json& light = (*tags)[0].json;
  const Json& annotated = (*tags)[1].json;
  EXPECT_EQ(annotated["name"], "refs/tags/v1.0");
  EXPECT_EQ(annotated["kind"], "tag");
  EXPECT_EQ(annotated["commit_sha"], light["commit_sha"]);
  ASSERT_TRUE(annotated.contains("tag_sha"));
  EXPECT_NE(annotated["tag_sha"], annotated["commit_sha"]);
  EXPECT_FALSE(light.contains("tag_sha"));
}

}  // namespace
}  // namespace codemode::testing
