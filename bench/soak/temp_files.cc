#include "soak/temp_files.h"

#include <cstdlib>
#include <string_view>
#include <utility>

#include <stdlib.h>

namespace codemode::soak {
namespace {

std::filesystem::path base_temp_directory() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir != nullptr && *tmpdir != '\0' ? std::filesystem::path(tmpdir) : "/tmp";
}

std::vector<std::string> list_directory(const std::filesystem::path& directory) {
  std::vector<std::string> names;
  std::error_code error;
  for (auto it = std::filesystem::directory_iterator(directory, error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    names.push_back(it->path().string());
  }
  return names;
}

constexpr std::string_view kPrivatePrefix = "codemode-soak.";

bool is_recent_codemode_entry(const std::filesystem::path& entry,
                              std::filesystem::file_time_type since) {
  const std::string name = entry.filename().string();
  if (name.find("codemode") == std::string::npos || name.starts_with(kPrivatePrefix)) return false;
  std::error_code error;
  const auto modified = std::filesystem::last_write_time(entry, error);
  return !error && modified >= since;
}

}  // namespace

Result<PrivateTmpdir> PrivateTmpdir::create() {
  std::string name = (base_temp_directory() / (std::string(kPrivatePrefix) + "XXXXXX")).string();
  if (mkdtemp(name.data()) == nullptr) {
    return Error::storage_unavailable("soak_tmpdir",
                                      "The soak could not make its private temporary directory.");
  }
  if (setenv("TMPDIR", name.c_str(), 1) != 0) {
    std::filesystem::remove(name);
    return Error::storage_unavailable("soak_tmpdir", "The soak could not set TMPDIR.");
  }
  return PrivateTmpdir(name);
}

PrivateTmpdir::PrivateTmpdir(PrivateTmpdir&& other) noexcept : path_(std::move(other.path_)) {
  other.path_.clear();
}

PrivateTmpdir::~PrivateTmpdir() {
  std::error_code error;
  if (!path_.empty() && std::filesystem::is_empty(path_, error) && !error) {
    std::filesystem::remove(path_, error);
  }
}

std::vector<std::string> PrivateTmpdir::entries() const { return list_directory(path_); }

std::vector<std::string> stray_temp_files(const std::vector<std::filesystem::path>& directories,
                                          std::filesystem::file_time_type since) {
  std::vector<std::string> strays;
  for (const std::filesystem::path& directory : directories) {
    for (std::string& entry : list_directory(directory)) {
      if (is_recent_codemode_entry(entry, since)) strays.push_back(std::move(entry));
    }
  }
  return strays;
}

}  // namespace codemode::soak
