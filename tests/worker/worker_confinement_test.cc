// codemode-worker is confined before the program runs: the kernel says so while the program waits
// on a tool call, and a forbidden system call made through the test-hooks binary kills the worker
// (the filter's default action) instead of returning.
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "core/sanitizer_build.h"
#include "support/process_support.h"
#include "worker/sanitizer_runtime.h"
#include "worker/worker.h"
#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

TEST(WorkerConfinementTest, ProgramRunsUnderSeccompWithNoNewPrivs) {
  WorkerProcess worker;
  worker.send(start_frame("async (i, tools) => (await tools.call('wait', {})).status", nullptr));
  std::optional<Json> confined = worker.receive();
  ASSERT_TRUE(confined && (*confined)["type"] == "confined");
  std::optional<Json> call = worker.receive();
  ASSERT_TRUE(call && (*call)["type"] == "toolCall");
  // The worker is blocked reading our answer: inspect it now.
  std::map<std::string, std::string> status = proc_status(worker.pid());
  EXPECT_EQ(status["Seccomp"], "2");
  EXPECT_EQ(status["NoNewPrivs"], "1");
  Json answer = echo_tool(*call);
  answer["type"] = "toolResult";
  answer["callId"] = 1;
  worker.send(answer);
  std::optional<Json> result = worker.receive();
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ((*result)["output"], "succeeded");
}

// "Max data size" from /proc/<pid>/limits (the soft limit).
std::uint64_t data_limit(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/limits");
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("Max data size", 0) == 0) return std::stoull(line.substr(26));
  }
  return 0;
}

// RLIMIT_DATA is memoryBytes + the interpreter base + room for host copies, and what the worker
// itself occupies (VmData, which RLIMIT_DATA counts) stays well inside the base. In a sanitizer
// build the same budget sits above what the ASan runtime had mapped at confinement (terabytes of
// shadow memory) and its quarantine.
TEST(WorkerConfinementTest, DataLimitIsMemoryBytesPlusTheMeasuredBase) {
  WorkerProcess worker;
  StartLimits limits;
  limits.memory_bytes = 32 << 20;
  limits.max_output_bytes = 2 << 20;
  limits.max_tool_input_bytes = 1 << 20;
  worker.send(
      start_frame("async (i, tools) => (await tools.call('wait', {})).status", nullptr, limits));
  ASSERT_TRUE(worker.receive().has_value());  // confined
  ASSERT_TRUE(worker.receive().has_value());  // toolCall: the program is waiting
  const std::uint64_t budget =
      (32u << 20) + worker::kInterpreterBaseBytes + worker::kHostCopiesOfLargestValue * (2u << 20);
  const std::uint64_t limit = data_limit(worker.pid());
  const std::uint64_t vm_data = std::stoull(proc_status(worker.pid())["VmData"]) * 1024;
  std::uint64_t mapped_at_confinement = 0;
  if (internal::kSanitizerBuild) {
    ASSERT_GT(limit, budget + worker::kSanitizerQuarantineBytes);
    mapped_at_confinement = limit - budget - worker::kSanitizerQuarantineBytes;
    ASSERT_LE(mapped_at_confinement, vm_data);
  } else {
    EXPECT_EQ(limit, budget);
  }
  EXPECT_LT(vm_data - mapped_at_confinement, worker::kInterpreterBaseBytes / 2);
}

// "Max address space" from /proc/<pid>/limits (the soft limit); 0 when unlimited.
std::uint64_t address_space_limit(pid_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/limits");
  std::string line;
  while (std::getline(file, line)) {
    if (line.rfind("Max address space", 0) != 0) continue;
    const std::string soft = line.substr(26, line.find(' ', 26) - 26);
    return soft == "unlimited" ? 0 : std::stoull(soft);
  }
  return 0;
}

// RLIMIT_AS is what the worker had mapped once prepared, plus RLIMIT_DATA, plus the headroom for
// thread stacks and malloc arenas: above what the worker maps while a program runs, and far below
// the unlimited address space a reservation could otherwise take (the first security review,
// finding 1).
TEST(WorkerConfinementTest, AddressSpaceLimitIsTheMappedSizePlusTheDataLimitAndHeadroom) {
  WorkerProcess worker;
  worker.send(start_frame("async (i, tools) => (await tools.call('wait', {})).status", nullptr));
  ASSERT_TRUE(worker.receive().has_value());  // confined
  ASSERT_TRUE(worker.receive().has_value());  // toolCall: the program is waiting
  const std::uint64_t limit = address_space_limit(worker.pid());
  const std::uint64_t data = data_limit(worker.pid());
  const std::uint64_t vm_size = std::stoull(proc_status(worker.pid())["VmSize"]) * 1024;
  ASSERT_GT(limit, 0u) << "no RLIMIT_AS";
  EXPECT_GT(limit, vm_size + data);  // room left to reach the data limit
  EXPECT_LE(limit, vm_size + data + worker::kAddressSpaceHeadroomBytes);
}

// A worker started as root keeps no capability (the first security review, finding 6): every set is
// empty, the bounding set included, on every one of its threads.
TEST(WorkerConfinementTest, WorkerHoldsNoCapabilityOnAnyThread) {
  WorkerProcess worker;
  worker.send(start_frame("async (i, tools) => (await tools.call('wait', {})).status", nullptr));
  ASSERT_TRUE(worker.receive().has_value());  // confined
  ASSERT_TRUE(worker.receive().has_value());  // toolCall: the program is waiting
  int threads = 0;
  for (const auto& task :
       std::filesystem::directory_iterator("/proc/" + std::to_string(worker.pid()) + "/task")) {
    ++threads;
    std::map<std::string, std::string> caps = proc_status_at(task.path() / "status");
    for (const char* set : {"CapInh", "CapPrm", "CapEff", "CapAmb"}) {
      EXPECT_EQ(caps[set], "0000000000000000") << set << " of " << task.path();
    }
    if (geteuid() == 0) {
      EXPECT_EQ(caps["CapBnd"], "0000000000000000") << task.path();
    }
  }
  EXPECT_GE(threads, 3);  // the engine thread, its helper and the watchdog at least
}

TEST(WorkerConfinementTest, ProductionWorkerHasNoTestHook) {
  Execution run = execute("() => typeof __codemodeTestHook");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), "undefined");
}

TEST(WorkerConfinementTest, TestHookWithAnUnknownNameReturns) {
  // The hook itself works: an allowed path returns to the program.
  Execution run =
      execute("() => __codemodeTestHook('nothing')", nullptr, {}, echo_tool, kTestHooksBinary);
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), -1);
}

// The interpreter profile allows no executable memory at all, whatever CODEMODE_TEST_ENGINE says
// (the JIT profile's W^X rule is in worker_jit_test.cc).
TEST(WorkerConfinementTest, InterpreterWorkerIsKilledByAnyExecutableMemory) {
  for (const char* hook : {"'mmap_exec'", "'mprotect_exec'"}) {
    SCOPED_TRACE(hook);
    Execution run = execute(std::string("() => __codemodeTestHook(") + hook + ")", nullptr, {},
                            echo_tool, kTestHooksBinary, EngineProfile::kInterpreter);
    EXPECT_TRUE(run.confined.has_value());
    EXPECT_FALSE(run.result.has_value());
    EXPECT_TRUE(run.killed_by(SIGSYS)) << "wait status " << run.wait_status.value_or(-1);
  }
}

class ForbiddenSyscallTest : public ::testing::TestWithParam<const char*> {};

// The parameter is the hook's arguments. Were a call let through, each would fail harmlessly: the
// paths do not exist, nothing listens on port 1, and no process has pid 2147483647. Forbidden in
// both engine profiles.
TEST_P(ForbiddenSyscallTest, KillsTheWorkerWithSigsys) {
  Execution run = execute(std::string("() => __codemodeTestHook(") + GetParam() + ")", nullptr, {},
                          echo_tool, kTestHooksBinary);
  EXPECT_TRUE(run.confined.has_value());
  EXPECT_FALSE(run.result.has_value());
  EXPECT_TRUE(run.killed_by(SIGSYS)) << "wait status " << run.wait_status.value_or(-1);
}

INSTANTIATE_TEST_SUITE_P(Calls, ForbiddenSyscallTest,
                         ::testing::Values("'open'", "'create', '/nonexistent/codemode-hook'",
                                           "'socket'", "'connect', 1", "'fork'", "'exec'",
                                           "'exec', '/bin/true'", "'mmap_wx'", "'mprotect_wx'",
                                           "'ptrace', 2147483647", "'kill', 2147483647",
                                           "'mmap_shared', 1073741824", "'mmap_growsdown'",
                                           "'mremap_alias'", "'madvise', 12"));

}  // namespace
}  // namespace codemode::testing
