// What one search may cost, whatever its queries and files: the queries' RE2 programs are capped
// (refused as invalid_pattern), long lines are skipped and counted, and a scan made slow on purpose
// (queries that defeat RE2's DFA over long minified-like lines) stops near its time budget and at
// once when its caller stops it. Each test makes its own repository.
#include <algorithm>
#include <chrono>
#include <fstream>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "repository_fixture.h"
#include "support/scratch_dir.h"

namespace codemode::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Printable ASCII from a fixed seed, as minified code is: no newline, no \x01.
std::string printable_text(std::size_t bytes, std::uint32_t seed) {
  std::mt19937 random(seed);
  std::string text(bytes, ' ');
  for (char& c : text) c = static_cast<char>(' ' + random() % 95);
  return text;
}

// Four queries of about a thousand RE2 instructions each, which no line here matches and whose
// DFA meets a new state at almost every byte: RE2 falls back to its NFA, each byte costing time in
// proportion to the program's size. Sixteen of them were the attack; four pass the caps.
Json slow_queries(int count) {
  Json queries = Json::array();
  for (int i = 0; i < count; ++i) {
    queries.push_back("[" + std::string(1, static_cast<char>('a' + i)) + "-z][ -~]{1000}\\x01");
  }
  return queries;
}

class SearchCostTest : public ::testing::Test {
 protected:
  // A repository code/cost of `files` (name, content), one commit, opened with tools whose scan
  // stops at `search_time`.
  void make_repository(const std::vector<std::pair<std::string, std::string>>& files,
                       std::chrono::milliseconds search_time) {
    write_repository(files);
    make_tools(search_time);
  }

  void write_repository(const std::vector<std::pair<std::string, std::string>>& files) {
    ASSERT_TRUE(scratch_.ok());
    const auto repo = scratch_.path() / "code" / "cost";
    std::filesystem::create_directories(repo);
    for (const auto& [name, content] : files) {
      std::ofstream(repo / name, std::ios::binary) << content;
    }
    ASSERT_EQ(run_shell(git(repo) + "init -q && " + git(repo) + "add . && " + git(repo) +
                        "commit -q -m one"),
              0);
  }

  // Tools of their own (and so a snapshot of their own) over the same repository.
  void make_tools(std::chrono::milliseconds search_time) {
    Result<RepositoryTools> made = make_repository_tools(
        {.roots = {{.name = "code", .path = (scratch_.path() / "code").string()}},
         .search_time = search_time});
    ASSERT_TRUE(made.ok()) << made.error().message;
    tools_ = std::move(*made);
    const ToolOutcome opened = call("open", {{"repo", "code/cost"}});
    ASSERT_TRUE(opened.ok());
    snapshot_ = (*opened.output)["snapshot_id"];
  }

  ToolOutcome call(std::string_view operation, Json input, std::stop_token stop = {}) {
    for (const Tool& tool : tools_.tools) {
      if (tool.id() != "repo." + std::string(operation)) continue;
      if (operation != "open") input["snapshot_id"] = snapshot_;
      InvokeOptions options = invoke_options_for(tool, "call-" + std::to_string(++calls_));
      options.stop_token = std::move(stop);
      ToolOutcome outcome = invoke_tool(tool, input, options);
      const std::string shown = (outcome.output ? outcome.output->dump() : "") +
                                (outcome.error ? outcome.error->message : "") +
                                outcome.tool_message.value_or("");
      EXPECT_EQ(shown.find(scratch_.path().string()), std::string::npos);
      return outcome;
    }
    ADD_FAILURE() << "no tool " << operation;
    return ToolOutcome{};
  }

  ScratchDir scratch_;
  RepositoryTools tools_;
  Json snapshot_;
  int calls_ = 0;
};

// 1 MiB on one line, then 300 KB of lines of 1,000 bytes. Before the bound, one RE2 match ran over
// each whole file, and the first page took 14-16 s (searchCode) and 15-20 s (context) of its
// 300 ms; now the long line is skipped and a page ends within one bounded match past its budget.
TEST_F(SearchCostTest, AScanThatDefeatsTheDfaStopsNearItsTimeBudget) {
  std::string lines;
  for (std::uint32_t i = 0; i < 300; ++i) lines += printable_text(1'000, i) + "\n";
  make_repository({{"a.min.js", printable_text(1 << 20, 99) + "\n"}, {"b.js", lines}},
                  std::chrono::milliseconds(300));
  for (const char* operation : {"searchCode", "context"}) {
    const auto began = Clock::now();
    const ToolOutcome page = call(operation, {{"queries", slow_queries(4)}, {"regex", true}});
    const auto took = Clock::now() - began;
    ASSERT_TRUE(page.ok()) << operation << " " << (page.error ? page.error->rule : "");
    EXPECT_LT(took, std::chrono::seconds(2)) << operation;
    EXPECT_EQ((*page.output)["stopped"], "time_budget") << operation;
    EXPECT_EQ((*page.output)["scan"]["skipped_long_lines"], 1) << operation;  // a.min.js
  }
}

// The caller's stop (the tool timeout fires the same token) ends the scan itself, not only the
// answer: invoke_tool runs the tool inline and returns only when the scan has returned.
TEST_F(SearchCostTest, AStoppedScanReturnsPromptly) {
  std::string lines;
  for (std::uint32_t i = 0; i < 1'000; ++i) lines += printable_text(1'000, i) + "\n";
  make_repository({{"b.js", lines}}, std::chrono::milliseconds(60'000));
  std::stop_source stop;
  std::jthread stopper([&stop] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop.request_stop();
  });
  const auto began = Clock::now();
  const ToolOutcome page =
      call("searchCode", {{"queries", slow_queries(4)}, {"regex", true}}, stop.get_token());
  EXPECT_LT(Clock::now() - began, std::chrono::seconds(2));
  ASSERT_TRUE(page.error.has_value());
  EXPECT_EQ(page.error->rule, "cancelled");
}

TEST_F(SearchCostTest, QueriesWhoseProgramsPassTheCapsAreInvalidPatterns) {
  make_repository({{"a.txt", "alpha\n"}}, std::chrono::milliseconds(2'000));
  const auto refused = [&](const Json& queries, std::string_view cap) {
    const auto began = Clock::now();
    const ToolOutcome outcome = call("searchCode", {{"queries", queries}, {"regex", true}});
    EXPECT_LT(Clock::now() - began, std::chrono::seconds(1)) << queries.dump();
    ASSERT_TRUE(outcome.error.has_value()) << queries.dump();
    EXPECT_EQ(outcome.error->rule, "invalid_pattern");
    EXPECT_NE(outcome.tool_message.value_or("").find(cap), std::string::npos)
        << outcome.tool_message.value_or("");
  };
  // One query: \pL is about 1,200 instructions (UTF-8), so four are past 4,096; a thousand fail
  // RE2's compile within the query's memory, early.
  refused({"x", "\\pL\\pL\\pL\\pL"}, "queries[1]");
  refused({"x", "\\pL\\pL\\pL\\pL"}, "4,096 instructions");
  refused({"\\pL{1000}N"}, "4,096 instructions");
  // Together: each under the cap, the alternation past 8,192.
  refused({"\\pL\\pL\\pL", "\\pL\\pL\\pL", "\\pL\\pL\\pL"}, "8,192 instructions");
  refused(slow_queries(16), "8,192 instructions");
  // Sixteen queries made to take RE2's compile time and memory (10 s and 350 MB a call before).
  Json heavy = Json::array();
  for (int i = 0; i < 16; ++i)
    heavy.push_back("\\pL{1000}" + std::string(1, static_cast<char>('A' + i)));
  refused(heavy, "4,096 instructions");
  // Within the caps: searched.
  const ToolOutcome fine =
      call("searchCode", {{"queries", {"\\pL\\pL\\pL", "alp(h)a"}}, {"regex", true}});
  ASSERT_TRUE(fine.ok());
  EXPECT_EQ((*fine.output)["items"].size(), 1u);
}

// Minified code is one line. A line too long for one bounded RE2 call is skipped, counted, and
// never matched: 1 MiB at most, less the larger the queries' program.
TEST_F(SearchCostTest, LongLinesAreSkippedAndCounted) {
  const std::string long_line = printable_text(1'100'000, 1) + " needle " + printable_text(10, 2);
  const std::string medium_line = std::string(5'000, 'x') + " needle";
  make_repository({{"a.txt", "needle one\n" + long_line + "\nneedle three\n" + medium_line +
                                 "\r\nlast needle"}},
                  std::chrono::milliseconds(2'000));
  const ToolOutcome literal = call("searchCode", {{"queries", {"needle"}}});
  ASSERT_TRUE(literal.ok());
  std::vector<int> lines;
  for (const Json& item : (*literal.output)["items"]) lines.push_back(item["line_number"]);
  EXPECT_EQ(lines, (std::vector<int>{1, 3, 4, 5}));
  EXPECT_EQ((*literal.output)["scan"]["skipped_long_lines"], 1);
  // A query of a thousand instructions searches lines of at most 4 KiB: the 5,000-byte line is
  // skipped too.
  const ToolOutcome heavy =
      call("searchCode", {{"queries", {"needle", "[a-z][ -~]{1000}\\x01"}}, {"regex", true}});
  ASSERT_TRUE(heavy.ok());
  lines.clear();
  for (const Json& item : (*heavy.output)["items"]) lines.push_back(item["line_number"]);
  EXPECT_EQ(lines, (std::vector<int>{1, 3, 5}));
  EXPECT_EQ((*heavy.output)["scan"]["skipped_long_lines"], 2);
  const ToolOutcome windows = call("context", {{"queries", {"needle"}}, {"context_lines", 0}});
  ASSERT_TRUE(windows.ok());
  lines.clear();
  for (const Json& item : (*windows.output)["items"]) {
    for (const Json& line : item["matched_lines"]) lines.push_back(line);
  }
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<int>{1, 3, 4, 5}));
  EXPECT_EQ((*windows.output)["scan"]["skipped_long_lines"], 1);
}

// A page that stops for time mid-file goes on from that line: following the cursors of a search
// that stops many times gives exactly the lines one unhurried search gives.
TEST_F(SearchCostTest, PagesStoppedMidFileResumeAtTheirLine) {
  std::string text;
  for (std::uint32_t i = 0; i < 400; ++i) {
    text += printable_text(200, i) + (i % 7 == 0 ? " needle " + std::to_string(i) : "") + "\n";
    if (i % 50 == 0) text += "\n";  // empty lines, which ^$ matches
  }
  make_repository({{"a.txt", text}, {"b.txt", text}}, std::chrono::milliseconds(10));
  const auto all = [&](Json input) {
    std::vector<std::string> hits;
    int pages = 0;
    while (pages < 1'000) {
      ++pages;
      const ToolOutcome page = call("searchCode", input);
      if (!page.ok()) {
        ADD_FAILURE() << (page.error ? page.error->rule : "");
        break;
      }
      for (const Json& item : (*page.output)["items"]) {
        hits.push_back(item["path"].get<std::string>() + ":" +
                       std::to_string(item["line_number"].get<int>()));
      }
      if (!(*page.output)["has_more"]) break;
      input["cursor"] = (*page.output)["next_cursor"];
    }
    return std::make_pair(hits, pages);
  };
  // Slow enough (a few ms a line) that 10 ms pages stop many times inside each file.
  const Json input = {{"queries", {"needle", "^$", "[a-z][ -~]{150}\\x01"}},
                      {"regex", true},
                      {"max_results", 1000}};
  const auto [hurried, pages] = all(input);
  EXPECT_GT(pages, 4);
  make_tools(std::chrono::milliseconds(60'000));
  const auto [once, one_page] = all(input);
  EXPECT_EQ(one_page, 1);
  EXPECT_EQ(hurried, once);
  EXPECT_EQ(once.size(), 2u * (58 + 8));  // 58 needles and 8 empty lines a file
}

}  // namespace
}  // namespace codemode::testing
