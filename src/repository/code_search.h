// The scan under searchCode and context: which files of a snapshot a search visits, and which of
// their lines match.
//
// Queries are literal text (the default) or RE2 regular expressions, so a search's time is linear
// in what it reads whatever the pattern. Several queries match as one alternation. Lines are
// matched as git grep does: a match never spans a newline, and ^ and $ are line anchors. Binary
// files and files over kMaxSearchBlobBytes are skipped and counted.
//
// Thread-safety: a Matcher is immutable after make and may be shared; everything else is used by
// one operation's thread.
#ifndef CODEMODE_REPOSITORY_CODE_SEARCH_H_
#define CODEMODE_REPOSITORY_CODE_SEARCH_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include <git2.h>

#include "codemode/error.h"
#include "codemode/json.h"

#include "repository/repository_paths.h"
#include "repository/search_file_cache.h"
#include "repository/snapshot_reader.h"

namespace re2 {
class RE2;
}

namespace codemode::repository {

struct SearchOptions {
  std::vector<std::string> queries;  // 1 .. 16
  bool regex = false;
  bool case_sensitive = true;
};

// The search members searchCode and context share, read from a request.
SearchOptions search_options_of(const Json& input);

class Matcher {
 public:
  // invalid_pattern for a regular expression RE2 refuses.
  static Result<Matcher> make(const SearchOptions& options);
  Matcher(Matcher&&) noexcept;
  Matcher& operator=(Matcher&&) noexcept;
  ~Matcher();

  // Calls `found(line_number, line)` (1-based, without its newline) for each line of `content`
  // with a match, in order, until it returns false.
  void each_matching_line(
      std::string_view content,
      const std::function<bool(std::size_t line_number, std::string_view line)>& found) const;
  // Which queries match `line`, as a bit set (query i is bit i).
  unsigned queries_matching(std::string_view line) const;

 private:
  Matcher() = default;
  std::unique_ptr<re2::RE2> any_;
  std::vector<std::unique_ptr<re2::RE2>> each_;
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
  std::size_t bytes_scanned = 0;
  std::size_t skipped_binary = 0;
  std::size_t skipped_large = 0;
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

#endif  // CODEMODE_REPOSITORY_CODE_SEARCH_H_
