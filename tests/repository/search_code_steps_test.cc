// searchCode's steps, each on its own (src/repository/operations/search_code_steps.h): the lines
// around a match, where a page resumes, its envelope, the items a page holds, the scan of the files
// and the page it makes.
#include "repository/operations/search_code_steps.h"

#include <chrono>
#include <stop_token>

#include <gtest/gtest.h>

#include "operation_steps_fixture.h"
#include "repository/snapshot/text_lines.h"

namespace codemode::testing {
namespace {

namespace search_code_steps = repository::search_code_steps;

TEST(SearchCodeStepsTest, LinesAroundStayWithinTheFile) {
  const std::string content = "a\nb\nc\nd\ne\n";
  const std::vector<std::size_t> starts = repository::line_starts(content);
  using Lines = std::vector<std::string>;
  EXPECT_EQ(search_code_steps::lines_around(content, starts, 3, 1, false), Lines{"b"});
  EXPECT_EQ(search_code_steps::lines_around(content, starts, 3, 1, true), Lines{"d"});
  EXPECT_EQ(search_code_steps::lines_around(content, starts, 3, 5, false), (Lines{"a", "b"}));
  EXPECT_EQ(search_code_steps::lines_around(content, starts, 3, 5, true), (Lines{"d", "e"}));
  EXPECT_EQ(search_code_steps::lines_around(content, starts, 1, 2, false), Lines{});
  EXPECT_EQ(search_code_steps::lines_around(content, starts, 5, 2, true), Lines{});
  EXPECT_EQ(search_code_steps::lines_around(content, starts, 3, 0, true), Lines{});
}

TEST(SearchCodeStepsTest, APageResumesWhereTheCursorSays) {
  const search_code_steps::ResumePoint fresh = search_code_steps::resume_point_of(Json(nullptr));
  EXPECT_EQ(fresh.file, 0u);
  EXPECT_EQ(fresh.position.offset, 0u);
  EXPECT_EQ(fresh.position.line, 0u);
  const Json cursor = search_code_steps::resume_at(3, repository::ScanPosition{120, 7});
  EXPECT_EQ(cursor, Json::parse(R"({"file":3,"line":7,"offset":120})"));
  const search_code_steps::ResumePoint resumed = search_code_steps::resume_point_of(cursor);
  EXPECT_EQ(resumed.file, 3u);
  EXPECT_EQ(resumed.position.offset, 120u);
  EXPECT_EQ(resumed.position.line, 7u);
}

TEST(SearchCodeStepsTest, TheEnvelopeCountsTheWidestScanItsFilesCanGive) {
  const Json page = search_code_steps::search_envelope({{"repo", "code/alpha"}}, 3, true);
  EXPECT_EQ(page["repo"], "code/alpha");
  EXPECT_EQ(page["items"], Json::array());
  EXPECT_EQ(page["walk_truncated"], true);
  EXPECT_EQ(page["scan"]["files_scanned"], 3);
  EXPECT_EQ(page["scan"]["bytes_scanned"], 3 * repository::kMaxSearchBlobBytes);
  EXPECT_EQ(page["stopped"], "time_budget");
}

TEST(SearchCodeStepsTest, ThePageSaysStoppedOnlyWhenTheScanRanOutOfTime) {
  const Json envelope = search_code_steps::search_envelope(Json::object(), 3, false);
  repository::ScanCounts counts;
  counts.files_scanned = 2;
  const Json found = Json::array({Json{{"path", "a"}}, Json{{"path", "b"}}});
  const Json done = search_code_steps::shape_search_page(envelope, found, counts, false);
  EXPECT_FALSE(done.contains("stopped"));
  EXPECT_EQ(done["returned_items"], 2);
  EXPECT_EQ(done["items"], found);
  EXPECT_EQ(done["scan"], counts.to_json());  // the real counts now
  EXPECT_EQ(search_code_steps::shape_search_page(envelope, found, counts, true)["stopped"],
            "time_budget");
}

// A file and its lines, for PageItems.
struct ItemsFile {
  repository::SearchFile file{.path = "dir/file.txt"};
  std::string content = "zero\none two\nthree\n";
  repository::MatchingLine line(std::size_t number) const {
    const std::vector<std::size_t> starts = repository::line_starts(content);
    const std::string_view text = repository::line_at(content, starts, number - 1);
    const auto begin = static_cast<std::size_t>(text.data() - content.data());
    return repository::MatchingLine{number, begin, begin + text.size(), text};
  }
};

TEST(SearchCodeStepsTest, PageItemsHoldAtMostMaxResultsWithTheirContext) {
  const ItemsFile file;
  const Json input{{"max_results", 2}, {"context_lines", 1}};
  search_code_steps::PageItems items(input, Json::object(), 1, 1000);
  ASSERT_TRUE(items.viable());
  items.start_file(file.file, file.content);
  EXPECT_TRUE(items.add(file.line(2)));
  EXPECT_TRUE(items.add(file.line(3)));
  EXPECT_FALSE(items.full());
  EXPECT_FALSE(items.add(file.line(1)));
  EXPECT_TRUE(items.full());
  const Json taken = items.take();
  ASSERT_EQ(taken.size(), 2u);
  EXPECT_EQ(taken[0]["path"], "dir/file.txt");
  EXPECT_EQ(taken[0]["line_number"], 2);
  EXPECT_EQ(taken[0]["text"], "one two");
  EXPECT_EQ(taken[0]["before"], Json::array({"zero"}));
  EXPECT_EQ(taken[0]["after"], Json::array({"three"}));
  EXPECT_EQ(taken[1]["after"], Json::array());
}

TEST(SearchCodeStepsTest, PageItemsCutAFirstMatchLongerThanThePage) {
  ItemsFile file;
  file.content = std::string(5000, 'x') + "\nshort\n";
  search_code_steps::PageItems items({{"max_bytes", 1024}}, Json::object(), 1, 1000);
  ASSERT_TRUE(items.viable());
  items.start_file(file.file, file.content);
  EXPECT_TRUE(items.add(file.line(1)));
  const Json taken = items.take();
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0]["cut"], true);
  EXPECT_LT(taken[0]["text"].get<std::string>().size(), 1024u);
}

TEST(SearchCodeStepsTest, PageItemsMakeRoomForSkippedLinesOnce) {
  const ItemsFile file;
  search_code_steps::PageItems items(Json::object(), Json::object(), 1, 1000);
  items.start_file(file.file, file.content);
  EXPECT_TRUE(items.skipping_long_line());
  EXPECT_TRUE(items.skipping_long_line());
  EXPECT_FALSE(items.full());
  // With no room left beside a first item, a skipped line ends the page.
  ItemsFile wide;
  wide.content = std::string(5000, 'x') + "\n";
  search_code_steps::PageItems full({{"max_bytes", 1024}}, Json::object(), 1, 1000);
  full.start_file(wide.file, wide.content);
  EXPECT_TRUE(full.add(wide.line(1)));
  EXPECT_FALSE(full.skipping_long_line());
  EXPECT_TRUE(full.full());
}

class SearchCodeStepsFixtureTest : public RepositoryStateTest {
 protected:
  repository::ScanLimit roomy_limit() {
    return repository::ScanLimit(std::chrono::steady_clock::now() + std::chrono::minutes(1), {});
  }
  // "path:line" of each item.
  static std::vector<std::string> hits_of(const Json& items) {
    std::vector<std::string> hits;
    for (const Json& item : items) {
      hits.push_back(item["path"].get<std::string>() + ":" +
                     std::to_string(item["line_number"].get<int>()));
    }
    return hits;
  }
};

TEST_F(SearchCodeStepsFixtureTest, ScanFilesEndsWhenEveryFileIsScanned) {
  const repository::SearchRequest request = search_of({{"queries", {"needle"}}});
  search_code_steps::PageItems items(Json::object(), Json::object(), 0, 1000);
  repository::ScanLimit limit = roomy_limit();
  repository::ScanCounts counts;
  const Result<std::optional<search_code_steps::ResumePoint>> resume =
      search_code_steps::scan_files(request, {}, limit, counts, items);
  ASSERT_TRUE(resume.ok());
  EXPECT_FALSE(resume->has_value());
  EXPECT_EQ(hits_of(items.take()), std::vector<std::string>{"src/nested/deep/file.txt:1"});
  EXPECT_EQ(counts.skipped_binary, 1u);  // bin/blob.bin
  EXPECT_EQ(counts.files_scanned + counts.skipped_binary, request.files->files.size());
}

TEST_F(SearchCodeStepsFixtureTest, AFullPageResumesAtTheLineItDeclined) {
  const repository::SearchRequest request = search_of({{"queries", {"row 1"}}});
  repository::ScanLimit limit = roomy_limit();
  repository::ScanCounts counts;
  search_code_steps::PageItems all({{"max_results", 1000}}, Json::object(), 0, 1000);
  ASSERT_FALSE(search_code_steps::scan_files(request, {}, limit, counts, all)->has_value());
  const std::vector<std::string> every = hits_of(all.take());
  ASSERT_GT(every.size(), 3u);

  search_code_steps::PageItems three({{"max_results", 3}}, Json::object(), 0, 1000);
  const Result<std::optional<search_code_steps::ResumePoint>> resume =
      search_code_steps::scan_files(request, {}, limit, counts, three);
  ASSERT_TRUE(resume.ok());
  ASSERT_TRUE(resume->has_value());
  const search_code_steps::ResumePoint at = **resume;
  EXPECT_EQ(request.files->files[at.file].path, "medium.txt");
  EXPECT_EQ(at.position.line, 12u);  // "row 12", the fourth match, is line 13
  search_code_steps::PageItems rest({{"max_results", 1000}}, Json::object(), 0, 1000);
  ASSERT_FALSE(search_code_steps::scan_files(request, at, limit, counts, rest)->has_value());
  std::vector<std::string> paged = hits_of(three.take());
  for (const std::string& hit : hits_of(rest.take())) paged.push_back(hit);
  EXPECT_EQ(paged, every);
}

TEST_F(SearchCodeStepsFixtureTest, AStoppedScanResumesWhereItWasAsked) {
  const repository::SearchRequest request = search_of({{"queries", {"row 1"}}});
  std::stop_source stop;
  stop.request_stop();
  repository::ScanLimit stopped(std::chrono::steady_clock::now() + std::chrono::minutes(1),
                                stop.get_token());
  repository::ScanCounts counts;
  search_code_steps::PageItems items(Json::object(), Json::object(), 0, 1000);
  const search_code_steps::ResumePoint from{.file = 2, .position = {40, 3}};
  const Result<std::optional<search_code_steps::ResumePoint>> resume =
      search_code_steps::scan_files(request, from, stopped, counts, items);
  ASSERT_TRUE(resume.ok());
  ASSERT_TRUE(resume->has_value());
  EXPECT_EQ((*resume)->file, 2u);
  EXPECT_EQ((*resume)->position.offset, 40u);
  EXPECT_EQ((*resume)->position.line, 3u);
  EXPECT_TRUE(stopped.cancelled());
  EXPECT_EQ(counts.files_scanned, 0u);
}

// Past its deadline a scan still gets past one file, so that paging ends; the next starts afresh.
TEST_F(SearchCodeStepsFixtureTest, AScanOutOfTimeMovesPastOneFileAndResumesAtTheNext) {
  const repository::SearchRequest request = search_of({{"queries", {"row 1"}}});
  repository::ScanLimit late(std::chrono::steady_clock::now() - std::chrono::seconds(1), {});
  repository::ScanCounts counts;
  search_code_steps::PageItems items(Json::object(), Json::object(), 0, 1000);
  const Result<std::optional<search_code_steps::ResumePoint>> resume =
      search_code_steps::scan_files(request, {}, late, counts, items);
  ASSERT_TRUE(resume.ok());
  ASSERT_TRUE(resume->has_value());
  EXPECT_EQ((*resume)->file, 1u);
  EXPECT_EQ((*resume)->position.offset, 0u);
  EXPECT_TRUE(late.out_of_time());
}

}  // namespace
}  // namespace codemode::testing
