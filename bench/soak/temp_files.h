// Temporary files the soak could leave behind. Two checks, because neither alone is sound on a
// shared machine:
//   - PrivateTmpdir: a fresh directory made before anything else runs, exported as TMPDIR, so
//     whatever this process (and any child that keeps the variable) creates the usual way lands
//     there; every entry left at the end is ours. The worker gets an empty environment and has no
//     open() at all under its seccomp filter, so this mostly watches the parent.
//   - stray_temp_files: /tmp and /dev/shm, for files made without TMPDIR (glibc's tmpfile()
//     and shm_open ignore it). Other processes create files there at the same time (compilers'
//     ccXXXXXX.s, other test runs), so only entries newer than the start whose names mention
//     "codemode" count: that is every name codemode would choose, and none a bystander would.
//     Soaks' own private directories ("codemode-soak.*", this one's or a concurrent soak's) are
//     left out: each soak checks its own.
#ifndef CODEMODE_BENCH_SOAK_TEMP_FILES_H_
#define CODEMODE_BENCH_SOAK_TEMP_FILES_H_

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "codemode/error.h"

namespace codemode::soak {

class PrivateTmpdir {
 public:
  // Makes "<TMPDIR or /tmp>/codemode-soak.XXXXXX" (mode 0700) and sets TMPDIR to it.
  // REQUIRES: no other thread reads the environment meanwhile (call it first thing in main).
  static Result<PrivateTmpdir> create();
  PrivateTmpdir(PrivateTmpdir&& other) noexcept;
  PrivateTmpdir(const PrivateTmpdir&) = delete;
  PrivateTmpdir& operator=(const PrivateTmpdir&) = delete;
  PrivateTmpdir& operator=(PrivateTmpdir&&) = delete;
  // Removes the directory if it is empty; a directory with leftovers stays, for inspection.
  ~PrivateTmpdir();

  const std::filesystem::path& path() const { return path_; }
  std::vector<std::string> entries() const;

 private:
  explicit PrivateTmpdir(std::filesystem::path path) : path_(std::move(path)) {}
  std::filesystem::path path_;  // empty once moved from
};

// The shared directories stray_temp_files looks in.
inline const std::vector<std::filesystem::path> kSharedTempDirectories = {"/tmp", "/dev/shm"};

// Entries of `directories` modified at or after `since` whose names contain "codemode", except
// soaks' private directories. Paths, for printing.
std::vector<std::string> stray_temp_files(const std::vector<std::filesystem::path>& directories,
                                          std::filesystem::file_time_type since);

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_TEMP_FILES_H_
