// What docs/limits.md ("Recursion") promises of ProcessAdapterOptions::stack_bytes, through the
// process adapter and the real worker, in both engine profiles and at four quotas (the least, the
// code tool's default and largest, the adapter's default and largest): every recursion ends as a
// catchable InternalError, or as memory_limit when interpreted frames outgrow the memory limit
// first, never a crash; the quota bounds what runs on the native stack (recursion through
// natives, and everything compiled); interpreted frames stop at the engine's fixed cap whatever
// the quota.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "core/sanitizer_build.h"
#include "support/adapter_options.h"
#include "support/executor_fixture.h"
#include "support/process_support.h"

namespace codemode {
namespace {

constexpr std::int64_t kQuotas[] = {kMinEngineStackBytes, 256 << 10, 1 << 20, kMaxEngineStackBytes};

// SpiderMonkey 102's cap on the interpreter's heap-allocated frames (InterpreterStack, for a realm
// whose principals are the trusted ones: the worker sets none, so both are null), a constant of
// the engine that no quota changes.
constexpr std::int64_t kInterpreterFrameCap = 51'000;

// Recursions whose every level passes through a native function, so through the native stack in
// either profile.
constexpr const char* kThroughNatives[] = {
    "const o = {toString() { depth++; return String(o); }}; String(o);",
    "function f() { depth++; JSON.parse('[1]', f); } f();",
};

// Recursions the JIT compiles to frames on the native stack: a plain call, and a getter (which the
// interpreter calls through a native, the JIT directly).
constexpr const char* kPlain[] = {
    "function f() { depth++; f(); } f();",
    "const o = {get x() { depth++; return this.x; }}; o.x;",
};

CodeLimits recursion_limits() {
  CodeLimits limits = testing::reference_limits();
  limits.cpu_millis = 10'000;
  limits.wall_time_millis = 30'000;
  return limits;
}

CodeExecutionOutcome run(EngineProfile engine, std::int64_t stack_bytes, const std::string& source,
                         CodeLimits limits = recursion_limits()) {
  ProcessAdapterOptions options = testing::adapter_options(*testing::worker_binary());
  options.isolation = IsolationProfile::kProcess;
  options.engine = engine;
  options.stack_bytes = stack_bytes;
  auto mode = CodeMode::create({.adapter = make_process_adapter(std::move(options)),
                                .invoke_tool = testing::doubling_broker()})
                  .value();
  return mode->execute(testing::any_json_program(source, limits), nullptr,
                       testing::execute_options());
}

// How deep `recursion` went (it counts its levels in `depth`) before the program caught
// InternalError "too much recursion"; -1 when it ended any other way.
std::int64_t caught_depth(EngineProfile engine, std::int64_t stack_bytes,
                          const std::string& recursion) {
  const CodeExecutionOutcome outcome =
      run(engine, stack_bytes,
          "() => { let depth = 0; try { " + recursion +
              " } catch (e) { return [e.name, e.message, depth]; } }");
  EXPECT_TRUE(outcome.ok()) << to_json(outcome);
  if (!outcome.ok()) return -1;
  EXPECT_EQ((*outcome.output)[0], "InternalError");
  EXPECT_EQ((*outcome.output)[1], "too much recursion");
  return (*outcome.output)[2].get<std::int64_t>();
}

const char* name(EngineProfile engine) {
  return engine == EngineProfile::kJit ? "jit" : "interpreter";
}

class ProcessAdapterStackTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_WORKER();
    CODEMODE_SKIP_REPEATED_COMBINATION(testing::runs_for_its_spawn_mode());
  }
  void TearDown() override {
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty()) << "a worker was left behind";
  }
};

// The documented deviation: in the interpreter profile plain calls never touch the native stack,
// so the least quota and the largest reach the same depth, the engine's frame cap.
TEST_F(ProcessAdapterStackTest, InterpretedFramesStopAtTheEnginesCapWhateverTheQuota) {
  std::vector<std::int64_t> depths;
  for (std::int64_t quota : kQuotas) {
    SCOPED_TRACE(quota);
    depths.push_back(caught_depth(EngineProfile::kInterpreter, quota, kPlain[0]));
    EXPECT_LE(depths.back(), kInterpreterFrameCap);
    EXPECT_GT(depths.back(), kInterpreterFrameCap - 10);  // the program's own few frames
  }
  EXPECT_EQ(depths.front(), depths.back());
}

// What runs on the native stack stops at the quota: deeper with each larger quota, and never
// more levels than the quota has room for. A level through a native takes over 1 KiB of native
// stack (about 2 KiB measured); a compiled frame at least 32 bytes (its return address, frame
// descriptor, callee and argument count; about 50 measured).
TEST_F(ProcessAdapterStackTest, WhatRunsOnTheNativeStackStopsAtTheQuota) {
  struct Case {
    EngineProfile engine;
    const char* recursion;
    std::int64_t least_bytes_per_level;
  };
  std::vector<Case> cases;
  for (const char* recursion : kThroughNatives) {
    cases.push_back({EngineProfile::kInterpreter, recursion, 1024});
    cases.push_back({EngineProfile::kJit, recursion, 1024});
  }
  for (const char* recursion : kPlain) cases.push_back({EngineProfile::kJit, recursion, 32});
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(name(c.engine)) + ": " + c.recursion);
    std::int64_t shallower = 0;
    for (std::int64_t quota : kQuotas) {
      SCOPED_TRACE(quota);
      const std::int64_t depth = caught_depth(c.engine, quota, c.recursion);
      EXPECT_GT(depth, shallower);
      EXPECT_LE(depth * c.least_bytes_per_level, quota);
      shallower = depth;
    }
  }
}

// Interpreted frames are the engine's heap, counted by the worker's RLIMIT_DATA: 2,000 locals make
// each about 16 KiB, so the recursion runs out of memory long before the frame cap, and that is
// terminal. Compiled, the same frames are on the native stack and the quota stops them.
TEST_F(ProcessAdapterStackTest, LargeInterpretedFramesEndAtTheMemoryLimitFirst) {
  std::string locals;
  for (int i = 0; i < 2000; ++i) {
    locals += "let a" + std::to_string(i) + " = n + " + std::to_string(i) + "; ";
  }
  const std::string source = "() => { let depth = 0; function f(n) { depth++; " + locals +
                             "return 1 + f(n + 1) + (a0 + a1999) * 0; } "
                             "try { f(0); } catch (e) { return [e.name, e.message, depth]; } }";
  const CodeExecutionOutcome interpreted =
      run(EngineProfile::kInterpreter, kMaxEngineStackBytes, source);
  ASSERT_TRUE(interpreted.error.has_value()) << to_json(interpreted);
  if (internal::kSanitizerBuild && interpreted.error->rule == "worker_exited") {
    // Under ASan the data limit can refuse one of the sanitizer's own mappings first, and ASan
    // ends the worker ("Failed to mmap"; docs/security.md, "Sanitizer builds").
    EXPECT_EQ(interpreted.error->code, ErrorCode::kToolFailed);
  } else {
    EXPECT_EQ(interpreted.error->code, ErrorCode::kLimitExceeded);
    EXPECT_EQ(interpreted.error->rule, "memory_limit");
  }
  const CodeExecutionOutcome compiled = run(EngineProfile::kJit, kMaxEngineStackBytes, source);
  ASSERT_TRUE(compiled.ok()) << to_json(compiled);
  EXPECT_EQ((*compiled.output)[0], "InternalError");
  EXPECT_LT((*compiled.output)[2].get<std::int64_t>(), kInterpreterFrameCap);
}

}  // namespace
}  // namespace codemode
