// judge() fails a soak on any unexpected outcome and on any leak figure over its tolerance.
#include "soak/report.h"

#include <gtest/gtest.h>

namespace codemode::soak {
namespace {

SoakReport clean_report() {
  SoakReport report;
  report.settings = {.executions = 10'100, .concurrency = 2, .seed = 1, .warmup = 100};
  report.leaks.rss_after_warmup_kib = 10'000;
  report.leaks.rss_end_kib = 11'000;
  report.leaks.fds_after_warmup = 5;
  report.leaks.fds_end = 5;
  return report;
}

TEST(SoakJudge, CleanReportPasses) { EXPECT_TRUE(judge(clean_report()).passed()); }

TEST(SoakJudge, AnUnexpectedOutcomeFails) {
  SoakReport report = clean_report();
  report.tally.unexpected = 1;
  EXPECT_FALSE(judge(report).outcomes);
  EXPECT_FALSE(judge(report).passed());
}

TEST(SoakJudge, OneMoreFdFails) {
  SoakReport report = clean_report();
  report.leaks.fds_end = 6;
  EXPECT_FALSE(judge(report).fds);
}

TEST(SoakJudge, AChildLeftFails) {
  SoakReport report = clean_report();
  report.leaks.processes_left = {1234};
  EXPECT_FALSE(judge(report).processes);
}

TEST(SoakJudge, ATempFileLeftFails) {
  SoakReport report = clean_report();
  report.leaks.shared_tmp_left = {"/tmp/codemode-x"};
  EXPECT_FALSE(judge(report).temp_files);
}

TEST(SoakJudge, ToleranceGrowsWithExecutionsUpToTheRegistryWindow) {
  EXPECT_EQ(rss_tolerance_kib(0), kRssSlackKib);
  EXPECT_EQ(rss_tolerance_kib(10'000), kRssSlackKib + 10'000 * kRssBytesPerExecution / 1024);
  EXPECT_EQ(rss_tolerance_kib(1'000'000), rss_tolerance_kib(kRememberedExecutionIds));
}

TEST(SoakJudge, RssGrowthOverTheToleranceFails) {
  SoakReport report = clean_report();
  report.leaks.rss_end_kib = 10'000 + rss_tolerance_kib(10'000) + 1;
  EXPECT_FALSE(judge(report).rss);
  report.leaks.rss_end_kib = 10'000 + rss_tolerance_kib(10'000);
  EXPECT_TRUE(judge(report).rss);
}

TEST(SoakJudge, UnreadableRssFailsUnlessNotJudged) {
  SoakReport report = clean_report();
  report.leaks.rss_end_kib.reset();
  EXPECT_FALSE(judge(report).rss);
  report.leaks.rss_judged = false;
  EXPECT_TRUE(judge(report).rss);
}

}  // namespace
}  // namespace codemode::soak
