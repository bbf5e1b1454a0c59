// A directory of the test's own, made by mkdtemp under the build tree and removed with what it
// holds. A test keeps its files there: never in a fixed name another test (or another run of the
// same test, in parallel) could use too, and not in /tmp, which the soak (bench/soak) scans for
// new codemode entries and which may run beside the tests.
#ifndef CODEMODE_TESTS_SUPPORT_SCRATCH_DIR_H_
#define CODEMODE_TESTS_SUPPORT_SCRATCH_DIR_H_

#include <filesystem>
#include <string>
#include <system_error>

#include <stdlib.h>

namespace codemode::testing {

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = std::string(CODEMODE_BINARY_DIR) + "/scratch-XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    if (!path_.empty()) std::filesystem::remove_all(path_, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  bool ok() const { return !path_.empty(); }
  // Empty when mkdtemp failed (ok() is false).
  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_SCRATCH_DIR_H_
