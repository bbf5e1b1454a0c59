// The self-hosted stencil cache next to the worker binary is a speed measure only: without it, or
// with a stale one, the worker parses the self-hosted code and behaves the same.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "support/scratch_dir.h"
#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

namespace fs = std::filesystem;

class SelfHostedCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    binary_ = dir_.path() / "codemode-worker";
    fs::copy_file(kWorkerBinary, binary_);
  }

  Execution run_here() {
    return execute("(input) => [input, new Date(0).toISOString(), [3, 1, 2].sort()]", "x", {},
                   echo_tool, binary_.c_str());
  }
  void expect_normal(const Execution& run) {
    ASSERT_TRUE(run.succeeded()) << run.describe();
    EXPECT_EQ(run.output(), (Json{"x", "1970-01-01T00:00:00.000Z", {1, 2, 3}}));
  }

  ScratchDir dir_;  // the copied worker and its cache, removed after the test
  fs::path binary_;
};

TEST_F(SelfHostedCacheTest, BuildWritesACacheNextToTheWorker) {
  EXPECT_TRUE(fs::exists(std::string(kWorkerBinary) + ".selfhosted"));
  EXPECT_GT(fs::file_size(std::string(kWorkerBinary) + ".selfhosted"), 100'000u);
}

TEST_F(SelfHostedCacheTest, MissingCacheFallsBackToParsing) { expect_normal(run_here()); }

TEST_F(SelfHostedCacheTest, StaleCacheFallsBackToParsing) {
  std::ofstream(binary_.string() + ".selfhosted")
      << "codemode self-hosted cache 1\nnot-this-build\n"
      << std::string(1000, '\x7f');
  expect_normal(run_here());
}

TEST_F(SelfHostedCacheTest, CacheOfAnotherBinaryIsStale) {
  // The test-hooks binary is a different build: its cache must not be used by this one.
  fs::copy_file(std::string(kTestHooksBinary) + ".selfhosted", binary_.string() + ".selfhosted");
  expect_normal(run_here());
}

}  // namespace
}  // namespace codemode::testing
