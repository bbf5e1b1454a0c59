// Runs the built codemode-bench on a tiny configuration and checks the JSON report's shape and
// sanity: what was asked is recorded, every execution is counted and succeeded, ratios exist where
// a baseline ran, and a missing QuickJS installation is a skip, not a failure. Never its speed.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include <sys/wait.h>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "support/scratch_dir.h"

namespace codemode::perf {
namespace {

namespace fs = std::filesystem;

class BenchCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(scratch_.ok());
    dir_ = scratch_.path();
  }

  // Runs the bench with `arguments`, its output discarded; returns its exit status and the JSON.
  int run(const std::string& arguments, Json& report) {
    const fs::path json = dir_ / "report.json";
    const std::string command = std::string(CODEMODE_BENCH_BINARY) + " " + arguments + " --json " +
                                json.string() + " >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream file(json);
    report = Json::parse(file, nullptr, /*allow_exceptions=*/false);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  const Json* find_result(const Json& report, const std::string& subject,
                          const std::string& workload) {
    for (const Json& row : report["results"]) {
      if (row["subject"] == subject && row["workload"] == workload) return &row;
    }
    return nullptr;
  }

  testing::ScratchDir scratch_;  // removed with its contents after the test
  fs::path dir_;
};

// Three timed executions per pass: warm-up 1 + concurrency-1 pass 3 + concurrency-2 pass 3 +
// memory pass 2.
constexpr int kExecutionsPerWorkload = 1 + 3 + 3 + 2;

TEST_F(BenchCliTest, TinyRunReportsEveryExecutionSucceededWithRatiosAndSkipsMissingQuickjs) {
  Json report;
  const int exit_status =
      run("--spawn exec --isolation process --workloads trivial,catalog --iterations 3 "
          "--memory-iterations 2 --baselines floor,quickjs --quickjs-dir " +
              (dir_ / "no-node-modules").string(),
          report);
  ASSERT_EQ(exit_status, 0);
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["options"]["spawn"], Json::array({"exec"}));
  EXPECT_EQ(report["options"]["isolation"], Json::array({"process"}));
  EXPECT_EQ(report["allSucceeded"], true);

  ASSERT_EQ(report["configurations"].size(), 3u);
  EXPECT_EQ(report["configurations"][0]["status"], "ran");
  EXPECT_EQ(report["configurations"][1]["subject"], "floor");
  EXPECT_EQ(report["configurations"][2]["subject"], "quickjs");
  EXPECT_EQ(report["configurations"][2]["status"], "skipped");

  for (const char* workload : {"trivial", "catalog"}) {
    const Json* row = find_result(report, "codemode", workload);
    ASSERT_NE(row, nullptr) << workload;
    EXPECT_EQ((*row)["executions"], kExecutionsPerWorkload) << workload;
    EXPECT_EQ((*row)["succeeded"], kExecutionsPerWorkload) << workload;
    EXPECT_EQ((*row)["spawn"], "exec");
    EXPECT_EQ((*row)["latencyMs"]["count"], 3);
    EXPECT_GT((*row)["latencyMs"]["median"].get<double>(), 0);
    EXPECT_GT((*row)["executionsPerSecond"]["concurrency2"].get<double>(), 0);
  }
  const Json* catalog = find_result(report, "codemode", "catalog");
  EXPECT_EQ((*catalog)["toolCallRoundTripUs"]["count"], 3);  // one per concurrency-1 execution
  const Json* trivial = find_result(report, "codemode", "trivial");
  EXPECT_TRUE((*trivial)["ratios"]["medianVsFloor"].is_number());
  EXPECT_TRUE((*trivial)["ratios"]["medianVsQuickjs"].is_null());
  EXPECT_EQ(find_result(report, "floor", "catalog"), nullptr);  // the floor runs only trivial
}

// With both engine profiles, each configuration runs twice and the jit row carries its speed-up
// over the interpreter row of the same spawn mode and isolation profile.
TEST_F(BenchCliTest, BothEnginesGiveAJitRowWithItsSpeedupOverTheInterpreter) {
  Json report;
  ASSERT_EQ(run("--spawn fork_server --isolation process --engine interpreter,jit "
                "--workloads trivial --iterations 3 --memory-iterations 2 --no-baselines",
                report),
            0);
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["options"]["engine"], Json::array({"interpreter", "jit"}));
  ASSERT_EQ(report["configurations"].size(), 2u);
  EXPECT_EQ(report["configurations"][0]["engine"], "interpreter");
  EXPECT_EQ(report["configurations"][1]["engine"], "jit");
  ASSERT_EQ(report["results"].size(), 2u);
  const Json& interpreter = report["results"][0];
  const Json& jit = report["results"][1];
  EXPECT_EQ(interpreter["configuration"], "codemode fork_server/process");
  EXPECT_EQ(jit["configuration"], "codemode fork_server/process/jit");
  EXPECT_EQ(jit["succeeded"], kExecutionsPerWorkload);
  EXPECT_TRUE(interpreter["ratios"]["jitSpeedupMedian"].is_null());
  EXPECT_GT(jit["ratios"]["jitSpeedupMedian"].get<double>(), 0);
  EXPECT_EQ(run("--engine ion --workloads trivial --no-baselines", report), 2);
}

// Without their npm packages the in-process baselines are skipped with a reason, the run still
// passes, and their ratio keys are there, null.
TEST_F(BenchCliTest, InProcessBaselinesWithoutTheirPackagesAreSkippedNotFailed) {
  Json report;
  const std::string missing = (dir_ / "no-node-modules").string();
  ASSERT_EQ(run("--spawn exec --isolation process --workloads trivial --iterations 3 "
                "--memory-iterations 2 --baselines isolated_vm,quickjs_inprocess "
                "--isolated-vm-dir " +
                    missing + " --quickjs-dir " + missing,
                report),
            0);
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["options"]["baselines"], Json::array({"isolated_vm", "quickjs_inprocess"}));
  ASSERT_EQ(report["configurations"].size(), 3u);
  for (int i : {1, 2}) {
    EXPECT_EQ(report["configurations"][i]["status"], "skipped");
    EXPECT_TRUE(report["configurations"][i]["skipReason"].is_string());
  }
  EXPECT_EQ(report["configurations"][1]["subject"], "isolated_vm");
  EXPECT_EQ(report["configurations"][2]["subject"], "quickjs_inprocess");
  const Json* trivial = find_result(report, "codemode", "trivial");
  ASSERT_NE(trivial, nullptr);
  EXPECT_TRUE((*trivial)["ratios"]["medianVsIsolatedVm"].is_null());
  EXPECT_TRUE((*trivial)["ratios"]["medianVsQuickjsInprocess"].is_null());
}

// Where `npm ci` has been run in bench/perf/isolated_vm and bench/perf/quickjs (scripts/bench
// does it), the in-process baselines really run: every execution succeeds, tool calls are timed,
// and the codemode row gets its ratios. Skipped where the packages are not installed (CI).
TEST_F(BenchCliTest, InstalledInProcessBaselinesRunEveryExecution) {
  const fs::path perf(CODEMODE_BENCH_PERF_DIR);
  if (!fs::exists(perf / "isolated_vm/node_modules/isolated-vm/out/isolated_vm.node") ||
      !fs::exists(perf / "quickjs/node_modules/quickjs-emscripten/package.json")) {
    GTEST_SKIP() << "npm ci has not been run in bench/perf/isolated_vm and bench/perf/quickjs";
  }
  Json report;
  ASSERT_EQ(run("--spawn exec --isolation process --workloads trivial,catalog --iterations 3 "
                "--memory-iterations 2 --baselines isolated_vm,quickjs_inprocess",
                report),
            0);
  ASSERT_TRUE(report.is_object());
  EXPECT_EQ(report["allSucceeded"], true);
  for (const char* subject : {"isolated_vm", "quickjs_inprocess"}) {
    for (const char* workload : {"trivial", "catalog"}) {
      const Json* row = find_result(report, subject, workload);
      ASSERT_NE(row, nullptr) << subject << " " << workload;
      EXPECT_EQ((*row)["succeeded"], kExecutionsPerWorkload) << subject << " " << workload;
      EXPECT_GT((*row)["executionsPerSecond"]["concurrency2"].get<double>(), 0);
    }
    EXPECT_EQ((*find_result(report, subject, "catalog"))["toolCallRoundTripUs"]["count"], 3)
        << subject;
  }
  const Json* catalog = find_result(report, "codemode", "catalog");
  ASSERT_NE(catalog, nullptr);
  EXPECT_GT((*catalog)["ratios"]["medianVsIsolatedVm"].get<double>(), 0);
  EXPECT_GT((*catalog)["ratios"]["executionsPerSecondC2VsQuickjsInprocess"].get<double>(), 0);
}

// The MCP workloads start a real `codemode mcp` per mode: the code row stands beside the library's
// trivial row of the same configuration and carries its ratio to it; direct mode runs once.
TEST_F(BenchCliTest, McpWorkloadsGiveCodeAndDirectRowsBesideTheLibrarysTrivial) {
  Json report;
  ASSERT_EQ(run("--spawn fork_server --isolation process --workloads "
                "trivial,mcp_code_call,mcp_direct_call --iterations 3 --memory-iterations 2 "
                "--no-baselines",
                report),
            0);
  ASSERT_TRUE(report.is_object());
  ASSERT_EQ(report["configurations"].size(), 3u);
  EXPECT_EQ(report["configurations"][0]["subject"], "codemode");
  EXPECT_EQ(report["configurations"][1]["subject"], "mcp_code");
  EXPECT_EQ(report["configurations"][1]["status"], "ran");
  EXPECT_EQ(report["configurations"][2]["subject"], "mcp_direct");
  EXPECT_EQ(report["configurations"][2]["status"], "ran");
  ASSERT_EQ(report["results"].size(), 3u);
  EXPECT_EQ(find_result(report, "codemode", "mcp_code_call"), nullptr);
  for (const auto& [subject, workload] :
       {std::pair{"mcp_code", "mcp_code_call"}, std::pair{"mcp_direct", "mcp_direct_call"}}) {
    const Json* row = find_result(report, subject, workload);
    ASSERT_NE(row, nullptr) << workload;
    EXPECT_EQ((*row)["succeeded"], kExecutionsPerWorkload) << workload;
    EXPECT_EQ((*row)["latencyMs"]["count"], 3) << workload;
    EXPECT_GT((*row)["executionsPerSecond"]["concurrency2"].get<double>(), 0) << workload;
    EXPECT_GT((*row)["ratios"]["medianVsLibraryTrivial"].get<double>(), 0) << workload;
  }
  EXPECT_EQ((*find_result(report, "mcp_code", "mcp_code_call"))["configuration"],
            "mcp_code fork_server/process");
  EXPECT_TRUE(
      (*find_result(report, "codemode", "trivial"))["ratios"]["medianVsLibraryTrivial"].is_null());
}

TEST_F(BenchCliTest, UnknownWorkloadIsAnErrorNotARun) {
  Json report;
  EXPECT_EQ(
      run("--spawn exec --isolation process --workloads no_such_workload --no-baselines", report),
      2);
}

}  // namespace
}  // namespace codemode::perf
