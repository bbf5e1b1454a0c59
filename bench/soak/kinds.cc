// The mix, as data: one row per kind, grouped as successes, limits the worker enforces, and what
// the host refuses or stops. Limits are small (cpu 50-200 ms, wall 100 ms-2 s) so that 10,000
// executions take minutes, not hours.
#include "soak/kinds.h"

#include <utility>

namespace codemode::soak {
namespace {

// The limits a kind may change; the rest are the same for every kind (soak_limits).
struct LimitTweaks {
  std::int64_t cpu_millis = 200;
  std::int64_t wall_time_millis = 2000;
  std::int64_t max_output_bytes = 4096;
  std::int64_t max_tool_calls = 8;
  std::int64_t max_tool_concurrency = 4;
};

CodeLimits soak_limits(const LimitTweaks& tweaks) {
  return CodeLimits{.cpu_millis = tweaks.cpu_millis,
                    .wall_time_millis = tweaks.wall_time_millis,
                    .memory_bytes = 16 << 20,
                    .scratch_bytes = 1,
                    .max_input_bytes = 4096,
                    .max_output_bytes = tweaks.max_output_bytes,
                    .max_tool_input_bytes = 1024,
                    .max_tool_calls = tweaks.max_tool_calls,
                    .max_tool_concurrency = tweaks.max_tool_concurrency};
}

// Enough for every call the programs make; the budget kind sets its own.
constexpr BudgetLimits kAmpleBudget{.max_cost_micros = 1000, .max_calls = 100};

struct KindSpec {
  const char* name;
  const char* source;
  ExpectedOutcome expected;
  int weight;
  Json input = Json::object();
  LimitTweaks limits{};
  WorkerBinary worker = WorkerBinary::kStandard;
  BudgetLimits budget = kAmpleBudget;
  Cancellation cancellation = Cancellation::kNone;
};

ExpectedOutcome succeeds_with(const char* output) { return {succeeded_key(), Json::parse(output)}; }

ExpectedOutcome fails_with(ErrorCode code, const char* rule) { return {error_key(code, rule), {}}; }

// Three sequential calls, each answer recorded as "ok" or the error code the program saw.
constexpr const char* kThreeCalls = R"js(async (input, tools) => {
  const seen = [];
  for (let i = 0; i < 3; i++) {
    const r = await tools.call('number.double', { value: i });
    seen.push(r.status === 'succeeded' ? 'ok' : r.error.code);
  }
  return { seen };
})js";

constexpr const char* kSeveralCalls = R"js(async (input, tools) => {
  let value = input.value;
  for (let i = 0; i < 3; i++) value = (await tools.call('number.double', { value })).output.value;
  const all = await Promise.all([1, 2, 3].map((v) => tools.call('number.double', { value: v })));
  return { value, sum: all.reduce((s, r) => s + r.output.value, 0) };
})js";

constexpr const char* kToolFailure = R"js(async (input, tools) => {
  const r = await tools.call('soak.fail', {});
  return { status: r.status, code: r.error.code };
})js";

// The second call is made while the first (150 ms) is in flight, with a concurrency of one.
constexpr const char* kTwoAtOnce = R"js(async (input, tools) => {
  const slow = tools.call('soak.sleep', { ms: 150 });
  const second = await tools.call('number.double', { value: 1 });
  await slow;
  return { second: second.status === 'succeeded' ? 'ok' : second.error.code };
})js";

constexpr const char* kSleepLong = "async (input, tools) => tools.call('soak.sleep', { ms: 1000 })";

std::vector<KindSpec> success_specs() {
  return {
      {.name = "success_no_tool_calls",
       .source = "(input) => ({ sum: input.values.reduce((a, b) => a + b, 0) })",
       .expected = succeeds_with(R"({"sum":10})"),
       .weight = 14,
       .input = Json::parse(R"({"values":[1,2,3,4]})")},
      {.name = "success_one_tool_call",
       .source = "async (input, tools) => (await tools.call('number.double', input)).output",
       .expected = succeeds_with(R"({"value":42})"),
       .weight = 14,
       .input = Json{{"value", 21}}},
      {.name = "success_several_tool_calls",
       .source = kSeveralCalls,
       .expected = succeeds_with(R"({"value":40,"sum":12})"),
       .weight = 10,
       .input = Json{{"value", 5}}},
      {.name = "tool_failure",
       .source = kToolFailure,
       .expected = succeeds_with(R"({"status":"failed","code":"TOOL_FAILED"})"),
       .weight = 5},
  };
}

std::vector<KindSpec> worker_limit_specs() {
  return {
      {.name = "program_throws",
       .source = "() => { throw new TypeError('soak'); }",
       .expected = fails_with(ErrorCode::kToolFailed, "program_error"),
       .weight = 5},
      {.name = "cpu_limit",
       .source = "() => { for (;;) {} }",
       .expected = fails_with(ErrorCode::kLimitExceeded, "cpu_limit"),
       .weight = 5,
       .limits = {.cpu_millis = 50}},
      {.name = "memory_limit",
       .source = "() => { const a = []; for (;;) a.push(new Uint8Array(1 << 20)); }",
       .expected = fails_with(ErrorCode::kLimitExceeded, "memory_limit"),
       .weight = 5},
      {.name = "invalid_output_cyclic",
       .source = "() => { const o = {}; o.self = o; return o; }",
       .expected = fails_with(ErrorCode::kInvalidOutput, "output_cycle"),
       .weight = 4},
      {.name = "invalid_output_undefined",
       .source = "() => undefined",
       .expected = fails_with(ErrorCode::kInvalidOutput, "output_not_json"),
       .weight = 4},
      {.name = "invalid_output_oversized",
       .source = "() => 'x'.repeat(8192)",  // maxOutputBytes is 4096
       .expected = fails_with(ErrorCode::kInvalidOutput, "max_output_bytes"),
       .weight = 4},
      // openat is not in the seccomp allow-list: the kernel kills the worker with SIGSYS.
      {.name = "crash_sigsys",
       .source = "() => __codemodeTestHook('open')",
       .expected = fails_with(ErrorCode::kToolFailed, "worker_exited"),
       .weight = 5,
       .worker = WorkerBinary::kTestHooks},
  };
}

std::vector<KindSpec> host_stop_specs() {
  return {
      {.name = "wall_timeout",
       .source = kSleepLong,
       .expected = fails_with(ErrorCode::kTimeout, "wall_time_limit"),
       .weight = 4,
       .limits = {.wall_time_millis = 100}},
      {.name = "cancel_during_tool_call",
       .source = kSleepLong,
       .expected = fails_with(ErrorCode::kCancelled, "cancelled"),
       .weight = 4,
       .cancellation = Cancellation::kDuringToolCall},
      {.name = "cancel_while_computing",
       .source = "async (input, tools) => { await tools.call('number.double', { value: 1 }); "
                 "for (;;) {} }",
       .expected = fails_with(ErrorCode::kCancelled, "cancelled"),
       .weight = 4,
       .cancellation = Cancellation::kAfterToolCall},
      {.name = "budget_exhausted",
       .source = kThreeCalls,
       .expected = succeeds_with(R"({"seen":["ok","ok","BUDGET_EXCEEDED"]})"),
       .weight = 5,
       .budget = {.max_cost_micros = 1000, .max_calls = 2}},
      {.name = "max_tool_calls",
       .source = kThreeCalls,
       .expected = succeeds_with(R"({"seen":["ok","ok","LIMIT_EXCEEDED"]})"),
       .weight = 5,
       .limits = {.max_tool_calls = 2, .max_tool_concurrency = 2}},
      {.name = "max_tool_concurrency",
       .source = kTwoAtOnce,
       .expected = succeeds_with(R"({"second":"LIMIT_EXCEEDED"})"),
       .weight = 3,
       .limits = {.max_tool_calls = 4, .max_tool_concurrency = 1}},
  };
}

Result<SoakKind> compile_kind(KindSpec spec, const SoakTools& tools) {
  Result<CodeProgram> program = define_code_program({.id = std::string("soak.") + spec.name,
                                                     .version = "1",
                                                     .intent = "One kind of the soak's mix.",
                                                     .source = spec.source,
                                                     .input = Schema::any(),
                                                     .output = Schema::any(),
                                                     .input_schema_id = "any",
                                                     .output_schema_id = "any",
                                                     .tools = all_tools(tools),
                                                     .limits = soak_limits(spec.limits)});
  if (!program.ok()) return program.error();
  return SoakKind{.name = spec.name,
                  .program = std::move(program).value(),
                  .input = std::move(spec.input),
                  .expected = std::move(spec.expected),
                  .weight = spec.weight,
                  .worker = spec.worker,
                  .budget = spec.budget,
                  .cancellation = spec.cancellation};
}

}  // namespace

Result<std::vector<SoakKind>> soak_kinds(const SoakTools& tools) {
  std::vector<SoakKind> kinds;
  for (auto specs : {success_specs(), worker_limit_specs(), host_stop_specs()}) {
    for (KindSpec& spec : specs) {
      Result<SoakKind> kind = compile_kind(std::move(spec), tools);
      if (!kind.ok()) return kind.error();
      kinds.push_back(std::move(kind).value());
    }
  }
  return kinds;
}

bool matches(const ExpectedOutcome& expected, const CodeExecutionOutcome& outcome) {
  if (key_of(outcome) != expected.key) return false;
  return !expected.output || (outcome.output && *outcome.output == *expected.output);
}

}  // namespace codemode::soak
