// Where default_worker_path() looks: beside the module, then the install layout's libexec
// directory relative to it as an executable and as a library; the first executable file wins,
// and without one the installed location is named, never a build-tree path.
#include "sandbox/process/worker_location.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "support/scratch_dir.h"

namespace codemode::internal {
namespace {

const InstallLayout kDebianLayout{
    .worker_from_bindir = "../libexec/codemode/0.1/codemode-worker",
    .worker_from_libdir = "../../libexec/codemode/0.1/codemode-worker"};

CodeModule executable(std::filesystem::path path) {
  return {.path = std::move(path), .is_shared_library = false};
}
CodeModule library(std::filesystem::path path) {
  return {.path = std::move(path), .is_shared_library = true};
}

void make_executable(const std::filesystem::path& path) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << "#!/bin/sh\n";
  ASSERT_EQ(chmod(path.c_str(), 0755), 0);
}

TEST(WorkerLocationTest, AnExecutableLooksBesideItselfThenInLibexecFromBin) {
  EXPECT_EQ(worker_candidates(executable("/usr/bin/codemode"), kDebianLayout),
            (std::vector<std::filesystem::path>{"/usr/bin/codemode-worker",
                                                "/usr/libexec/codemode/0.1/codemode-worker"}));
}

TEST(WorkerLocationTest, ALibraryLooksBesideItselfThenInLibexecFromLib) {
  EXPECT_EQ(
      worker_candidates(library("/usr/lib/x86_64-linux-gnu/libcodemode.so.0.1.0"), kDebianLayout),
      (std::vector<std::filesystem::path>{"/usr/lib/x86_64-linux-gnu/codemode-worker",
                                          "/usr/libexec/codemode/0.1/codemode-worker"}));
}

TEST(WorkerLocationTest, TheFirstExecutableCandidateIsChosen) {
  testing::ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::filesystem::path prefix = scratch.path() / "prefix";
  const CodeModule app = executable(prefix / "bin" / "app");
  // Only the installed location exists: it is found.
  make_executable(prefix / "libexec/codemode/0.1/codemode-worker");
  EXPECT_EQ(find_worker(app, kDebianLayout),
            (prefix / "libexec/codemode/0.1/codemode-worker").string());
  // A worker beside the module comes first.
  make_executable(prefix / "bin/codemode-worker");
  EXPECT_EQ(find_worker(app, kDebianLayout), (prefix / "bin/codemode-worker").string());
  // A file that is not executable is passed over.
  ASSERT_EQ(chmod((prefix / "bin/codemode-worker").c_str(), 0644), 0);
  EXPECT_EQ(find_worker(app, kDebianLayout),
            (prefix / "libexec/codemode/0.1/codemode-worker").string());
}

TEST(WorkerLocationTest, WithoutAnyWorkerTheInstalledLocationIsNamed) {
  testing::ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::filesystem::path lib = scratch.path() / "lib" / "x86_64-linux-gnu";
  EXPECT_EQ(find_worker(library(lib / "libcodemode.so.0.1"), kDebianLayout),
            (scratch.path() / "libexec/codemode/0.1/codemode-worker").string());
}

TEST(WorkerLocationTest, AnUnknownModuleFindsNothing) {
  EXPECT_EQ(find_worker(std::nullopt, kDebianLayout), "");
  EXPECT_EQ(find_worker(executable("relative/app"), kDebianLayout), "");
}

TEST(WorkerLocationTest, ALibraryLoadedByARelativePathHasNoModule) {
  // Resolving it would depend on the current directory at the time of asking.
  EXPECT_FALSE(module_from_loaded_name("./libcodemode.so.0.1").has_value());
  EXPECT_FALSE(module_from_loaded_name("lib/libcodemode.so.0.1").has_value());
}

TEST(WorkerLocationTest, AnAbsoluteLoadedNameIsTheLibraryItself) {
  testing::ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::filesystem::path real = scratch.path() / "libcodemode.so.0.1.0";
  std::ofstream(real) << "";
  std::filesystem::create_symlink(real, scratch.path() / "libcodemode.so.0.1");
  const std::optional<CodeModule> module =
      module_from_loaded_name((scratch.path() / "libcodemode.so.0.1").c_str());
  ASSERT_TRUE(module.has_value());
  EXPECT_TRUE(module->is_shared_library);
  EXPECT_EQ(module->path, std::filesystem::canonical(real));
  EXPECT_FALSE(module_from_loaded_name((scratch.path() / "missing.so").c_str()).has_value());
}

TEST(WorkerLocationTest, TheModuleOfAStaticallyLinkedProgramIsTheExecutable) {
  char buffer[4096] = {};
  const ssize_t size = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  ASSERT_GT(size, 0);
  const std::optional<CodeModule> module = current_module();
  ASSERT_TRUE(module.has_value());
  EXPECT_FALSE(module->is_shared_library);
  EXPECT_EQ(module->path, std::filesystem::path(std::string(buffer, size)));
}

TEST(WorkerLocationTest, TheDefaultIsLookedUpRelativeToThisTestNotInTheBuildTree) {
  // This test binary is neither beside the build's worker nor installed: the default names the
  // install layout's place relative to it, not the build tree's worker.
  EXPECT_EQ(default_worker_path(), find_worker(current_module(), install_layout()));
  EXPECT_NE(default_worker_path(), std::string(CODEMODE_BINARY_DIR) + "/codemode-worker");
}

}  // namespace
}  // namespace codemode::internal
