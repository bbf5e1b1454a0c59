#include "repository/walk/repository_roots.h"

#include <algorithm>
#include <system_error>
#include <utility>

#include <sys/stat.h>

#include "core/text/identifiers.h"

namespace codemode::repository {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxRoots = 16;
constexpr std::size_t kMaxNameBytes = 1024;

Error config_error(const std::string& field, std::string_view why) {
  return Error::invalid_config("repository_tools", field + " " + std::string(why));
}

Error unknown(std::string_view name) {
  return Error::tool_failed("unknown_repository",
                            "No repository is named '" + std::string(name) + "'.");
}

Error refused(std::string_view name, std::string_view why) {
  return Error::tool_failed("repository_refused", "Repository '" + std::string(name) +
                                                      "' is refused: " + std::string(why) + ".");
}

bool is_root_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  if (!((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z'))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

enum class DiskEntry { kMissing, kDirectory, kFile, kSymlink, kOther };

DiskEntry disk_entry(const fs::path& path) {
  struct stat info {};
  if (::lstat(path.c_str(), &info) != 0) return DiskEntry::kMissing;
  if (S_ISLNK(info.st_mode)) return DiskEntry::kSymlink;
  if (S_ISDIR(info.st_mode)) return DiskEntry::kDirectory;
  if (S_ISREG(info.st_mode)) return DiskEntry::kFile;
  return DiskEntry::kOther;
}

// A directory holding a repository: a ".git" directory or file (a worktree's or submodule's
// link), or the layout of a bare repository.
std::optional<bool> repository_at(const fs::path& directory) {
  const DiskEntry dot_git = disk_entry(directory / ".git");
  if (dot_git == DiskEntry::kDirectory || dot_git == DiskEntry::kFile) return false;
  if (disk_entry(directory / "HEAD") == DiskEntry::kFile &&
      disk_entry(directory / "objects") == DiskEntry::kDirectory &&
      disk_entry(directory / "refs") == DiskEntry::kDirectory) {
    return true;
  }
  return std::nullopt;
}

// Whether `directory` holds a symbolic link among its direct entries.
bool holds_symlink(const fs::path& directory) {
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(directory, error)) {
    if (entry.is_symlink(error)) return true;
  }
  return false;
}

bool is_plain_segment(std::string_view segment) {
  return !segment.empty() && segment != "." && segment != ".." && segment != ".git" &&
         segment.find('\0') == std::string_view::npos;
}

std::optional<fs::path> real_path(const fs::path& path) {
  std::error_code error;
  fs::path real = fs::canonical(path, error);
  if (error) return std::nullopt;
  return real;
}

}  // namespace

bool is_within(const fs::path& path, const fs::path& root) {
  auto [root_end, path_at] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
  return root_end == root.end();
}

Result<RepositoryRoots> RepositoryRoots::make(const std::vector<RepositoryRoot>& roots,
                                              int walk_depth) {
  if (roots.empty() || roots.size() > kMaxRoots) {
    return config_error("roots", "must hold 1 to 16 roots.");
  }
  std::vector<Root> resolved;
  for (const RepositoryRoot& root : roots) {
    const std::string field = "roots." + root.name;
    if (!is_root_name(root.name)) {
      return config_error("roots",
                          "holds a name that does not match ^[A-Za-z][A-Za-z0-9_-]{0,63}$.");
    }
    if (std::any_of(resolved.begin(), resolved.end(),
                    [&](const Root& known) { return known.name == root.name; })) {
      return config_error(field, "is named twice.");
    }
    const fs::path path(root.path);
    if (!path.is_absolute()) return config_error(field, "is not an absolute path.");
    std::optional<fs::path> real = real_path(path);
    if (!real || disk_entry(*real) != DiskEntry::kDirectory) {
      return config_error(field, "does not name a directory.");
    }
    resolved.push_back(Root{root.name, std::move(*real)});
  }
  std::sort(resolved.begin(), resolved.end(),
            [](const Root& a, const Root& b) { return a.name < b.name; });
  ensure_libgit2();
  return RepositoryRoots(std::move(resolved), walk_depth);
}

RepositoryWalk RepositoryRoots::walk(int depth, const std::stop_token& stop) const {
  RepositoryWalk walk;
  std::size_t visited = 0;
  for (const Root& root : roots_) {
    // Depth-first, one directory at a time: (path below the root, level).
    std::vector<std::pair<std::string, int>> pending{{"", 0}};
    while (!pending.empty()) {
      if (stop.stop_requested() || visited >= kMaxWalkDirectories) {
        walk.truncated = visited >= kMaxWalkDirectories;
        break;
      }
      auto [relative, level] = std::move(pending.back());
      pending.pop_back();
      ++visited;
      const fs::path directory = relative.empty() ? root.real : root.real / relative;
      if (std::optional<bool> bare = repository_at(directory)) {
        walk.found.push_back({relative.empty() ? root.name : root.name + "/" + relative, *bare});
        continue;
      }
      if (level >= depth) continue;
      std::error_code error;
      fs::directory_iterator entries(directory, fs::directory_options::skip_permission_denied,
                                     error);
      if (error) continue;
      std::vector<std::string> children;
      for (const fs::directory_entry& entry : entries) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name[0] == '.') continue;
        if (disk_entry(entry.path()) != DiskEntry::kDirectory)
          continue;  // symlinks are not entered
        children.push_back(relative.empty() ? name : relative + "/" + name);
      }
      std::sort(children.rbegin(), children.rend());  // popped in name order
      for (std::string& child : children) pending.emplace_back(std::move(child), level + 1);
    }
  }
  std::sort(walk.found.begin(), walk.found.end(),
            [](const FoundRepository& a, const FoundRepository& b) { return a.name < b.name; });
  return walk;
}

Result<GitRepository> RepositoryRoots::open(std::string_view name) const {
  if (name.empty() || name.size() > kMaxNameBytes) return unknown(name.substr(0, 64));
  const std::size_t slash = name.find('/');
  const std::string_view root_name = name.substr(0, slash);
  const auto root = std::find_if(roots_.begin(), roots_.end(),
                                 [&](const Root& known) { return known.name == root_name; });
  if (root == roots_.end()) return unknown(name);
  fs::path directory = root->real;
  if (slash != std::string_view::npos) {
    std::string_view rest = name.substr(slash + 1);
    int level = 0;
    while (true) {
      const std::size_t next = rest.find('/');
      const std::string_view segment = rest.substr(0, next);
      if (!is_plain_segment(segment) || segment.front() == '.' || ++level > walk_depth_ ||
          repository_at(directory)) {
        return unknown(name);
      }
      directory /= std::string(segment);
      const DiskEntry kind = disk_entry(directory);
      if (kind == DiskEntry::kSymlink) return refused(name, "its path holds a symbolic link");
      if (kind != DiskEntry::kDirectory) return unknown(name);
      if (next == std::string_view::npos) break;
      rest = rest.substr(next + 1);
    }
  }
  if (!repository_at(directory)) return unknown(name);
  if (disk_entry(directory / ".git") == DiskEntry::kSymlink) {
    return refused(name, "its .git is a symbolic link");
  }
  git_repository* raw = nullptr;
  const int opened =
      git_repository_open_ext(&raw, directory.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr);
  GitRepository repository(raw);
  if (opened == GIT_EOWNER) return refused(name, "it is owned by another user");
  if (opened == GIT_ENOTFOUND) return unknown(name);
  if (opened != 0) {
    return Error::tool_failed("repository_unreadable",
                              "Repository '" + std::string(name) + "' could not be read.");
  }
  const char* common = git_repository_commondir(repository.get());
  const std::optional<fs::path> git_dir = real_path(git_repository_path(repository.get()));
  const std::optional<fs::path> common_dir = common ? real_path(common) : git_dir;
  if (!git_dir || !common_dir || !is_within(*git_dir, root->real) ||
      !is_within(*common_dir, root->real)) {
    return refused(name, "its git directory lies outside its root");
  }
  const std::optional<fs::path> objects = real_path(*common_dir / "objects");
  if (!objects || !is_within(*objects, root->real)) {
    return refused(name, "its objects lie outside its root");
  }
  if (disk_entry(*objects / "info" / "alternates") != DiskEntry::kMissing) {
    return refused(name, "it borrows another repository's objects (objects/info/alternates)");
  }
  // A pack, a fan-out directory or an info file linked in from elsewhere would serve another
  // store's objects. (Loose objects are not checked one by one.)
  for (const fs::path& directory : {*objects, *objects / "pack", *objects / "info"}) {
    if (holds_symlink(directory)) {
      return refused(name, "its object store holds a symbolic link");
    }
  }
  return repository;
}

}  // namespace codemode::repository
