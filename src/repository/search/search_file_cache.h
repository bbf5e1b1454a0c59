// The files a search visits, remembered per (snapshot, path prefix, globs): a search that pages
// by cursor walks its snapshot's tree once, not once per page. A snapshot never changes, so an
// entry is never stale; the cache holds a few recent lists, and only lists of up to
// kMaxCachedFiles files.
//
// Thread-safety: every method may be called from any thread; the lists are immutable.
#ifndef CODEMODE_REPOSITORY_SEARCH_SEARCH_FILE_CACHE_H_
#define CODEMODE_REPOSITORY_SEARCH_SEARCH_FILE_CACHE_H_

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <git2.h>

namespace codemode::repository {

struct SearchFile {
  std::string path;
  git_oid blob{};
};

struct SearchFileList {
  std::vector<SearchFile> files;
  bool truncated = false;  // the walk stopped at kMaxWalkEntries
};

using SearchFiles = std::shared_ptr<const SearchFileList>;

class SearchFileCache {
 public:
  static constexpr std::size_t kEntries = 4;
  static constexpr std::size_t kMaxCachedFiles = 200'000;

  SearchFiles find(const std::string& key);
  void remember(const std::string& key, SearchFiles files);

 private:
  std::mutex mu_;
  std::list<std::pair<std::string, SearchFiles>> recent_;  // most recently used first
};

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_SEARCH_SEARCH_FILE_CACHE_H_
