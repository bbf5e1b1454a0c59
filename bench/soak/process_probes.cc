#include "soak/process_probes.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace codemode::soak {
namespace {

// The parent pid in a /proc/<pid>/stat line; the command name in parentheses may hold spaces and
// parentheses, so the fields are counted from the last ')'.
std::optional<pid_t> parent_in_stat(const std::filesystem::path& stat_path) {
  std::ifstream stat(stat_path);
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;  // the process is already gone
  const std::size_t close = line.rfind(')');
  if (close == std::string::npos || close + 2 > line.size()) return std::nullopt;
  std::istringstream rest(line.substr(close + 2));
  char state = 0;
  pid_t parent = 0;
  if (!(rest >> state >> parent)) return std::nullopt;
  return parent;
}

bool is_pid_name(const std::string& name) {
  return !name.empty() && name.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::optional<std::size_t> resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string field;
  while (status >> field) {
    if (field != "VmRSS:") continue;
    std::size_t kib = 0;
    if (status >> kib) return kib;
    return std::nullopt;
  }
  return std::nullopt;
}

std::size_t open_fd_count() {
  std::size_t count = 0;
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    ++count;
  }
  return count > 0 ? count - 1 : 0;  // the iterator's own directory fd
}

std::vector<pid_t> child_processes() {
  std::vector<pid_t> children;
  const pid_t self = getpid();
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator("/proc", error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (!is_pid_name(name)) continue;
    if (parent_in_stat(it->path() / "stat") == self) children.push_back(std::stoi(name));
  }
  return children;
}

}  // namespace codemode::soak
