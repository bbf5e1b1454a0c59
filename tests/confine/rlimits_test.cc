// The rlimit layer: every row of the table is applied, and a limit is only ever lowered.
#include "confine/rlimits.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string>

#include <sys/mman.h>
#include <sys/resource.h>

#include <gtest/gtest.h>

#include "confine/child_process.h"

namespace codemode::confine {
namespace {

using confine_testing::ChildChecks;
using confine_testing::ChildOutcome;
using confine_testing::kGiB;
using confine_testing::run_in_child;

ConfinementPlan plan_with(std::uint64_t data, std::uint64_t cpu) {
  ConfinementPlan plan;
  plan.data_limit_bytes = data;
  plan.address_space_limit_bytes = 4 * data;
  plan.cpu_limit_seconds = cpu;
  return plan;
}

// The limit a row must leave: the lower of what was there and what the row asks.
rlimit expected_after(const rlimit& before, const RlimitRule& row) {
  rlimit expected{};
  expected.rlim_max = std::min<rlim_t>(before.rlim_max, row.hard);
  expected.rlim_cur = std::min<rlim_t>({before.rlim_cur, row.soft, expected.rlim_max});
  return expected;
}

// In the child: records every row's limit, applies the plan, checks each row. Allocates nothing
// after applying: RLIMIT_DATA may be below what the sanitizer runtime has already mapped.
int apply_and_check(const ConfinementPlan& plan, int report_fd) {
  ChildChecks checks(report_fd);
  const auto rows = worker_rlimits(plan);
  std::array<rlimit, kWorkerRlimitCount> before{};
  for (std::size_t i = 0; i < rows.size(); ++i) getrlimit(rows[i].resource, &before[i]);
  checks.expect(apply_worker_rlimits(plan).ok(), "apply_failed");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    rlimit now{};
    getrlimit(rows[i].resource, &now);
    const rlimit expected = expected_after(before[i], rows[i]);
    checks.expect(now.rlim_cur == expected.rlim_cur && now.rlim_max == expected.rlim_max,
                  rows[i].rule);
  }
  return checks.exit_code();
}

TEST(RlimitsTest, EveryRowHasARuleAndAReason) {
  std::set<std::string_view> rules;
  for (const RlimitRule& row : worker_rlimits(plan_with(kGiB, 5))) {
    EXPECT_TRUE(row.rule.starts_with("rlimit_")) << row.rule;
    EXPECT_FALSE(row.reason.empty()) << row.rule;
    EXPECT_LE(row.soft, row.hard) << row.rule;
    EXPECT_TRUE(rules.insert(row.rule).second) << "duplicate " << row.rule;
  }
}

TEST(RlimitsTest, TableCarriesThePlanAndTheFixedLimits) {
  const auto rows = worker_rlimits(plan_with(3 * kGiB, 7));
  auto find = [&](int resource) {
    return *std::find_if(rows.begin(), rows.end(),
                         [&](const RlimitRule& row) { return row.resource == resource; });
  };
  EXPECT_EQ(find(RLIMIT_DATA).soft, 3 * kGiB);
  EXPECT_EQ(find(RLIMIT_DATA).hard, 3 * kGiB);
  EXPECT_EQ(find(RLIMIT_AS).soft, 12 * kGiB);
  EXPECT_EQ(find(RLIMIT_AS).hard, 12 * kGiB);
  EXPECT_EQ(find(RLIMIT_CPU).soft, 7u);
  EXPECT_EQ(find(RLIMIT_CPU).hard, 8u);
  EXPECT_EQ(find(RLIMIT_NOFILE).hard, 16u);
  for (int zero : {RLIMIT_FSIZE, RLIMIT_CORE, RLIMIT_NPROC, RLIMIT_MEMLOCK, RLIMIT_MSGQUEUE}) {
    EXPECT_EQ(find(zero).soft, 0u) << zero;
    EXPECT_EQ(find(zero).hard, 0u) << zero;
  }
}

TEST(RlimitsTest, AppliesEveryRowOfTheTable) {
  const ChildOutcome outcome =
      run_in_child([](int report_fd) { return apply_and_check(plan_with(kGiB, 30), report_fd); });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(RlimitsTest, NeverRaisesALimitAlreadyBelowTheTable) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    const rlimit low_files{8, 8};
    const rlimit low_cpu{3, 3};
    const rlimit low_data{kGiB / 2, kGiB / 2};
    checks.expect(setrlimit(RLIMIT_NOFILE, &low_files) == 0 &&
                      setrlimit(RLIMIT_CPU, &low_cpu) == 0 &&
                      setrlimit(RLIMIT_DATA, &low_data) == 0,
                  "setup");
    const int checked = apply_and_check(plan_with(kGiB, 30), report_fd);
    rlimit files{}, cpu{}, data{};
    getrlimit(RLIMIT_NOFILE, &files);
    getrlimit(RLIMIT_CPU, &cpu);
    getrlimit(RLIMIT_DATA, &data);
    checks.expect(files.rlim_cur == 8 && files.rlim_max == 8, "nofile_raised");
    checks.expect(cpu.rlim_cur == 3 && cpu.rlim_max == 3, "cpu_raised");
    checks.expect(data.rlim_cur == kGiB / 2 && data.rlim_max == kGiB / 2, "data_raised");
    return checked | checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(RlimitsTest, KeepsALowerSoftLimitUnderAHigherHardOne) {
  const ChildOutcome outcome = run_in_child([](int report_fd) {
    ChildChecks checks(report_fd);
    const rlimit soft_only{2, RLIM_INFINITY};
    checks.expect(setrlimit(RLIMIT_CPU, &soft_only) == 0, "setup");
    checks.expect(apply_worker_rlimits(plan_with(kGiB, 30)).ok(), "apply_failed");
    rlimit cpu{};
    getrlimit(RLIMIT_CPU, &cpu);
    checks.expect(cpu.rlim_cur == 2 && cpu.rlim_max == 31, "cpu_not_lowered_as_asked");
    return checks.exit_code();
  });
  EXPECT_TRUE(outcome.exited_cleanly()) << outcome.describe();
}

TEST(RlimitsTest, PlanWithoutDataLimitIsUnsupportedProfile) {
  const Status status = apply_worker_rlimits(plan_with(0, 30));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(status.error().rule, "rlimit_data");
}

TEST(RlimitsTest, PlanWithoutCpuLimitIsUnsupportedProfile) {
  const Status status = apply_worker_rlimits(plan_with(kGiB, 0));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(status.error().rule, "rlimit_cpu");
}

TEST(RlimitsTest, AddressSpaceBelowTheDataLimitIsUnsupportedProfile) {
  ConfinementPlan plan = plan_with(kGiB, 30);
  plan.address_space_limit_bytes = kGiB - 1;
  const Status status = apply_worker_rlimits(plan);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(status.error().rule, "rlimit_as");
}

// The measurement RLIMIT_AS is sized from: this process's VmSize, which grows by what it maps.
TEST(RlimitsTest, MappedAddressSpaceFollowsTheMappings) {
  const std::optional<std::uint64_t> before = mapped_address_space_bytes();
  ASSERT_TRUE(before.has_value());
  EXPECT_GT(*before, 1u << 20);
  void* block = mmap(nullptr, kGiB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ASSERT_NE(block, MAP_FAILED);
  const std::optional<std::uint64_t> after = mapped_address_space_bytes();
  munmap(block, kGiB);
  ASSERT_TRUE(after.has_value());
  EXPECT_GE(*after, *before + kGiB - (64u << 20));  // other threads may unmap meanwhile
}

TEST(RlimitsTest, RowTheKernelRejectsReportsItsRule) {
  // No such resource: getrlimit fails with EINVAL before anything is changed.
  const RlimitRule bogus[] = {{9999, "rlimit_bogus", 1, 1, "test"}};
  const Status status = lower_rlimits(bogus);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(status.error().rule, "rlimit_bogus");
  EXPECT_EQ(status.error().message.find("9999"), std::string::npos);
}

}  // namespace
}  // namespace codemode::confine
