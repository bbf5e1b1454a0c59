// read's steps, each on its own (src/repository/operations/read_steps.h): the request's checks, the
// entry and blob it reads, the format, the line range, the lines that fit a budget, and the page.
#include "repository/operations/read_steps.h"

#include <limits>

#include <gtest/gtest.h>

#include "operation_steps_fixture.h"
#include "repository/snapshot/text_lines.h"
#include "support/scratch_dir.h"

namespace codemode::testing {
namespace {

namespace read_steps = repository::read_steps;

std::string read_rule(const Result<read_steps::LineRequest>& result) {
  return result.ok() ? "" : result.error().rule;
}

TEST(ReadStepsTest, LineRequestChecksThePathAndTheRange) {
  const Result<read_steps::LineRequest> whole = read_steps::line_request_of({{"path", "src/"}});
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->path, "src");  // as checked_path gives it back
  EXPECT_EQ(whole->first, 1);
  EXPECT_EQ(whole->last, std::numeric_limits<std::int64_t>::max());

  const Result<read_steps::LineRequest> some =
      read_steps::line_request_of({{"path", "a.txt"}, {"start_line", 4}, {"end_line", 4}});
  ASSERT_TRUE(some.ok());
  EXPECT_EQ(some->first, 4);
  EXPECT_EQ(some->last, 4);

  EXPECT_EQ(read_rule(read_steps::line_request_of(
                {{"path", "a.txt"}, {"start_line", 4}, {"end_line", 3}})),
            "invalid_range");
  EXPECT_EQ(read_rule(read_steps::line_request_of({{"path", "../a.txt"}})), "path_refused");
  EXPECT_EQ(read_rule(read_steps::line_request_of({{"path", ""}})), "not_a_file");  // the root
  // The path is checked before the range.
  EXPECT_EQ(read_rule(read_steps::line_request_of(
                {{"path", "/etc/passwd"}, {"start_line", 4}, {"end_line", 3}})),
            "path_refused");
}

TEST(ReadStepsTest, TheFormatDefaultsToTextInCodeModeAndStructuredElse) {
  using read_steps::ReadFormat;
  EXPECT_EQ(read_steps::read_format_of(Json::object(), true), ReadFormat::kText);
  EXPECT_EQ(read_steps::read_format_of(Json::object(), false), ReadFormat::kStructured);
  EXPECT_EQ(read_steps::read_format_of({{"format", "lines"}}, true), ReadFormat::kLines);
  EXPECT_EQ(read_steps::read_format_of({{"format", "structured"}}, true), ReadFormat::kStructured);
  EXPECT_EQ(read_steps::read_format_of({{"format", "text"}}, false), ReadFormat::kText);
}

TEST(ReadStepsTest, EachFormatIsNamedAsTheSchemaNamesIt) {
  using read_steps::ReadFormat;
  EXPECT_EQ(read_steps::format_name(ReadFormat::kText), "text");
  EXPECT_EQ(read_steps::format_name(ReadFormat::kLines), "lines");
  EXPECT_EQ(read_steps::format_name(ReadFormat::kStructured), "structured");
}

TEST(ReadStepsTest, TheEnvelopeNamesTheFormatUnlessStructured) {
  const Json provenance{{"snapshot_id", "code/alpha@x"}, {"repo", "code/alpha"}};
  const Json text =
      read_steps::read_envelope(provenance, read_steps::ReadFormat::kText, "a.txt", "sha");
  EXPECT_EQ(text, Json::parse(R"({"snapshot_id":"code/alpha@x","repo":"code/alpha",
                                  "format":"text","path":"a.txt","blob_sha":"sha"})"));
  EXPECT_FALSE(
      read_steps::read_envelope(provenance, read_steps::ReadFormat::kStructured, "a.txt", "sha")
          .contains("format"));
}

TEST(ReadStepsTest, ABinaryPageGivesTheSizeAndNoLines) {
  const Result<Json> page = read_steps::binary_page({{"path", "a.bin"}}, 256, 4096);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ((*page)["binary"], true);
  EXPECT_EQ((*page)["size_bytes"], 256);
  EXPECT_EQ((*page)["returned_lines"], 0);
  EXPECT_EQ((*page)["has_more"], false);
  EXPECT_TRUE((*page)["next_cursor"].is_null());
  EXPECT_EQ((*page)["budget"]["requested_bytes"], 4096);
  // An envelope that leaves no room for the cursor and budget is refused, never sent over.
  const Result<Json> crowded =
      read_steps::binary_page({{"path", std::string(900, 'a')}}, 256, 1024);
  ASSERT_FALSE(crowded.ok());
  EXPECT_EQ(crowded.error().rule, "page_too_small");
}

TEST(ReadStepsTest, TheRangeStartsAtTheCursorWhenItIsLaterAndEndsAtTheFile) {
  const read_steps::LineRequest request{.path = "a", .first = 5, .last = 100};
  const read_steps::LineRange fresh = read_steps::line_range(request, Json(nullptr), 30);
  EXPECT_EQ(fresh.from, 5);
  EXPECT_EQ(fresh.to, 30);  // the file's last line
  EXPECT_EQ(fresh.total, 30);
  EXPECT_EQ(read_steps::line_range(request, Json(9), 30).from, 9);
  EXPECT_EQ(read_steps::line_range(request, Json(3), 30).from, 5);
  EXPECT_EQ(read_steps::line_range(request, Json(9), 200).to, 100);  // the request's last line
  // Past the end there is nothing to show: `to` is before `from`.
  const read_steps::LineRange past = read_steps::line_range(request, Json(nullptr), 2);
  EXPECT_LT(past.to, past.from);
}

TEST(ReadStepsTest, ALineCostsItsJsonStringAndANumberedLineItsFrame) {
  repository::PageBudget budget = budget_with_room(1000);
  std::string shown = "a \"quoted\" line";
  bool cut = false;
  ASSERT_TRUE(read_steps::fit_line(shown, cut, 7, true, false, budget));
  EXPECT_EQ(budget.room(), 1000 - repository::json_string_size(shown));
  EXPECT_FALSE(cut);

  repository::PageBudget numbered = budget_with_room(1000);
  std::string line = "abc";
  ASSERT_TRUE(read_steps::fit_line(line, cut, 12, false, true, numbered));
  // 5 bytes of "abc", 25 of {"line_number":,"text":} and its comma, 2 of the number.
  EXPECT_EQ(numbered.room(), 1000u - 5 - 25 - 2);
}

TEST(ReadStepsTest, OnlyAFirstLineLongerThanThePageIsCutToFit) {
  const std::string long_line(500, 'x');
  repository::PageBudget budget = budget_with_room(200);
  std::string later = long_line;
  bool cut = false;
  EXPECT_FALSE(read_steps::fit_line(later, cut, 2, false, false, budget));
  EXPECT_EQ(later, long_line);
  EXPECT_FALSE(cut);
  EXPECT_EQ(budget.room(), 200u);

  std::string first = long_line;
  EXPECT_TRUE(read_steps::fit_line(first, cut, 1, true, false, budget));
  EXPECT_TRUE(cut);
  EXPECT_EQ(first, std::string(198, 'x'));  // and its quotes: the whole room
  EXPECT_EQ(budget.room(), 0u);

  // Too little room to show a useful piece of it: the page is too small instead.
  repository::PageBudget tiny = budget_with_room(60);
  std::string none = long_line;
  EXPECT_FALSE(read_steps::fit_line(none, cut, 1, true, false, tiny));
}

TEST(ReadStepsTest, TakeLinesShowsTheRangeAsTextOrNumberedLines) {
  const std::string content = "one\ntwo\r\nthree\nfour\n";
  const read_steps::LineRange range{.from = 2, .to = 3, .total = 4};
  repository::PageBudget budget = budget_with_room(1000);
  const read_steps::ReadLines text = read_steps::take_lines(content, range, 100, false, budget);
  EXPECT_EQ(text.text, "two\nthree");  // the "\r" dropped
  EXPECT_EQ(text.next, 4);
  EXPECT_EQ(text.cut_lines, 0);
  EXPECT_TRUE(text.lines.empty());

  const read_steps::ReadLines numbered = read_steps::take_lines(content, range, 100, true, budget);
  EXPECT_EQ(numbered.lines, Json::parse(R"([{"line_number":2,"text":"two"},
                                           {"line_number":3,"text":"three"}])"));
  EXPECT_TRUE(numbered.text.empty());

  EXPECT_EQ(read_steps::take_lines(content, range, 1, false, budget).next, 3);  // max_lines
}

TEST(ReadStepsTest, TakeLinesStopsWhereTheBudgetEndsAndCountsCutLines) {
  const std::string content = "1234567890\nabcdefghij\n" + std::string(3000, 'z') + "\n";
  const read_steps::LineRange range{.from = 1, .to = 3, .total = 3};
  repository::PageBudget one_line = budget_with_room(15);
  const read_steps::ReadLines first = read_steps::take_lines(content, range, 100, false, one_line);
  EXPECT_EQ(first.text, "1234567890");
  EXPECT_EQ(first.next, 2);

  // A line past kMaxShownLineBytes is shown cut, and counted.
  repository::PageBudget roomy = budget_with_room(10'000);
  const read_steps::ReadLines all = read_steps::take_lines(content, range, 100, false, roomy);
  EXPECT_EQ(all.next, 4);
  EXPECT_EQ(all.cut_lines, 1);
  EXPECT_TRUE(all.text.ends_with("\n" + std::string(repository::kMaxShownLineBytes, 'z')));

  // A range that starts past the file's end takes nothing.
  const read_steps::ReadLines past = read_steps::take_lines(
      content, read_steps::LineRange{.from = 9, .to = 3, .total = 3}, 100, false, roomy);
  EXPECT_EQ(past.next, 9);
  EXPECT_TRUE(past.text.empty());
}

TEST(ReadStepsTest, TheLinesEnvelopeHoldsTheFormatsMemberAndThePageWhatWasTaken) {
  const Json envelope{{"path", "a.txt"}, {"blob_sha", "sha"}};
  const read_steps::LineRange range{.from = 3, .to = 40, .total = 50};
  using read_steps::ReadFormat;
  const Json text = read_steps::lines_envelope(envelope, ReadFormat::kText, range, 100);
  EXPECT_EQ(text["text"], "");
  EXPECT_EQ(text["total_lines"], 50);
  EXPECT_EQ(text["start_line"], 3);
  EXPECT_EQ(text["returned_lines"], 100);  // the most it can be, for the budget
  EXPECT_EQ(read_steps::lines_envelope(envelope, ReadFormat::kLines, range, 100)["lines"],
            Json::array());
  const Json structured = read_steps::lines_envelope(envelope, ReadFormat::kStructured, range, 100);
  EXPECT_EQ(structured["items"], Json::parse(R"([{"path":"a.txt","blob_sha":"sha","start_line":3,
                                                   "end_line":40,"text":""}])"));

  read_steps::ReadLines taken{.next = 6, .cut_lines = 1, .text = "c\nd\ne"};
  const Json page = read_steps::shape_lines_page(structured, ReadFormat::kStructured, range, taken);
  EXPECT_EQ(page["returned_lines"], 3);
  EXPECT_EQ(page["end_line"], 5);
  EXPECT_EQ(page["cut_lines"], 1);
  EXPECT_EQ(page["items"], Json::parse(R"([{"path":"a.txt","blob_sha":"sha","start_line":3,
                                             "end_line":5,"text":"c\nd\ne"}])"));
  // Nothing taken: the page ends where it starts.
  const Json empty = read_steps::shape_lines_page(text, ReadFormat::kText, range, {.next = 3});
  EXPECT_EQ(empty["returned_lines"], 0);
  EXPECT_EQ(empty["end_line"], 3);
  EXPECT_EQ(empty["text"], "");
}

class ReadStepsFixtureTest : public RepositoryStateTest {};

std::string entry_rule(const Result<repository::SnapshotEntry>& result) {
  return result.ok() ? "" : result.error().rule;
}

TEST_F(ReadStepsFixtureTest, OnlyAFileIsAnEntryToRead) {
  const repository::SnapshotReader alpha = reader_of("code/alpha");
  const Result<repository::SnapshotEntry> readme = read_steps::file_entry(alpha, "README.md");
  ASSERT_TRUE(readme.ok());
  EXPECT_EQ(readme->kind, repository::EntryKind::kFile);
  EXPECT_EQ(entry_rule(read_steps::file_entry(alpha, "src")), "not_a_file");
  EXPECT_EQ(entry_rule(read_steps::file_entry(alpha, "link-inside")), "not_a_file");
  EXPECT_EQ(entry_rule(read_steps::file_entry(alpha, "missing.txt")), "path_not_found");
  const repository::SnapshotReader withsub = reader_of("code/withsub");
  const Result<repository::SnapshotEntry> submodule =
      read_steps::file_entry(withsub, "vendor/alpha");
  EXPECT_EQ(entry_rule(submodule), "not_a_file");
  EXPECT_NE(submodule.error().message.find("submodule"), std::string::npos);
}

TEST_F(ReadStepsFixtureTest, FileBlobReadsTheFile) {
  const repository::SnapshotReader alpha = reader_of("code/alpha");
  const Result<repository::SnapshotEntry> readme = read_steps::file_entry(alpha, "README.md");
  ASSERT_TRUE(readme.ok());
  const Result<repository::GitBlob> blob = read_steps::file_blob(alpha, *readme, "README.md");
  ASSERT_TRUE(blob.ok());
  EXPECT_EQ(std::string(static_cast<const char*>(git_blob_rawcontent(blob->get())),
                        static_cast<std::size_t>(git_blob_rawsize(blob->get()))),
            "alpha\nbeta\ngamma2\n");
}

// A blob of 64 MiB and one byte, made from a pipe (nothing that large is written to disk but its
// compressed object), is refused by its size before it is read.
TEST_F(ReadStepsFixtureTest, FileBlobRefusesAFileOver64MiB) {
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const auto repo = scratch.path() / "code" / "huge";
  std::filesystem::create_directories(repo);
  const std::string g = git(repo);
  ASSERT_EQ(run_shell(g + "init -q && blob=$(head -c 67108865 /dev/zero | " + g +
                      "hash-object -w --stdin) && tree=$(printf '100644 blob %s\\thuge.txt\\n' "
                      "$blob | " +
                      g + "mktree) && commit=$(" + g + "commit-tree -m huge $tree) && " + g +
                      "update-ref refs/heads/main $commit"),
            0);
  make_state((scratch.path() / "code").string());
  const repository::SnapshotReader huge = reader_of("code/huge");
  const Result<repository::SnapshotEntry> entry = read_steps::file_entry(huge, "huge.txt");
  ASSERT_TRUE(entry.ok());
  const Result<repository::GitBlob> blob = read_steps::file_blob(huge, *entry, "huge.txt");
  ASSERT_FALSE(blob.ok());
  EXPECT_EQ(blob.error().rule, "file_too_large");
  EXPECT_NE(blob.error().message.find("'huge.txt'"), std::string::npos);
}

}  // namespace
}  // namespace codemode::testing
