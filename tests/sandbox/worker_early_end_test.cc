// How the parent names a worker that ended before its result (sandbox/worker_process.h): the CPU
// limit only from the CPU time the kernel reports, never from an exit status or a signal alone.
#include <signal.h>

#include <gtest/gtest.h>

#include "sandbox/process/worker_process.h"

namespace codemode::internal {
namespace {

constexpr std::uint64_t kBackstopSeconds = 6;  // cpuMillis 1 .. 1000
constexpr std::int64_t kBackstopMicros = 6'000'000;

std::optional<SandboxFault> fault_of(const SandboxResult& result) { return result.fault(); }

SandboxResult ended(ExitStatus status, bool confined = true, bool mid_frame = false) {
  return result_of_early_end({.status = status,
                              .confined = confined,
                              .mid_frame = mid_frame,
                              .cpu_backstop_seconds = kBackstopSeconds});
}

TEST(WorkerEarlyEnd, TheBackstopIsCpuSecondsRoundedUpPlusTheMargin) {
  EXPECT_EQ(cpu_backstop_seconds(1), 1 + kCpuBackstopSeconds);
  EXPECT_EQ(cpu_backstop_seconds(1000), 1 + kCpuBackstopSeconds);
  EXPECT_EQ(cpu_backstop_seconds(1001), 2 + kCpuBackstopSeconds);
}

TEST(WorkerEarlyEnd, StatusFiveOrSigxcpuWithLittleCpuIsWorkerExited) {
  for (const ExitStatus& status :
       {ExitStatus{.exit_code = 5, .cpu_micros = 20'000},
        ExitStatus{.signal = SIGXCPU, .cpu_micros = 20'000},
        ExitStatus{.signal = SIGKILL, .cpu_micros = kBackstopMicros - 1'100'000}}) {
    const SandboxResult result = ended(status);
    EXPECT_EQ(result.reason(), SandboxFailureReason::kSandboxError);
    EXPECT_EQ(fault_of(result), SandboxFault::kWorkerExited);
  }
}

TEST(WorkerEarlyEnd, CpuTimeAtTheBackstopIsTheCpuLimitHoweverItEnded) {
  for (const ExitStatus& status :
       {ExitStatus{.exit_code = 5, .cpu_micros = kBackstopMicros},
        ExitStatus{.signal = SIGXCPU, .cpu_micros = kBackstopMicros},
        ExitStatus{.signal = SIGKILL, .cpu_micros = 7'000'000},
        // the kernel's tick-sampled count reached the limit before the exact runtime did
        ExitStatus{.signal = SIGXCPU, .cpu_micros = kBackstopMicros - 12'000},
        ExitStatus{.exit_code = 5, .cpu_micros = kBackstopMicros - 900'000}}) {
    const SandboxResult result = ended(status, /*confined=*/true, /*mid_frame=*/true);
    EXPECT_EQ(result.reason(), SandboxFailureReason::kCpuLimit);
    EXPECT_FALSE(result.fault().has_value());
  }
}

TEST(WorkerEarlyEnd, OtherEndsKeepTheirFaults) {
  EXPECT_EQ(fault_of(ended({.exit_code = 0}, /*confined=*/true, /*mid_frame=*/true)),
            SandboxFault::kWorkerProtocolError);
  EXPECT_EQ(fault_of(ended({.exit_code = 1}, /*confined=*/false)),
            SandboxFault::kWorkerStartFailed);
  EXPECT_EQ(fault_of(ended({.signal = SIGSYS})), SandboxFault::kWorkerExited);
  EXPECT_EQ(fault_of(result_of_early_end({.status = std::nullopt, .confined = true})),
            SandboxFault::kWorkerExited);
}

}  // namespace
}  // namespace codemode::internal
