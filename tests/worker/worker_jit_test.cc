// The JIT engine profile (codemode-worker --jit, EngineProfile::kJit) from the worker's side,
// whatever CODEMODE_TEST_ENGINE says: it names its two weaker layers, its compilers run hot code
// to the right answer under a filter that lets JIT code become executable (never writable and
// executable at once), and the engine's limits still hold in compiled code. The interpreter
// profile's refusal of all executable memory is in worker_confinement_test.cc; scripts/test also
// runs this whole folder with CODEMODE_TEST_ENGINE=jit.
#include <span>
#include <string>
#include <vector>

#include <signal.h>

#include <gtest/gtest.h>

#include "protocol/frame_format.h"
#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

constexpr EngineProfile kJit = EngineProfile::kJit;
constexpr EngineProfile kInterpreter = EngineProfile::kInterpreter;

Execution run_jit(std::string_view source, const StartLimits& limits = {}) {
  return execute(source, nullptr, limits, echo_tool, kWorkerBinary, kJit);
}

std::vector<std::string> layers_of(const Execution& run) {
  return (*run.confined)["layers"].get<std::vector<std::string>>();
}

std::vector<std::string> strings(std::span<const std::string_view> names) {
  return {names.begin(), names.end()};
}

TEST(WorkerJitTest, JitWorkerNamesItsWeakerLayersAndTheInterpreterDoesNot) {
  const Execution jit = run_jit("() => 1");
  ASSERT_TRUE(jit.confined.has_value());
  EXPECT_EQ(layers_of(jit), strings(internal::kJitConfinementLayers));
  const Execution interpreted =
      execute("() => 1", nullptr, {}, echo_tool, kWorkerBinary, kInterpreter);
  ASSERT_TRUE(interpreted.confined.has_value());
  EXPECT_EQ(layers_of(interpreted), strings(internal::kConfinementLayers));
}

// 20 million additions: about 25 ms compiled and 2.5 s interpreted on the development machine, so
// a 500 ms budget shows the JIT is really on in one profile and really off in the other, with a
// wide margin either way (CPU time, not wall time: a loaded machine does not change it much).
constexpr std::string_view kHotLoop =
    "() => { let s = 0; for (let i = 0; i < 20000000; i++) { s = (s + (i & 1023)) | 0; } "
    "return s; }";

TEST(WorkerJitTest, HotLoopRunsCompiledToTheRightAnswerWithinABudgetTheInterpreterExceeds) {
  StartLimits limits;
  limits.cpu_millis = 500;
  const Execution jit = run_jit(kHotLoop, limits);
  ASSERT_TRUE(jit.succeeded()) << jit.describe();
  EXPECT_EQ(jit.output(), 1639967104);
  EXPECT_TRUE(jit.exited_normally(0));  // the JIT's executable mappings did not kill it
  const Execution interpreted =
      execute(kHotLoop, nullptr, limits, echo_tool, kWorkerBinary, kInterpreter);
  EXPECT_EQ(interpreted.reason(), "cpu_limit");
}

// Code that Ion compiles, then must throw away (bailouts on a type change), then compiles again.
TEST(WorkerJitTest, DeoptimisedCodeStillComputesTheSameAnswer) {
  const Execution run = run_jit(
      "() => { function add(a, b) { return a + b; } let n = 0, d = 0, s = '';"
      "for (let i = 0; i < 200000; i++) n = add(n, i & 7);"
      "for (let i = 0; i < 200000; i++) d = add(d, 0.5);"
      "for (let i = 0; i < 1000; i++) s = add(s, i % 10);"
      "for (let i = 0; i < 200000; i++) n = add(n, 1);"
      "return [n, d, s.length, s.slice(0, 12)]; }");
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), (Json{900000, 100000, 1000, "012345678901"}));
}

TEST(WorkerJitTest, CpuLimitStopsCompiledCode) {
  StartLimits limits;
  limits.cpu_millis = 300;
  for (const char* source :
       {"() => { while (true) {} }", "() => { let i = 0; for (;;) { i = (i + 1) | 0; } }",
        "() => { function f(x) { return x + 1; } let y = 0; while (true) y = f(y) | 0; }",
        "() => /(a+)+$/.test('a'.repeat(40) + 'b')"}) {
    SCOPED_TRACE(source);
    const Execution run = run_jit(source, limits);
    EXPECT_EQ(run.reason(), "cpu_limit");
    EXPECT_TRUE(run.exited_normally(0));
  }
}

// The second program is the one the JIT profile's GC guard exists for (on_major_gc_end in
// engine.cc): without it, compiled code that keeps pretenured objects alive near the cap made
// SpiderMonkey collect once per arena until the 5 s cpuMillis ran out (cpu_limit).
TEST(WorkerJitTest, MemoryLimitStopsCompiledCode) {
  StartLimits limits;
  limits.memory_bytes = 64 << 20;
  for (const char* source : {"() => { const a = []; for (;;) a.push(new Uint8Array(1 << 20)); }",
                             "() => { const a = []; for (let i = 0; ; i++) a.push({i}); }"}) {
    SCOPED_TRACE(source);
    const Execution run = run_jit(source, limits);
    EXPECT_EQ(run.reason(), "memory_limit");
    EXPECT_TRUE(run.exited_normally(0));
  }
}

// Wasm and asm.js stay off in the JIT profile: no WebAssembly global, and an asm.js module runs
// as plain JavaScript.
TEST(WorkerJitTest, WebAssemblyIsAbsent) {
  const Execution run = run_jit(
      "() => { function m() { 'use asm'; function f(x) { x = x | 0; return (x + 1) | 0; } "
      "return f; } return [typeof WebAssembly, m()(41)]; }");
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), (Json{"undefined", 42}));
}

// Recursion is deeper when compiled (JIT frames are smaller than the interpreter's), and still a
// catchable InternalError at the same native stack quota.
TEST(WorkerJitTest, DeepRecursionIsStillCatchable) {
  const Execution run = run_jit(
      "() => { let depth = 0; function f() { depth++; f(); } "
      "try { f(); } catch (e) { return [e.name, e.message, depth > 10000]; } }");
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), (Json{"InternalError", "too much recursion", true}));
}

// What the JIT needs, from native code after the filter: read-and-execute mappings and read-write
// pages made read-and-execute return normally (0); both writable and executable kills (W^X).
TEST(WorkerJitTest, ExecutableMemoryIsAllowedButNeverWritableAndExecutable) {
  const Execution allowed =
      execute("() => [__codemodeTestHook('mmap_exec'), __codemodeTestHook('mprotect_exec')]",
              nullptr, {}, echo_tool, kTestHooksBinary, kJit);
  ASSERT_TRUE(allowed.succeeded()) << allowed.describe();
  EXPECT_EQ(allowed.output(), (Json{0, 0}));
  for (const char* hook : {"'mmap_wx'", "'mprotect_wx'"}) {
    SCOPED_TRACE(hook);
    const Execution killed = execute(std::string("() => __codemodeTestHook(") + hook + ")", nullptr,
                                     {}, echo_tool, kTestHooksBinary, kJit);
    EXPECT_TRUE(killed.confined.has_value());
    EXPECT_FALSE(killed.result.has_value());
    EXPECT_TRUE(killed.killed_by(SIGSYS)) << "wait status " << killed.wait_status.value_or(-1);
  }
}

}  // namespace
}  // namespace codemode::testing
