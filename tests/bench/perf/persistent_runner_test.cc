// PersistentRunner against the real Node.js half of its protocol (bench/perf/persistent_runner.mjs)
// with a small `run` given on node's command line, so no npm package is needed: answers reach the
// thread that asked even when they come back out of order, and a runner that exits is a failure,
// not a hang. Skipped without node.
#include "perf/persistent_runner.h"

#include <csignal>
#include <string>
#include <thread>

#include <unistd.h>

#include <gtest/gtest.h>

namespace codemode::perf {
namespace {

constexpr const char* kNode = "/usr/bin/node";

// A runner that answers {output: request.value} after request.delayMillis.
std::vector<std::string> echo_runner() {
  const std::string module = std::string(CODEMODE_BENCH_PERF_DIR) + "/persistent_runner.mjs";
  return {kNode, "--input-type=module", "-e",
          "import { serve } from '" + module +
              "';\n"
              "serve((r) => new Promise((done) => setTimeout(() => done({status: 'succeeded', "
              "output: r.value}), r.delayMillis)));"};
}

class PersistentRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (access(kNode, X_OK) != 0) GTEST_SKIP() << "no node";
    std::signal(SIGPIPE, SIG_IGN);  // as codemode-bench's main: a runner that exited fails a write
  }
};

TEST_F(PersistentRunnerTest, AnswersReachTheirCallerWhenTheyComeBackOutOfOrder) {
  Result<std::unique_ptr<PersistentRunner>> runner = PersistentRunner::start(echo_runner());
  ASSERT_TRUE(runner.ok()) << runner.error().message;
  Result<Json> slow = Error::tool_failed("test", "not run");
  std::thread slow_caller([&] {
    slow = (*runner)->call(Json{{"value", "slow"}, {"delayMillis", 300}});
  });
  // The fast request is sent while the slow one is in flight, and is answered first.
  Result<Json> fast = (*runner)->call(Json{{"value", "fast"}, {"delayMillis", 0}});
  slow_caller.join();
  ASSERT_TRUE(fast.ok());
  ASSERT_TRUE(slow.ok());
  EXPECT_EQ((*fast)["output"], "fast");
  EXPECT_EQ((*slow)["output"], "slow");
  EXPECT_NE((*fast)["id"], (*slow)["id"]);
}

TEST_F(PersistentRunnerTest, AProgramThatNeverSaysReadyIsUnavailable) {
  Result<std::unique_ptr<PersistentRunner>> runner =
      PersistentRunner::start({kNode, "-e", "process.exit(0)"});
  ASSERT_FALSE(runner.ok());
  EXPECT_EQ(runner.error().rule, "baseline_unavailable");
}

TEST_F(PersistentRunnerTest, ACallToARunnerThatExitedFailsInsteadOfWaiting) {
  Result<std::unique_ptr<PersistentRunner>> runner = PersistentRunner::start(
      {kNode, "-e", "process.stdout.write('{\"id\":0,\"status\":\"ready\"}\\n'); process.exit(0)"});
  ASSERT_TRUE(runner.ok());
  Result<Json> answer = (*runner)->call(Json{{"value", 1}});
  EXPECT_FALSE(answer.ok());
}

}  // namespace
}  // namespace codemode::perf
