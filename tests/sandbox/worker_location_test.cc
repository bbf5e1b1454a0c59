// Where default_worker_path() looks: beside the module, then the install layout's libexec
// directory relative to it as an executable and as a library; the first executable file wins,
// and without one the installed location is named, never a build-tree path.
#include "sandbox/worker_location.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "support/scratch_dir.h"

namespace codemode::internal {
namespace {

const InstallLayout kDebianLayout{.worker_from_bindir = "../libexec/codemode/codemode-worker",
                                  .worker_from_libdir = "../../libexec/codemode/codemode-worker"};

void make_executable(const std::filesystem::path& path) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << "#!/bin/sh\n";
  ASSERT_EQ(chmod(path.c_str(), 0755), 0);
}

TEST(WorkerLocationTest, CandidatesAreBesideTheModuleThenInLibexecRelativeToIt) {
  EXPECT_EQ(worker_candidates("/usr/bin/codemode", kDebianLayout),
            (std::vector<std::filesystem::path>{"/usr/bin/codemode-worker",
                                                "/usr/libexec/codemode/codemode-worker",
                                                "/libexec/codemode/codemode-worker"}));
  EXPECT_EQ(worker_candidates("/usr/lib/x86_64-linux-gnu/libcodemode.so.0.1", kDebianLayout),
            (std::vector<std::filesystem::path>{"/usr/lib/x86_64-linux-gnu/codemode-worker",
                                                "/usr/lib/libexec/codemode/codemode-worker",
                                                "/usr/libexec/codemode/codemode-worker"}));
}

TEST(WorkerLocationTest, ALayoutWithOneLibexecPathListsItOnce) {
  const InstallLayout same{.worker_from_bindir = "../libexec/codemode/codemode-worker",
                           .worker_from_libdir = "../libexec/codemode/codemode-worker"};
  EXPECT_EQ(worker_candidates("/opt/cm/lib/libcodemode.so", same).size(), 2u);
}

TEST(WorkerLocationTest, TheFirstExecutableCandidateIsChosen) {
  testing::ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::filesystem::path prefix = scratch.path() / "prefix";
  const std::filesystem::path module = prefix / "bin" / "app";
  // Only the installed location exists: it is found.
  make_executable(prefix / "libexec/codemode/codemode-worker");
  EXPECT_EQ(find_worker(module, kDebianLayout),
            (prefix / "libexec/codemode/codemode-worker").string());
  // A worker beside the module comes first.
  make_executable(prefix / "bin/codemode-worker");
  EXPECT_EQ(find_worker(module, kDebianLayout), (prefix / "bin/codemode-worker").string());
  // A file that is not executable is passed over.
  ASSERT_EQ(chmod((prefix / "bin/codemode-worker").c_str(), 0644), 0);
  EXPECT_EQ(find_worker(module, kDebianLayout),
            (prefix / "libexec/codemode/codemode-worker").string());
}

TEST(WorkerLocationTest, WithoutAnyWorkerTheInstalledLocationIsNamed) {
  testing::ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const std::filesystem::path module = scratch.path() / "lib" / "libcodemode.so.0.1";
  EXPECT_EQ(find_worker(module, kDebianLayout),
            (scratch.path() / "../libexec/codemode/codemode-worker").lexically_normal().string());
}

TEST(WorkerLocationTest, AnUnknownModuleFindsNothing) {
  EXPECT_EQ(find_worker("", kDebianLayout), "");
  EXPECT_EQ(find_worker("relative/app", kDebianLayout), "");
}

TEST(WorkerLocationTest, TheModuleOfAStaticallyLinkedProgramIsTheExecutable) {
  char buffer[4096] = {};
  const ssize_t size = readlink("/proc/self/exe", buffer, sizeof(buffer) - 1);
  ASSERT_GT(size, 0);
  EXPECT_EQ(current_module_path(), std::filesystem::path(std::string(buffer, size)));
}

TEST(WorkerLocationTest, TheDefaultIsLookedUpBesideThisTestOrInstalledRelativeToIt) {
  // This test binary is not beside the build's worker, and is not installed: the default names the
  // install layout's place relative to it, not the build tree's worker.
  const std::filesystem::path here = current_module_path();
  EXPECT_EQ(default_worker_path(), find_worker(here, install_layout()));
  EXPECT_NE(default_worker_path(), std::string(CODEMODE_BINARY_DIR) + "/codemode-worker");
}

}  // namespace
}  // namespace codemode::internal
