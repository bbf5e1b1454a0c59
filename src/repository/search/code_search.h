// The scan under searchCode and context: which files of a snapshot a search visits, and which of
// their lines match.
//
// Queries are literal text (the default) or RE2 regular expressions, so a search's time is linear
// in what it reads whatever the pattern. Several queries match as one alternation. Lines are
// matched as git grep does: a match never spans a newline, and ^ and $ are line anchors. Binary
// files and files over kMaxSearchBlobBytes are skipped and counted.
//
// What a search's regular expressions may cost is bounded here, before any file is read: RE2's
// memory for all of a search's programs together, and the programs' size, which sets how much
// text file_scan.h may match in one call (docs/repositories.md, "What a search costs").
//
// Thread-safety: a Matcher is immutable after make and may be shared; everything else is used by
// one operation's thread.
#ifndef CODEMODE_REPOSITORY_SEARCH_CODE_SEARCH_H_
#define CODEMODE_REPOSITORY_SEARCH_CODE_SEARCH_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include <git2.h>

#include "codemode/error.h"
#include "codemode/json.h"

#include "repository/search/search_file_cache.h"
#include "repository/snapshot/snapshot_reader.h"
#include "repository/walk/repository_paths.h"

namespace re2 {
class RE2;
}

namespace codemode::repository {

// RE2's max_mem (its programs and DFA caches) for each query's own program, used only on lines that
// matched, and for the alternation that scans every line: at most 12 MiB for sixteen queries.
// 512 KiB still compiles a program past kMaxQueryProgramSize, so the cap below, not memory,
// refuses a query; a compile that passes its memory stops there, within milliseconds.
inline constexpr std::int64_t kQueryRegexMemory = 512 << 10;
inline constexpr std::int64_t kAlternationRegexMemory = 4 << 20;
// RE2 instructions (RE2::ProgramSize) of one query's program and of the queries' together (the
// alternation's, and the sum of the queries'); past either, invalid_pattern.
inline constexpr int kMaxQueryProgramSize = 4'096;
inline constexpr int kMaxQueriesProgramSize = 8'192;
// The most bytes × instructions one RE2 call may cover (84 ms of CPU at the slowest measured: RE2's
// NFA at 20 ns a byte and instruction), and the most bytes, whatever the program.
inline constexpr std::size_t kMatchWork = std::size_t{1} << 22;
inline constexpr std::size_t kMaxMatchBytes = std::size_t{1} << 20;

struct SearchOptions {
  std::vector<std::string> queries;  // 1 .. 16
  bool regex = false;
  bool case_sensitive = true;
};

// The search members searchCode and context share, read from a request.
SearchOptions search_options_of(const Json& input);

class Matcher {
 public:
  // invalid_pattern for a regular expression RE2 refuses, and for one whose program, or the
  // queries' together, pass the caps above (the message names the cap).
  static Result<Matcher> make(const SearchOptions& options);
  Matcher(Matcher&&) noexcept;
  Matcher& operator=(Matcher&&) noexcept;
  ~Matcher();

  // The most bytes one RE2 call covers, and so the longest line searched: kMatchWork over the
  // queries' program size, at most kMaxMatchBytes.
  std::size_t max_line_bytes() const { return max_line_bytes_; }
  // Where the first match within content[begin, end) starts, if any. `content` is the whole
  // file, so that anchors see the text around. REQUIRES: begin <= end <= content.size().
  std::optional<std::size_t> first_match(std::string_view content, std::size_t begin,
                                         std::size_t end) const;
  // Which queries match within content[begin, end), as a bit set (query i is bit i).
  unsigned queries_matching(std::string_view content, std::size_t begin, std::size_t end) const;

 private:
  Matcher() = default;
  std::unique_ptr<re2::RE2> any_;
  std::vector<std::unique_ptr<re2::RE2>> each_;
  std::size_t max_line_bytes_ = 0;
};

// The files below `prefix` (a directory or one file; "" for all) that pass `filter`, in tree
// order. Symbolic links and submodules are not files here. `request` (the search's input) keys
// the state's cache of recent lists.
// A stop requested during the walk is CANCELLED.
Result<SearchFiles> search_files(RepositoryState& state, const SnapshotReader& reader,
                                 const std::string& prefix, const PathFilter& filter,
                                 const Json& request, const std::stop_token& stop);

// What searchCode and context both start from, in the order they check it: the path prefix, the
// globs, the queries, the snapshot, then the files the search visits.
struct SearchRequest {
  Matcher matcher;
  SnapshotReader reader;
  SearchFiles files;
};
Result<SearchRequest> open_search(RepositoryState& state, const Json& input,
                                  const std::stop_token& stop);

// What one page's scan skipped and read.
struct ScanCounts {
  std::size_t files_scanned = 0;
  std::size_t bytes_scanned = 0;  // of the lines searched
  std::size_t skipped_binary = 0;
  std::size_t skipped_large = 0;
  std::size_t skipped_long_lines = 0;  // longer than Matcher::max_line_bytes
  // skipped_long_lines is a member only when it is not 0.
  Json to_json() const;
};

// The content of `file` when it is searchable text; nullopt (counted) when it is binary or too
// large. repository_unreadable when libgit2 fails.
struct LoadedFile {
  GitBlob blob;
  std::string_view content;
};
Result<std::optional<LoadedFile>> load_searchable(const SnapshotReader& reader,
                                                  const SearchFile& file, ScanCounts& counts);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_SEARCH_CODE_SEARCH_H_
