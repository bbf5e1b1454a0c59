// read and list: the formats, line ranges, binary files, paths that are refused, and pages that
// follow their cursors.
#include <gtest/gtest.h>

#include "repository_fixture.h"

namespace codemode::testing {
namespace {

class ReadListTest : public RepositoryToolsTest {
 protected:
  void SetUp() override {
    RepositoryToolsTest::SetUp();
    snapshot_ = open_snapshot("code/alpha");
  }
  Json at(Json input) {
    input["snapshot_id"] = snapshot_;
    return input;
  }
  std::string snapshot_;
};

TEST_F(ReadListTest, ReadHasThreeFormats) {
  const Json text = ok("read", at({{"path", "README.md"}, {"end_line", 2}, {"format", "text"}}));
  EXPECT_EQ(text["text"], "alpha\nbeta");
  EXPECT_EQ(text["format"], "text");
  EXPECT_EQ(text["start_line"], 1);
  EXPECT_EQ(text["end_line"], 2);
  EXPECT_EQ(text["total_lines"], 3);
  EXPECT_FALSE(text.contains("items"));
  EXPECT_EQ(text["snapshot_id"], snapshot_);
  EXPECT_EQ(text["repo"], "code/alpha");
  EXPECT_EQ(text["blob_sha"].get<std::string>().size(), 40u);

  const Json lines =
      ok("read", at({{"path", "README.md"}, {"start_line", 2}, {"format", "lines"}}));
  EXPECT_EQ(lines["lines"], Json::parse(R"([{"line_number":2,"text":"beta"},
                                            {"line_number":3,"text":"gamma2"}])"));
  const Json structured = ok("read", at({{"path", "README.md"}}));
  EXPECT_EQ(structured["items"][0]["text"], "alpha\nbeta\ngamma2");
  EXPECT_EQ(structured["items"][0]["path"], "README.md");
}

TEST_F(ReadListTest, CompactDefaultsReadText) {
  make_tools({.compact_defaults = true});
  snapshot_ = open_snapshot("code/alpha");
  EXPECT_EQ(ok("read", at({{"path", "README.md"}}))["text"], "alpha\nbeta\ngamma2");
}

TEST_F(ReadListTest, ReadPagesThroughAFileByCursor) {
  std::string all;
  Json input = at({{"path", "docs/guide.md"}, {"format", "text"}, {"max_lines", 7}});
  int pages = 0;
  while (true) {
    const Json page = ok("read", input);
    ++pages;
    if (!all.empty()) all += '\n';
    all += page["text"].get<std::string>();
    if (!page["has_more"]) break;
    input["cursor"] = page["next_cursor"];
  }
  EXPECT_EQ(pages, 5);  // 30 lines, 7 at a time
  EXPECT_TRUE(all.starts_with("line 1\nline 2\n"));
  EXPECT_TRUE(all.ends_with("line 30"));
}

TEST_F(ReadListTest, BinaryFilesAreDescribedNotDumped) {
  const Json page = ok("read", at({{"path", "bin/blob.bin"}}));
  EXPECT_EQ(page["binary"], true);
  EXPECT_EQ(page["size_bytes"], 256);
  EXPECT_EQ(page["returned_lines"], 0);
  EXPECT_FALSE(page.contains("items"));
}

TEST_F(ReadListTest, LongLinesAreCutAndCountedAndTheBudgetWarnsNearItsLimit) {
  const Json roomy =
      ok("read", at({{"path", "medium.txt"}, {"format", "text"}, {"max_bytes", 8192}}));
  EXPECT_EQ(roomy["cut_lines"], 0);  // 1,500 bytes fit a shown line
  EXPECT_TRUE(roomy["text"].get<std::string>().starts_with(std::string(1500, 'm') + "\nrow 1\n"));
  // A first line longer than the page is cut to what fits, so the page still moves on.
  const Json page =
      ok("read", at({{"path", "medium.txt"}, {"format", "text"}, {"max_bytes", 2048}}));
  EXPECT_EQ(page["cut_lines"], 1);
  EXPECT_EQ(page["returned_lines"], 1);
  EXPECT_LE(page["budget"]["serialized_bytes"].get<int>(), 2048);
  EXPECT_EQ(page["budget"]["requested_bytes"], 2048);
  EXPECT_TRUE(page["budget"]["remaining_bytes"].is_number());
  EXPECT_NE(page["budget"]["warning"].get<std::string>().find("near max_bytes"), std::string::npos);
  EXPECT_TRUE(page["has_more"]);
  const Json next = ok("read", at({{"path", "medium.txt"},
                                   {"format", "text"},
                                   {"max_bytes", 2048},
                                   {"cursor", page["next_cursor"]}}));
  EXPECT_EQ(next["start_line"], 2);
  EXPECT_TRUE(next["text"].get<std::string>().starts_with("row 1\nrow 2"));
}

TEST_F(ReadListTest, UnicodeStaysIntact) {
  EXPECT_EQ(ok("read", at({{"path", "unicode.txt"}, {"format", "text"}}))["text"],
            "h\u00e9llo w\u00f6rld\nzweite Zeile");
}

TEST_F(ReadListTest, WhatIsNotAFileIsNotRead) {
  EXPECT_EQ(rule("read", at({{"path", "src"}})), "not_a_file");
  EXPECT_EQ(rule("read", at({{"path", "link-inside"}})), "not_a_file");
  EXPECT_EQ(rule("read", at({{"path", "link-outside"}})), "not_a_file");
  EXPECT_EQ(rule("read", at({{"path", "missing.txt"}})), "path_not_found");
  const std::string withsub = open_snapshot("code/withsub");
  EXPECT_EQ(rule("read", {{"snapshot_id", withsub}, {"path", "vendor/alpha/README.md"}}),
            "path_not_found");  // a submodule's files are another repository's
  EXPECT_EQ(rule("read", {{"snapshot_id", withsub}, {"path", "vendor/alpha"}}), "not_a_file");
}

TEST_F(ReadListTest, PathsThatCouldLeaveTheTreeAreRefused) {
  for (const char* path : {"../other/secretrepo/secret.txt", "/etc/passwd", ".git/config",
                           "src/../README.md", "src//lib.rs", "./README.md", "a/.git/HEAD"}) {
    SCOPED_TRACE(path);
    EXPECT_EQ(rule("read", at({{"path", path}})), "path_refused");
  }
  EXPECT_EQ(rule("list", at({{"path", "../"}})), "path_refused");
}

TEST_F(ReadListTest, ReadRangesAreChecked) {
  EXPECT_EQ(rule("read", at({{"path", "README.md"}, {"start_line", 3}, {"end_line", 2}})),
            "invalid_range");
  const Json past = ok("read", at({{"path", "README.md"}, {"start_line", 9}, {"format", "text"}}));
  EXPECT_EQ(past["returned_lines"], 0);
  EXPECT_FALSE(past["has_more"]);
}

TEST_F(ReadListTest, ListShowsKindsAndDepth) {
  const Json page = ok("list", at({{"depth", 1}}));
  std::map<std::string, std::string> kinds;
  for (const Json& item : page["items"]) kinds[item["path"]] = item["kind"];
  EXPECT_EQ(kinds["README.md"], "file");
  EXPECT_EQ(kinds["src"], "directory");
  EXPECT_EQ(kinds["link-inside"], "symlink");
  EXPECT_FALSE(kinds.contains("src/lib.rs"));
  const Json withsub = ok("list", {{"snapshot_id", open_snapshot("code/withsub")}, {"depth", 3}});
  bool saw_submodule = false;
  for (const Json& item : withsub["items"]) {
    if (item["path"] == "vendor/alpha") {
      saw_submodule = item["kind"] == "submodule" && item.contains("commit_sha");
    }
    EXPECT_FALSE(item["path"].get<std::string>().starts_with("vendor/alpha/"));
  }
  EXPECT_TRUE(saw_submodule);
}

TEST_F(ReadListTest, ListPathsFormatAndFilters) {
  const Json paths = ok("list", at({{"path", "src"}, {"depth", 1}, {"format", "paths"}}));
  EXPECT_EQ(paths["paths"], Json::parse(R"(["src/lib.rs","src/nested"])"));
  EXPECT_FALSE(paths.contains("items"));
  const Json markdown =
      ok("list",
         at({{"depth", 5}, {"format", "paths"}, {"glob", "*.md"}, {"exclude", {"README.md"}}}));
  EXPECT_EQ(markdown["paths"], Json::parse(R"(["CHANGELOG.md","docs/guide.md"])"));
  const Json whole =
      ok("list", at({{"depth", 5}, {"format", "paths"}, {"globs", {"src/**/*.txt"}}}));
  EXPECT_EQ(whole["paths"], Json::parse(R"(["src/nested/deep/file.txt"])"));
  EXPECT_EQ(rule("list", at({{"path", "README.md"}})), "not_a_directory");
}

TEST_F(ReadListTest, ListCursorsPageWithoutRepeatsAndRefuseChangedArguments) {
  Json input = at({{"depth", 3}, {"max_items", 1}, {"format", "paths"}});
  std::vector<std::string> seen;
  Json first_cursor;
  while (true) {
    const Json page = ok("list", input);
    for (const Json& path : page["paths"]) seen.push_back(path);
    if (!page["has_more"]) break;
    if (first_cursor.is_null()) first_cursor = page["next_cursor"];
    input["cursor"] = page["next_cursor"];
  }
  const Json all = ok("list", at({{"depth", 3}, {"max_items", 1000}, {"format", "paths"}}));
  EXPECT_EQ(Json(seen), all["paths"]);

  ToolOutcome changed =
      call("list", at({{"depth", 2}, {"max_items", 1}, {"cursor", first_cursor}}));
  ASSERT_FALSE(changed.ok());
  EXPECT_EQ(changed.error->rule, "cursor_mismatch");
  EXPECT_FALSE(changed.tool_message.value_or("").empty());
  // The same cursor against another operation or another snapshot.
  EXPECT_EQ(rule("read", at({{"path", "README.md"}, {"cursor", first_cursor}})), "cursor_mismatch");
  EXPECT_EQ(rule("list", {{"snapshot_id", open_snapshot("code/alpha", "feature")},
                          {"depth", 3},
                          {"max_items", 1},
                          {"cursor", first_cursor}}),
            "cursor_mismatch");
  // Edited, cut, or made by anyone else.
  std::string forged = first_cursor;
  forged[3] = forged[3] == 'A' ? 'B' : 'A';
  EXPECT_EQ(rule("list", at({{"depth", 3}, {"max_items", 1}, {"cursor", forged}})),
            "cursor_invalid");
  EXPECT_EQ(
      rule("list", at({{"depth", 3}, {"cursor", first_cursor.get<std::string>().substr(0, 20)}})),
      "cursor_invalid");
  EXPECT_EQ(rule("list", at({{"depth", 3}, {"cursor", "eyJ2IjoxfQ.AAAA"}})), "cursor_invalid");
  // A cursor from another server (another RepositoryTools) is not ours.
  make_tools({});
  snapshot_ = open_snapshot("code/alpha");
  EXPECT_EQ(
      rule("list",
           at({{"depth", 3}, {"max_items", 1}, {"format", "paths"}, {"cursor", first_cursor}})),
      "cursor_invalid");
}

TEST_F(ReadListTest, EveryPageFitsItsMaxBytesAndReportsItsOwnSize) {
  for (int max_bytes : {1024, 1100, 1500, 2048, 3000, 4096, 65536}) {
    SCOPED_TRACE(max_bytes);
    for (const auto& [operation, input] : std::vector<std::pair<std::string, Json>>{
             {"list", at({{"depth", 5}, {"max_bytes", max_bytes}})},
             {"read", at({{"path", "medium.txt"}, {"format", "lines"}, {"max_bytes", max_bytes}})},
             {"read", at({{"path", "big.txt"}, {"format", "text"}, {"max_bytes", max_bytes}})},
             {"searchCode",
              at({{"queries", {"row"}}, {"context_lines", 2}, {"max_bytes", max_bytes}})},
             {"searchCode",
              at({{"queries", {"big line"}}, {"max_results", 1000}, {"max_bytes", max_bytes}})}}) {
      const Json page = ok(operation, input);
      const std::size_t size = page.dump().size();
      EXPECT_LE(size, static_cast<std::size_t>(max_bytes)) << operation;
      // Small, even items fill the page to within the room kept for the cursor: an item size
      // estimate that ran high would leave more.
      if (input.contains("max_results")) {
        EXPECT_GT(size + 400, static_cast<std::size_t>(max_bytes)) << operation;
      }
      EXPECT_EQ(page["budget"]["serialized_bytes"], size) << operation;
    }
  }
}

}  // namespace
}  // namespace codemode::testing
