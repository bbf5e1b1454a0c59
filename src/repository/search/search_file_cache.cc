#include "repository/search/search_file_cache.h"

namespace codemode::repository {

SearchFiles SearchFileCache::find(const std::string& key) {
  std::lock_guard lock(mu_);
  for (auto entry = recent_.begin(); entry != recent_.end(); ++entry) {
    if (entry->first == key) {
      recent_.splice(recent_.begin(), recent_, entry);
      return recent_.front().second;
    }
  }
  return nullptr;
}

void SearchFileCache::remember(const std::string& key, SearchFiles files) {
  if (files->files.size() > kMaxCachedFiles) return;
  std::lock_guard lock(mu_);
  for (auto entry = recent_.begin(); entry != recent_.end(); ++entry) {
    if (entry->first == key) {
      recent_.erase(entry);
      break;
    }
  }
  recent_.emplace_front(key, std::move(files));
  if (recent_.size() > kEntries) recent_.pop_back();
}

}  // namespace codemode::repository
