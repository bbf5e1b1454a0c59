#include "repository/walk/repository_paths.h"

#include <utility>

#include <re2/re2.h>

namespace codemode::repository {
namespace {

constexpr std::size_t kMaxGlobBytes = 256;
constexpr std::size_t kMaxGlobs = 33;  // a glob and 32 globs

Error refused(std::string_view why) {
  return Error::tool_failed("path_refused", "The path is refused: " + std::string(why) + ".");
}

// The RE2 text of a glob, anchored at both ends.
std::string glob_regex(std::string_view glob) {
  std::string regex = "^";
  for (std::size_t i = 0; i < glob.size(); ++i) {
    const char c = glob[i];
    if (c == '*') {
      if (i + 1 < glob.size() && glob[i + 1] == '*') {
        ++i;
        if (i + 1 < glob.size() && glob[i + 1] == '/') {
          ++i;
          regex += "(?:.*/)?";  // "**/": any number of directories, none included
        } else {
          regex += ".*";
        }
      } else {
        regex += "[^/]*";
      }
    } else if (c == '?') {
      regex += "[^/]";
    } else if (c == '[') {
      const std::size_t close = glob.find(']', i + 2);
      if (close == std::string_view::npos) {
        regex += "\\[";
        continue;
      }
      std::string_view body = glob.substr(i + 1, close - i - 1);
      regex += '[';
      if (!body.empty() && body[0] == '!') {
        regex += '^';
        body.remove_prefix(1);
      }
      for (char member : body) {
        if (member == '\\' || member == '[' || member == ']') regex += '\\';
        regex += member;
      }
      regex += ']';
      i = close;
    } else {
      regex += RE2::QuoteMeta(std::string_view(&c, 1));
    }
  }
  regex += '$';
  return regex;
}

}  // namespace

Result<std::string> checked_path(std::string_view path) {
  if (path.size() > kMaxPathBytes) return refused("it is longer than 4,096 bytes");
  if (path.find('\0') != std::string_view::npos) return refused("it holds a NUL byte");
  if (!path.empty() && path.front() == '/') {
    return refused("it is absolute; paths are relative to the repository");
  }
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  std::string_view rest = path;
  while (!rest.empty()) {
    const std::size_t slash = rest.find('/');
    const std::string_view segment = rest.substr(0, slash);
    if (segment.empty()) return refused("it has an empty segment");
    if (segment == "." || segment == "..") return refused("it has a '.' or '..' segment");
    if (segment == ".git") return refused("a repository's .git is not readable");
    if (slash == std::string_view::npos) break;
    rest.remove_prefix(slash + 1);
  }
  return std::string(path);
}

bool has_path_prefix(std::string_view path, std::string_view prefix) {
  if (prefix.empty()) return true;
  if (!path.starts_with(prefix)) return false;
  return path.size() == prefix.size() || path[prefix.size()] == '/';
}

PathFilter::PathFilter() = default;
PathFilter::~PathFilter() = default;
PathFilter::PathFilter(PathFilter&&) noexcept = default;
PathFilter& PathFilter::operator=(PathFilter&&) noexcept = default;

Result<PathFilter> PathFilter::make(const std::vector<std::string>& includes,
                                    const std::vector<std::string>& excludes) {
  PathFilter filter;
  if (includes.size() > kMaxGlobs || excludes.size() > kMaxGlobs) {
    return Error::tool_failed("invalid_pattern", "At most 32 globs and 32 excludes.");
  }
  for (const auto* list : {&includes, &excludes}) {
    for (const std::string& text : *list) {
      if (text.empty() || text.size() > kMaxGlobBytes) {
        return Error::tool_failed("invalid_pattern", "A glob is empty or longer than 256 bytes.");
      }
      RE2::Options options;
      options.set_log_errors(false);
      auto pattern = std::make_unique<re2::RE2>(glob_regex(text), options);
      if (!pattern->ok()) {
        return Error::tool_failed("invalid_pattern", "The glob '" + text + "' is not valid.");
      }
      Glob glob{std::move(pattern), text.find('/') != std::string::npos};
      (list == &includes ? filter.includes_ : filter.excludes_).push_back(std::move(glob));
    }
  }
  return filter;
}

bool PathFilter::matches(const Glob& glob, std::string_view path) {
  std::string_view subject = path;
  if (!glob.whole_path) {
    const std::size_t slash = path.rfind('/');
    if (slash != std::string_view::npos) subject = path.substr(slash + 1);
  }
  return RE2::FullMatch(subject, *glob.pattern);
}

bool PathFilter::passes(std::string_view path) const {
  bool included = includes_.empty();
  for (const Glob& glob : includes_) {
    if (matches(glob, path)) {
      included = true;
      break;
    }
  }
  if (!included) return false;
  for (const Glob& glob : excludes_) {
    if (matches(glob, path)) return false;
  }
  return true;
}

}  // namespace codemode::repository
