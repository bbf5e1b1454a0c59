// One file's search, in pieces small enough that a page stops close to its time budget and at
// once when its caller stops it.
//
// RE2 cannot be interrupted inside a match, and a query can defeat its DFA: then each byte costs
// time in proportion to the program's size. So no RE2 call covers more than kMatchWork bytes ×
// instructions: a file is matched a piece of whole lines at a time, as git grep matches a file
// (the first match, its line, then on from the next line), and a line longer than the matcher's
// bound is skipped and counted, never matched. The limit is asked before every piece, every call
// after a match and every skipped line (docs/repositories.md, "What a search costs").
//
// Thread-safety: a ScanLimit belongs to one page's thread.
#ifndef CODEMODE_REPOSITORY_WALK_FILE_SCAN_H_
#define CODEMODE_REPOSITORY_WALK_FILE_SCAN_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stop_token>
#include <string_view>
#include <utility>

#include "repository/search/code_search.h"

namespace codemode::repository {

// When a page's scan stops: as soon as its caller stops it (the tool's timeout or a cancel), and
// at its deadline once it has moved on, so that every page moves on.
class ScanLimit {
 public:
  ScanLimit(std::chrono::steady_clock::time_point deadline, std::stop_token stop)
      : deadline_(deadline), stop_(std::move(stop)) {}

  // Whether the next piece of work may start; false for good once it is not.
  bool may_go_on();
  // The scan has got past some content (a piece, a line, a file).
  void moved_on() { moved_on_ = true; }
  bool cancelled() const { return ended_ == Ended::kCancelled; }
  bool out_of_time() const { return ended_ == Ended::kOutOfTime; }

 private:
  enum class Ended { kNo, kCancelled, kOutOfTime };
  const std::chrono::steady_clock::time_point deadline_;
  const std::stop_token stop_;
  bool moved_on_ = false;
  Ended ended_ = Ended::kNo;
};

// Where a file's scan stands: the next line to search starts at `offset`, after `line` lines.
struct ScanPosition {
  std::size_t offset = 0;
  std::size_t line = 0;
};

struct MatchingLine {
  std::size_t number = 0;  // 1-based
  std::size_t begin = 0;   // where its text is in the file, without its "\n"
  std::size_t end = 0;
  std::string_view text;  // without its "\n" or a trailing "\r"
};

// What a scan tells its page: each matching line, and each line it is about to skip for its
// length. Either may decline (false): the scan then stops before that line.
struct ScanSink {
  std::function<bool(const MatchingLine&)> found;
  std::function<bool()> skipping_long_line;
};

// Searches `content`, a whole file, from `from`, telling `sink` of each matching line and each
// line longer than matcher.max_line_bytes() in order; the skipped lines are counted in
// counts.skipped_long_lines and the bytes searched in counts.bytes_scanned.
// Returns nullopt when the file is done; else where to go on: at the line `sink` declined, or at
// the first line not yet searched when `limit` ended the scan.
std::optional<ScanPosition> scan_file(const Matcher& matcher, std::string_view content,
                                      ScanPosition from, ScanLimit& limit, ScanCounts& counts,
                                      const ScanSink& sink);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_WALK_FILE_SCAN_H_
