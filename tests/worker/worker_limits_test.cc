// The limits inside codemode-worker: cpuMillis (watchdog + interrupt, uncatchable), memoryBytes
// (RLIMIT_DATA and the GC cap, out-of-memory made terminal) and the native stack quota (deep
// recursion is a catchable InternalError, never a crash).
#include <thread>

#include <sys/wait.h>

#include <gtest/gtest.h>

#include "support/timing.h"
#include "worker/exit_codes.h"
#include "worker/worker_process.h"

namespace codemode::testing {
namespace {

constexpr std::int64_t kCpuMillis = 300;

StartLimits cpu_limits() {
  StartLimits limits;
  limits.cpu_millis = kCpuMillis;
  limits.memory_bytes = 256 << 20;
  return limits;
}

// The program must stop as cpu_limit, after at least its budget and not long after it.
void expect_cpu_limit(std::string_view source) {
  SCOPED_TRACE(std::string(source));
  Execution run = execute(source, nullptr, cpu_limits());
  EXPECT_EQ(run.reason(), "cpu_limit");
  ASSERT_TRUE(run.result.has_value());
  EXPECT_FALSE(run.result->contains("programError"));
  EXPECT_GE(run.elapsed.count(), kCpuMillis);
  // Start-up and a loaded machine.
  EXPECT_LT(run.elapsed, slack(std::chrono::milliseconds(kCpuMillis + 2000)));
  EXPECT_TRUE(run.exited_normally(0));
}

StartLimits memory_limits() {
  StartLimits limits;
  limits.memory_bytes = 64 << 20;
  limits.cpu_millis = 20000;
  return limits;
}

void expect_memory_limit(std::string_view source, const StartLimits& limits = memory_limits()) {
  SCOPED_TRACE(std::string(source));
  Execution run = execute(source, nullptr, limits);
  EXPECT_EQ(run.reason(), "memory_limit");
  ASSERT_TRUE(run.result.has_value());
  EXPECT_FALSE(run.result->contains("programError"));
  EXPECT_TRUE(run.exited_normally(0));
}

TEST(WorkerCpuLimitTest, InfiniteLoopStops) { expect_cpu_limit("() => { while (true) {} }"); }

TEST(WorkerCpuLimitTest, CatchAroundTheLoopCannotContinue) {
  expect_cpu_limit("() => { for (;;) { try { while (true) {} } catch (e) {} } }");
}

TEST(WorkerCpuLimitTest, FinallyCannotContinue) {
  expect_cpu_limit("() => { try { for (;;) {} } finally { for (;;) {} } }");
}

TEST(WorkerCpuLimitTest, CatastrophicRegexStops) {
  expect_cpu_limit("() => /(a+)+$/.test('a'.repeat(40) + 'b')");
}

// Sorts without end. In the JIT profile one native sort whose comparator is compiled runs to its
// end before the stop lands (docs/worker.md, "The JIT engine profile"): sorts of half a million
// numbers (about 0.13 s each) keep that within the bound on a loaded machine, where one sort of
// three million took 0.9 s on an idle one.
TEST(WorkerCpuLimitTest, BigNativeSortStops) {
  expect_cpu_limit(
      "() => { const a = Array.from({length: 5e5}, (_, i) => (i * 7919) % 1000003); "
      "for (;;) { a.sort((x, y) => x - y); a.sort((x, y) => y - x); } }");
}

TEST(WorkerCpuLimitTest, StringifyLoopStops) {
  expect_cpu_limit(
      "() => { const o = Array.from({length: 2e5}, (_, i) => ({i, s: 'x' + i})); "
      "for (;;) JSON.stringify(o); }");
}

TEST(WorkerCpuLimitTest, MicrotaskLoopStops) {
  expect_cpu_limit("async () => { for (;;) await null; }");
}

TEST(WorkerCpuLimitTest, PromiseStormStopsWithoutFillingMemory) {
  expect_cpu_limit(
      "() => { const f = () => Promise.resolve().then(f); f(); "
      "return new Promise(() => {}); }");
}

TEST(WorkerCpuLimitTest, ToJsonOfTheResultIsMetered) {
  expect_cpu_limit("() => ({toJSON() { for (;;) {} }})");
}

TEST(WorkerCpuLimitTest, WaitingForToolsIsNotCounted) {
  StartLimits limits;
  limits.cpu_millis = 100;
  Execution run = execute("async (i, tools) => (await tools.call('slow', {})).status", nullptr,
                          limits, [](const Json& call) {
                            std::this_thread::sleep_for(std::chrono::milliseconds(400));
                            return echo_tool(call);
                          });
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), "succeeded");
}

// The parent kills the worker at wallTimeMillis; a worker whose parent did not (and stopped
// answering) ends itself a second later, without a result.
TEST(WorkerWallTimeTest, WorkerEndsItselfAfterTheWallTimeBackstop) {
  WorkerProcess worker;
  StartLimits limits;
  limits.wall_time_millis = 200;
  const auto started = std::chrono::steady_clock::now();
  worker.send(start_frame("async (i, tools) => tools.call('never', {})", nullptr, limits));
  ASSERT_TRUE(worker.receive().has_value());  // confined
  ASSERT_TRUE(worker.receive().has_value());  // toolCall, never answered
  std::optional<int> status = worker.wait(std::chrono::seconds(20));
  const auto waited = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(status.has_value());
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == worker::kExitWallTime);
  EXPECT_GE(waited, std::chrono::milliseconds(1200));
  EXPECT_FALSE(worker.receive(std::chrono::milliseconds(100)).has_value());
}

TEST(WorkerMemoryLimitTest, ObjectsPastTheLimitStop) {
  expect_memory_limit("() => { const a = []; for (;;) a.push({i: a.length}); }");
}

// At a larger limit the process cap (RLIMIT_DATA) can run out inside a garbage collection, where
// SpiderMonkey cannot recover; the worker still reports memory_limit instead of crashing.
TEST(WorkerMemoryLimitTest, ObjectsPastALargeLimitStop) {
  StartLimits limits = memory_limits();
  limits.memory_bytes = 256 << 20;
  expect_memory_limit("() => { const a = []; for (;;) a.push({i: a.length}); }", limits);
}

TEST(WorkerMemoryLimitTest, ObjectsAfterTypedArraysFilledTheLimitStop) {
  StartLimits limits = memory_limits();
  limits.memory_bytes = 256 << 20;
  expect_memory_limit(
      "() => { const big = []; for (let i = 0; i < 290; i++) big.push(new Uint8Array(1 << 20)); "
      "const a = []; for (;;) a.push({i: a.length}); }",
      limits);
}

TEST(WorkerMemoryLimitTest, TypedArraysPastTheLimitStop) {
  expect_memory_limit("() => { const a = []; for (;;) a.push(new Uint8Array(1 << 20)); }");
}

TEST(WorkerMemoryLimitTest, StringsPastTheLimitStop) {
  // toUpperCase copies the characters, so every string owns its megabyte. (slice does not: on a
  // rope it may return a rope over a dependent string of s, a few bytes each, and the program
  // then met its CPU limit first or its memory limit first depending on the GC's timing.)
  expect_memory_limit(
      "() => { const s = 'x'.repeat(1 << 20); const a = []; "
      "for (;;) a.push((a.length + s).toUpperCase()); }");
}

TEST(WorkerMemoryLimitTest, MapPastTheLimitStops) {
  expect_memory_limit("() => { const m = new Map(); for (let i = 0;; i++) m.set(i, i); }");
}

TEST(WorkerMemoryLimitTest, HugeArrayBufferStops) {
  expect_memory_limit("() => new ArrayBuffer(8 * 1024 * 1024 * 1024).byteLength");
}

TEST(WorkerMemoryLimitTest, CatchingOutOfMemoryDoesNotHelp) {
  expect_memory_limit(
      "async (i, tools) => { const a = []; try { for (;;) a.push(new Uint8Array(1 << 20)); } "
      "catch (e) { await tools.call('after', {}); return 'survived'; } }");
}

TEST(WorkerMemoryLimitTest, ProgramBelowTheLimitRuns) {
  Execution run = execute(
      "() => { const a = []; for (let i = 0; i < 40; i++) a.push(new Uint8Array(1 << 20)); "
      "return a.length; }",
      nullptr, memory_limits());
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), 40);
}

TEST(WorkerMemoryLimitTest, ThrowingOutOfMemoryYourselfIsAProgramError) {
  Execution run = execute("() => { throw 'out of memory'; }", nullptr, memory_limits());
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ((*run.result)["programError"]["message"], "out of memory");
}

TEST(WorkerStackTest, PlainRecursionIsCatchable) {
  Execution run = execute(
      "() => { let depth = 0; function f() { depth++; f(); } "
      "try { f(); } catch (e) { return [e.name, e.message, depth > 10000]; } }");
  ASSERT_TRUE(run.succeeded());
  EXPECT_EQ(run.output(), (Json{"InternalError", "too much recursion", true}));
}

// The start frame's stackBytes lowers the quota for that program: recursion through natives (the
// native stack is what the quota bounds; plain interpreted frames live on the heap) ends much
// sooner, and is still catchable.
TEST(WorkerStackTest, TheStartFramesStackBytesBoundsRecursion) {
  constexpr const char* kDepth =
      "() => { let depth = 0; function f() { depth++; f.apply(null); } "
      "try { f(); } catch (e) { return [e.name, depth]; } }";
  Execution full = execute(kDepth);
  Execution small = execute(kDepth, nullptr, StartLimits{.stack_bytes = 256 << 10});
  ASSERT_TRUE(full.succeeded());
  ASSERT_TRUE(small.succeeded());
  EXPECT_EQ(small.output()[0], "InternalError");
  const std::int64_t full_depth = full.output()[1].get<std::int64_t>();
  const std::int64_t small_depth = small.output()[1].get<std::int64_t>();
  EXPECT_GT(small_depth, 0);  // ~140 frames in release; sanitizers make frames larger
  // 256 KiB of 6 MiB: about 1/24 of the depth; well under a quarter whatever the frame size.
  EXPECT_LT(small_depth * 4, full_depth);
}

TEST(WorkerStackTest, RecursionThroughNativesIsCatchable) {
  for (const char* recursion :
       {"const o = {get x() { depth++; return this.x; }}; o.x;",
        "function f() { depth++; f.apply(null, []); } f();",
        "const o = {toString() { depth++; return String(o); }}; String(o);",
        "const p = new Proxy({}, {get(t, k, r) { depth++; return r.x; }}); p.x;",
        "function f() { depth++; JSON.parse('[1]', f); } f();",
        "function f() { depth++; [1].map(f); } f();"}) {
    SCOPED_TRACE(recursion);
    Execution run = execute(std::string("() => { let depth = 0; try { ") + recursion +
                            " } catch (e) { return [e.name, depth > 1000]; } }");
    ASSERT_TRUE(run.succeeded()) << run.describe();
    EXPECT_EQ(run.output(), (Json{"InternalError", true}));
  }
}

TEST(WorkerStackTest, UncaughtOverRecursionIsAProgramError) {
  Execution run = execute("() => { const f = () => f(); return f(); }");
  EXPECT_EQ(run.reason(), "program_error");
  EXPECT_EQ((*run.result)["programError"].at("name"), "InternalError");
  EXPECT_EQ((*run.result)["programError"].at("message"), "too much recursion");
  EXPECT_EQ((*run.result)["programError"].at("line"), 1);  // the program's own frame
}

TEST(WorkerStackTest, DeepStructuresFailCleanly) {
  Execution run = execute(
      "() => { let a = []; for (let i = 0; i < 1e6; i++) a = [a]; const seen = []; "
      "for (const f of [() => JSON.stringify(a), () => String(a), () => a.flat(Infinity)]) "
      "{ try { f(); seen.push('ok'); } catch (e) { seen.push(e.name); } } return seen; }",
      nullptr, StartLimits{.cpu_millis = 20000, .memory_bytes = 256 << 20});
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), (Json{"InternalError", "InternalError", "InternalError"}));
}

TEST(WorkerStackTest, DeeplyNestedSourceIsASyntaxOrRecursionError) {
  Execution run = execute(
      "() => { try { return Function('return ' + '('.repeat(1e5) + '1' + ')'.repeat(1e5))(); } "
      "catch (e) { return e.name; } }");
  ASSERT_TRUE(run.succeeded()) << run.describe();
  EXPECT_EQ(run.output(), "InternalError");
}

}  // namespace
}  // namespace codemode::testing
