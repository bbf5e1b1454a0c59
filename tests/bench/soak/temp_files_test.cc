// The private TMPDIR is ours alone and exported; the shared-directory scan counts new entries that
// carry codemode's name and nothing else.
#include "soak/temp_files.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include <stdlib.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace codemode::soak {
namespace {

// Points TMPDIR into the build tree while a test runs, and restores it after: these entries are
// named like a soak's, and a soak running beside the tests scans /tmp for such entries.
class TmpdirInBuildTree {
 public:
  TmpdirInBuildTree() {
    if (const char* value = std::getenv("TMPDIR")) saved_ = value;
    std::filesystem::create_directories(path_);
    setenv("TMPDIR", path_.c_str(), 1);
  }
  ~TmpdirInBuildTree() {
    saved_ ? setenv("TMPDIR", saved_->c_str(), 1) : unsetenv("TMPDIR");
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);  // only when empty; another test may share it
  }

 private:
  const std::filesystem::path path_ =
      std::filesystem::path(CODEMODE_BINARY_DIR) / "soak-test-tmp" / std::to_string(getpid());
  std::optional<std::string> saved_;
};

// A directory of its own (under TMPDIR) for the scan to look at, so no concurrent soak sees these
// test files; removed with its contents at the end of the test.
class ScratchDirectory {
 public:
  ScratchDirectory() : path_(std::filesystem::temp_directory_path() / "stray-scan-test.XXXXXX") {
    std::string name = path_.string();
    if (mkdtemp(name.data()) != nullptr) path_ = name;
  }
  ~ScratchDirectory() { std::filesystem::remove_all(path_); }
  std::string make(const std::string& name) const {
    std::ofstream(path_ / name) << "x";
    return (path_ / name).string();
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

bool contains(const std::vector<std::string>& paths, const std::string& path) {
  return std::find(paths.begin(), paths.end(), path) != paths.end();
}

TEST(SoakPrivateTmpdir, IsExportedAsTmpdirAndRemovedWhenEmpty) {
  TmpdirInBuildTree tmpdir_in_build_tree;
  std::filesystem::path path;
  {
    Result<PrivateTmpdir> tmpdir = PrivateTmpdir::create();
    ASSERT_TRUE(tmpdir.ok());
    path = tmpdir->path();
    EXPECT_EQ(std::string(std::getenv("TMPDIR")), path.string());
    EXPECT_TRUE(tmpdir->entries().empty());
    std::ofstream(path / "left") << "x";
    EXPECT_EQ(tmpdir->entries().size(), 1u);
    std::filesystem::remove(path / "left");
  }
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(SoakPrivateTmpdir, WithLeftoversStaysForInspection) {
  TmpdirInBuildTree tmpdir_in_build_tree;
  std::filesystem::path path;
  {
    Result<PrivateTmpdir> tmpdir = PrivateTmpdir::create();
    ASSERT_TRUE(tmpdir.ok());
    path = tmpdir->path();
    std::ofstream(path / "left") << "x";
  }
  EXPECT_TRUE(std::filesystem::exists(path / "left"));
  std::filesystem::remove_all(path);
}

TEST(SoakStrayTempFiles, CountsOnlyNewEntriesNamedCodemode) {
  TmpdirInBuildTree tmpdir_in_build_tree;
  const auto since = std::filesystem::file_time_type::clock::now() - std::chrono::seconds(1);
  ScratchDirectory directory;
  const std::string ours = directory.make("codemode-left.1");
  const std::string bystander = directory.make("cc1234.s");
  const std::string other_soak = directory.make("codemode-soak.abcdef");
  const std::vector<std::string> strays = stray_temp_files({directory.path()}, since);
  EXPECT_TRUE(contains(strays, ours));
  EXPECT_FALSE(contains(strays, bystander));
  EXPECT_FALSE(contains(strays, other_soak));
}

TEST(SoakStrayTempFiles, IgnoresEntriesOlderThanTheStart) {
  TmpdirInBuildTree tmpdir_in_build_tree;
  ScratchDirectory directory;
  const std::string old = directory.make("codemode-left.1");
  const auto since = std::filesystem::file_time_type::clock::now() + std::chrono::seconds(5);
  EXPECT_FALSE(contains(stray_temp_files({directory.path()}, since), old));
}

}  // namespace
}  // namespace codemode::soak
