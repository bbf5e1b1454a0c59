// context's steps, each on its own (src/repository/operations/context_steps.h): the span a match
// opens, how windows merge and are capped, their ranking, their text and queries, the scan that
// collects them and the page that shows them.
#include "repository/operations/context_steps.h"

#include <chrono>
#include <stop_token>

#include <gtest/gtest.h>

#include "operation_steps_fixture.h"
#include "repository/snapshot/text_lines.h"

namespace codemode::testing {
namespace {

namespace context_steps = repository::context_steps;

TEST(ContextStepsTest, ASpanNeverStartsBeforeLineOne) {
  EXPECT_EQ(context_steps::span_around(10, 4).first, 6u);
  EXPECT_EQ(context_steps::span_around(10, 4).last, 14u);
  EXPECT_EQ(context_steps::span_around(3, 4).first, 1u);
  EXPECT_EQ(context_steps::span_around(3, 4).last, 7u);
  EXPECT_EQ(context_steps::span_around(5, 0).first, 5u);
  EXPECT_EQ(context_steps::span_around(5, 0).last, 5u);
}

TEST(ContextStepsTest, OverlappingAndTouchingMatchesOfAFileMerge) {
  context_steps::Candidates candidates;
  EXPECT_TRUE(context_steps::add_match(candidates, 0, 2, 0b01, 1));   // 1..3
  EXPECT_TRUE(context_steps::add_match(candidates, 0, 4, 0b10, 1));   // 3..5 overlaps
  EXPECT_TRUE(context_steps::add_match(candidates, 0, 7, 0b01, 1));   // 6..8 touches
  EXPECT_TRUE(context_steps::add_match(candidates, 0, 10, 0b01, 0));  // 10..10 does not
  EXPECT_TRUE(context_steps::add_match(candidates, 1, 10, 0b01, 0));  // another file
  ASSERT_EQ(candidates.windows.size(), 3u);
  const context_steps::Window& merged = candidates.windows[0];
  EXPECT_EQ(merged.first, 1u);
  EXPECT_EQ(merged.last, 8u);
  EXPECT_EQ(merged.queries, 0b11u);
  EXPECT_EQ(merged.matched, (std::vector<std::size_t>{2, 4, 7}));
  EXPECT_EQ(candidates.windows[1].file, 0u);
  EXPECT_EQ(candidates.windows[1].first, 10u);
  EXPECT_EQ(candidates.windows[2].file, 1u);
  EXPECT_FALSE(candidates.truncated);
}

TEST(ContextStepsTest, AWindowStopsGrowingAtItsLineCap) {
  context_steps::Candidates candidates;
  for (std::size_t line = 1; line <= context_steps::kMaxWindowLines + 1; ++line) {
    ASSERT_TRUE(context_steps::add_match(candidates, 0, line, 1, 0));
  }
  ASSERT_EQ(candidates.windows.size(), 2u);
  EXPECT_EQ(candidates.windows[0].last, context_steps::kMaxWindowLines);
  EXPECT_EQ(candidates.windows[1].first, context_steps::kMaxWindowLines + 1);
}

TEST(ContextStepsTest, PastTheCandidateCapOnlyAMergeIsTaken) {
  context_steps::Candidates candidates;
  for (std::size_t file = 0; file < context_steps::kMaxCandidateWindows; ++file) {
    ASSERT_TRUE(context_steps::add_match(candidates, file, 1, 1, 0));
  }
  EXPECT_FALSE(candidates.truncated);
  const std::size_t last_file = context_steps::kMaxCandidateWindows - 1;
  EXPECT_TRUE(context_steps::add_match(candidates, last_file, 2, 1, 0));  // merges
  EXPECT_FALSE(context_steps::add_match(candidates, last_file, 9, 1, 0));
  EXPECT_TRUE(candidates.truncated);
  EXPECT_EQ(candidates.windows.size(), context_steps::kMaxCandidateWindows);
}

TEST(ContextStepsTest, WindowsRankByQueriesThenMatchesThenTheirOrder) {
  std::vector<context_steps::Window> windows{
      {.file = 0, .first = 1, .queries = 0b001, .matched = {1}},
      {.file = 1, .first = 1, .queries = 0b001, .matched = {1, 2}},
      {.file = 2, .first = 1, .queries = 0b110, .matched = {1}},
      {.file = 3, .first = 1, .queries = 0b010, .matched = {1}},
      {.file = 4, .first = 1, .queries = 0b011, .matched = {1}}};
  context_steps::rank_windows(windows);
  std::vector<std::size_t> order;
  for (const context_steps::Window& window : windows) order.push_back(window.file);
  EXPECT_EQ(order, (std::vector<std::size_t>{2, 4, 1, 0, 3}));
}

TEST(ContextStepsTest, TheEnvelopeSaysStoppedOnlyOutOfTime) {
  context_steps::Candidates candidates;
  candidates.windows.resize(3);
  candidates.truncated = true;
  repository::ScanCounts counts;
  counts.files_scanned = 4;
  const Json page =
      context_steps::context_envelope({{"repo", "code/alpha"}}, candidates, false, counts, false);
  EXPECT_EQ(page["repo"], "code/alpha");
  EXPECT_EQ(page["total_windows"], 3);
  EXPECT_EQ(page["candidates_truncated"], true);
  EXPECT_EQ(page["walk_truncated"], false);
  EXPECT_EQ(page["scan"], counts.to_json());
  EXPECT_EQ(page["items"], Json::array());
  EXPECT_FALSE(page.contains("stopped"));
  EXPECT_EQ(
      context_steps::context_envelope(Json::object(), candidates, false, counts, true)["stopped"],
      "time_budget");
}

TEST(ContextStepsTest, AWindowsTextEndsWithTheFile) {
  const std::string content = "a\nb\r\nc\n" + std::string(3000, 'z');
  std::size_t last = 0;
  EXPECT_EQ(context_steps::window_text(content, {.first = 2, .last = 3}, last), "b\nc");
  EXPECT_EQ(last, 3u);
  const std::string tail = context_steps::window_text(content, {.first = 3, .last = 90}, last);
  EXPECT_EQ(last, 4u);  // the file's last line, which has no "\n"
  EXPECT_EQ(tail, "c\n" + std::string(repository::kMaxShownLineBytes, 'z'));  // shown cut
}

TEST(ContextStepsTest, QueryIndexesListTheBitsInOrder) {
  EXPECT_EQ(context_steps::query_indexes(0), Json::array());
  EXPECT_EQ(context_steps::query_indexes(0b1011), Json::parse("[0,1,3]"));
  EXPECT_EQ(context_steps::query_indexes(1u << 15), Json::parse("[15]"));
}

class ContextStepsFixtureTest : public RepositoryStateTest {
 protected:
  // The windows of `queries` over code/alpha, with `around` lines of context.
  context_steps::Candidates windows_of(const repository::SearchRequest& request, std::size_t around,
                                       repository::ScanLimit& limit) {
    repository::ScanCounts counts;
    Result<context_steps::Candidates> collected =
        context_steps::collect_windows(request, around, limit, counts);
    EXPECT_TRUE(collected.ok());
    return collected.ok() ? *collected : context_steps::Candidates{};
  }
  repository::ScanLimit roomy() {
    return repository::ScanLimit(std::chrono::steady_clock::now() + std::chrono::minutes(1), {});
  }
};

TEST_F(ContextStepsFixtureTest, CollectWindowsMergesTheMatchesOfEachFile) {
  const repository::SearchRequest request = search_of({{"queries", {"alpha", "gamma2", "needle"}}});
  repository::ScanLimit limit = roomy();
  const context_steps::Candidates candidates = windows_of(request, 1, limit);
  ASSERT_EQ(candidates.windows.size(), 2u);
  const context_steps::Window& readme = candidates.windows[0];
  EXPECT_EQ(request.files->files[readme.file].path, "README.md");
  EXPECT_EQ(readme.first, 1u);
  EXPECT_EQ(readme.last, 4u);  // past the file's 3 lines until shown
  EXPECT_EQ(readme.queries, 0b011u);
  EXPECT_EQ(readme.matched, (std::vector<std::size_t>{1, 3}));
  EXPECT_EQ(request.files->files[candidates.windows[1].file].path, "src/nested/deep/file.txt");
  EXPECT_EQ(candidates.windows[1].queries, 0b100u);
  EXPECT_FALSE(candidates.truncated);
}

TEST_F(ContextStepsFixtureTest, ACancelledScanCollectsNothing) {
  const repository::SearchRequest request = search_of({{"queries", {"alpha"}}});
  std::stop_source stop;
  stop.request_stop();
  repository::ScanLimit limit(std::chrono::steady_clock::now() + std::chrono::minutes(1),
                              stop.get_token());
  EXPECT_TRUE(windows_of(request, 1, limit).windows.empty());
  EXPECT_TRUE(limit.cancelled());
}

TEST_F(ContextStepsFixtureTest, AWindowItemIsReadAgainFromTheSnapshot) {
  const repository::SearchRequest request = search_of({{"queries", {"alpha", "gamma2"}}});
  repository::ScanLimit limit = roomy();
  const context_steps::Candidates candidates = windows_of(request, 1, limit);
  ASSERT_EQ(candidates.windows.size(), 1u);
  const context_steps::Window& window = candidates.windows[0];
  const Result<Json> item =
      context_steps::window_item(request.reader, request.files->files[window.file], window);
  ASSERT_TRUE(item.ok());
  EXPECT_EQ((*item)["path"], "README.md");
  EXPECT_EQ((*item)["start_line"], 1);
  EXPECT_EQ((*item)["end_line"], 3);
  EXPECT_EQ((*item)["text"], "alpha\nbeta\ngamma2");
  EXPECT_EQ((*item)["matched_lines"], Json::parse("[1,3]"));
  EXPECT_EQ((*item)["queries_matched"], Json::parse("[0,1]"));
  EXPECT_EQ((*item)["blob_sha"].get<std::string>().size(), 40u);
}

TEST_F(ContextStepsFixtureTest, APageOfWindowsStopsAtMaxResultsOrItsBudget) {
  const repository::SearchRequest request = search_of({{"queries", {"alpha", "gamma2", "needle"}}});
  repository::ScanLimit limit = roomy();
  context_steps::Candidates candidates = windows_of(request, 1, limit);
  context_steps::rank_windows(candidates.windows);
  const std::vector<context_steps::Window>& ranked = candidates.windows;
  ASSERT_EQ(ranked.size(), 2u);

  repository::PageBudget roomy_budget = budget_with_room(10'000);
  const Result<context_steps::WindowPage> first =
      context_steps::page_windows(request, ranked, 0, 1, roomy_budget);
  ASSERT_TRUE(first.ok());
  ASSERT_EQ(first->items.size(), 1u);
  EXPECT_EQ(first->items[0]["path"], "README.md");  // the window where two queries meet
  EXPECT_EQ(first->next, 1u);

  const Result<context_steps::WindowPage> rest =
      context_steps::page_windows(request, ranked, 1, 20, roomy_budget);
  ASSERT_TRUE(rest.ok());
  ASSERT_EQ(rest->items.size(), 1u);
  EXPECT_EQ(rest->items[0]["path"], "src/nested/deep/file.txt");
  EXPECT_EQ(rest->next, 2u);

  EXPECT_EQ(context_steps::page_windows(request, ranked, 7, 20, roomy_budget)->next, 2u);

  repository::PageBudget tight = budget_with_room(50);
  const Result<context_steps::WindowPage> none =
      context_steps::page_windows(request, ranked, 0, 20, tight);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->items.empty());
  EXPECT_EQ(none->next, 0u);
}

}  // namespace
}  // namespace codemode::testing
