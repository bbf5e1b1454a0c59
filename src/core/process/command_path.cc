#include "core/process/command_path.h"

#include <string_view>

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

namespace codemode::internal {
namespace {

// Where a bare command name is looked up when the loading process has no PATH.
constexpr std::string_view kDefaultSearchPath = "/usr/local/bin:/usr/bin:/bin";

std::optional<std::filesystem::path> search_path(const std::string& name) {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): codemode never sets the environment
  const char* env = getenv("PATH");
  std::string_view rest = env ? std::string_view(env) : kDefaultSearchPath;
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    // An empty entry means the current directory; a command is never found there implicitly.
    if (dir.empty()) continue;
    std::filesystem::path candidate = std::filesystem::path(dir) / name;
    if (is_executable_file(candidate)) return candidate;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::filesystem::path> resolve_command_path(const std::string& name,
                                                          const std::string& base_directory) {
  std::filesystem::path path(name);
  if (name.find('/') == std::string::npos) {
    std::optional<std::filesystem::path> found = search_path(name);
    if (!found) return std::nullopt;
    path = *found;
  } else if (path.is_relative()) {
    if (base_directory.empty()) return std::nullopt;
    path = std::filesystem::path(base_directory) / path;
  }
  std::error_code error;
  path = std::filesystem::absolute(path, error).lexically_normal();
  if (error || !is_executable_file(path)) return std::nullopt;
  return path;
}

bool is_executable_file(const std::filesystem::path& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace codemode::internal
