// For the tests of an operation's steps (src/repository/operations/*_steps.h): the state the
// repository tools share, over the same fixture repositories (make_fixture_repositories.sh) as the
// tools' tests, with snapshots opened as open opens them; and page budgets of a chosen room.
#ifndef CODEMODE_TESTS_REPOSITORY_OPERATION_STEPS_FIXTURE_H_
#define CODEMODE_TESTS_REPOSITORY_OPERATION_STEPS_FIXTURE_H_

#include <filesystem>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "repository/operations/operations.h"
#include "repository/paging/page_budget.h"
#include "repository/search/code_search.h"
#include "repository/snapshot/repository_state.h"
#include "repository/snapshot/snapshot_reader.h"
#include "repository/walk/repository_roots.h"
#include "repository_fixture.h"

namespace codemode::testing {

// A budget with `room` bytes free for items, whatever the room it keeps for the cursor and the
// budget object.
inline repository::PageBudget budget_with_room(std::size_t room) {
  const repository::PageBudget probe(repository::kMaxPageBytes, Json::object());
  const std::size_t used = repository::kMaxPageBytes - probe.room();
  return repository::PageBudget(used + room, Json::object());
}

class RepositoryStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(std::filesystem::is_directory(fixture_root() + "/code/alpha"))
        << "the repositories fixture (ctest -R repository_fixture) has not run";
    make_state(fixture_root() + "/code");
  }

  // A fresh state whose one root, "code", is `directory`.
  void make_state(const std::string& directory) {
    RepositoryToolsOptions options{.roots = {{.name = "code", .path = directory}}};
    Result<repository::RepositoryRoots> roots =
        repository::RepositoryRoots::make(options.roots, options.walk_depth);
    ASSERT_TRUE(roots.ok()) << roots.error().message;
    state_ = std::make_unique<repository::RepositoryState>(options, std::move(*roots));
  }

  // The snapshot_id of `repo` at `ref` (HEAD when empty), made by the open operation.
  std::string open_snapshot(const std::string& repo, const std::string& ref = "") {
    Json input{{"repo", repo}};
    if (!ref.empty()) input["ref"] = ref;
    Result<Json> opened = repository::open_operation().run(*state_, input, ToolContext{});
    EXPECT_TRUE(opened.ok()) << repo << " " << ref;
    return opened.ok() ? opened->value("snapshot_id", "") : "";
  }

  repository::SnapshotReader reader_of(const std::string& repo, const std::string& ref = "") {
    Result<repository::SnapshotReader> reader =
        repository::SnapshotReader::open(*state_, open_snapshot(repo, ref));
    EXPECT_TRUE(reader.ok());
    return std::move(reader).value();
  }

  // What searchCode and context start from for `input` over code/alpha at HEAD.
  repository::SearchRequest search_of(Json input) {
    input["snapshot_id"] = open_snapshot("code/alpha");
    Result<repository::SearchRequest> request = repository::open_search(*state_, input, {});
    EXPECT_TRUE(request.ok()) << input.dump();
    return std::move(request).value();
  }

  std::unique_ptr<repository::RepositoryState> state_;
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_REPOSITORY_OPERATION_STEPS_FIXTURE_H_
