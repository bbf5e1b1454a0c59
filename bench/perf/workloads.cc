#include "perf/workloads.h"

namespace codemode::perf {
namespace {

// Limits for the programs that only orchestrate tool calls: small, as a model-written program gets.
CodeLimits call_limits(std::int64_t calls, std::int64_t concurrency) {
  return {.cpu_millis = 10'000,
          .wall_time_millis = 60'000,
          .memory_bytes = 64 << 20,
          .scratch_bytes = 1'024,
          .max_input_bytes = 4'096,
          .max_output_bytes = 4'096,
          .max_tool_input_bytes = 1'024,
          .max_tool_calls = calls,
          .max_tool_concurrency = concurrency};
}

// Limits for the compute workloads: the interpreter runs with the JIT off, so sorting 200,000
// objects takes seconds, and the JSON workload holds several copies of 5 MiB of text.
CodeLimits compute_limits() {
  return {.cpu_millis = 120'000,
          .wall_time_millis = 300'000,
          .memory_bytes = 1 << 30,
          .scratch_bytes = 1'024,
          .max_input_bytes = 4'096,
          .max_output_bytes = 4'096,
          .max_tool_input_bytes = 1'024,
          .max_tool_calls = 1,
          .max_tool_concurrency = 1};
}

Workload trivial() {
  return {.name = "trivial",
          .description = "async () => 1",
          .source = "async () => 1",
          .input = nullptr,
          .expected_output = 1,
          .limits = call_limits(1, 1),
          .default_iterations = 200};
}

// The catalog example (examples/catalog_total.cc): one catalog.price call per SKU, in order.
Workload catalog() {
  return {.name = "catalog",
          .description = "catalog example, 3 SKUs, 3 sequential catalog.price calls",
          .source = R"js(async (input, tools) => {
  let total = 0;
  for (const sku of input.skus) {
    const result = await tools.call('catalog.price', { sku });
    if (result.status !== 'succeeded') throw new Error('price lookup failed');
    total += result.output.cents;
  }
  return { totalCents: total };
})js",
          .input = Json{{"skus", {"ab", "cde", "fghi"}}},
          .expected_output = Json{{"totalCents", 900}},
          .limits = call_limits(20, 1),
          .tool_calls = 3,
          .default_iterations = 200};
}

Workload sequential_calls() {
  return {.name = "sequential_calls",
          .description = "1,000 tool calls, one at a time",
          .source = R"js(async (input, tools) => {
  let sum = 0;
  for (let i = 0; i < 1000; i++) {
    const result = await tools.call('number.double', { value: i });
    if (result.status !== 'succeeded') throw new Error('call ' + i + ' ' + result.status);
    sum += result.output.value;
  }
  return { calls: 1000, sum };
})js",
          .input = nullptr,
          .expected_output = Json{{"calls", 1000}, {"sum", 999000}},
          .limits = call_limits(1000, 1),
          .tool_calls = 1000,
          .default_iterations = 30};
}

// maxToolConcurrency is at most 128 (program.h) and calls past it are refused, not queued, so
// Promise.all runs 64 lanes of calls; the cap (128) leaves room for a lane's next call reaching
// the parent before the parent has counted the previous one as settled.
Workload concurrent_calls() {
  return {.name = "concurrent_calls",
          .description = "1,000 tool calls, Promise.all over 64 lanes (cap 128)",
          .source = R"js(async (input, tools) => {
  const lanes = 64;
  let sum = 0;
  const lane = async (first) => {
    for (let i = first; i < 1000; i += lanes) {
      const result = await tools.call('number.double', { value: i });
      if (result.status !== 'succeeded') throw new Error('call ' + i + ' ' + result.status);
      sum += result.output.value;
    }
  };
  await Promise.all(Array.from({ length: lanes }, (_, first) => lane(first)));
  return { calls: 1000, sum };
})js",
          .input = nullptr,
          .expected_output = Json{{"calls", 1000}, {"sum", 999000}},
          .limits = call_limits(1000, 128),
          .tool_calls = 1000,
          .default_iterations = 30};
}

Workload sieve() {
  return {.name = "sieve",
          .description = "sieve of Eratosthenes below 2,000,000 (Uint8Array)",
          .source = R"js(async () => {
  const limit = 2000000;
  const composite = new Uint8Array(limit);
  let count = 0;
  for (let i = 2; i < limit; i++) {
    if (composite[i]) continue;
    count++;
    for (let j = i * i; j < limit; j += i) composite[j] = 1;
  }
  return { below: limit, primes: count };
})js",
          .input = nullptr,
          .expected_output = Json{{"below", 2000000}, {"primes", 148933}},
          .limits = compute_limits(),
          .default_iterations = 5};
}

Workload sort_objects() {
  return {.name = "sort_objects",
          .description = "build and sort 200,000 objects with a comparator",
          .source = R"js(async () => {
  const items = [];
  let seed = 1;
  for (let i = 0; i < 200000; i++) {
    seed = (seed * 16807) % 2147483647;
    items.push({ key: seed, id: i });
  }
  items.sort((a, b) => a.key - b.key);
  let ordered = true;
  for (let i = 1; i < items.length; i++) if (items[i - 1].key > items[i].key) ordered = false;
  return { items: items.length, ordered, first: items[0].key };
})js",
          .input = nullptr,
          .expected_output = Json{{"items", 200000}, {"ordered", true}, {"first", 8383}},
          .limits = compute_limits(),
          .default_iterations = 3};
}

// The 5 MiB document is built inside the program, so the measurement is the engine's JSON work
// and not the input path (maxInputBytes, the frame, the parent's JSON boundary).
Workload json_transform() {
  return {
      .name = "json_transform",
      .description = "stringify 5 MiB of rows, parse, filter and map, stringify",
      .source = R"js(async () => {
  const rows = [];
  for (let i = 0; i < 64000; i++) {
    rows.push({ id: i, name: 'item-' + i, price: i % 1000, tags: ['red', 'green'], active: i % 3 === 0 });
  }
  const text = JSON.stringify(rows);
  const parsed = JSON.parse(text);
  const active = parsed.filter((row) => row.active).map((row) => ({ id: row.id, total: row.price * 2 }));
  const out = JSON.stringify({ count: active.length, rows: active });
  return { inputBytes: text.length, outputBytes: out.length, count: JSON.parse(out).count };
})js",
      .input = nullptr,
      .expected_output = Json{{"inputBytes", 5261407}, {"outputBytes", 539161}, {"count", 21334}},
      .limits = compute_limits(),
      .default_iterations = 5};
}

// A model's smallest program through the `code` tool, with the server's defaults
// (docs/performance.md, "codemode mcp: one tools/call end to end").
Workload mcp_code_call() {
  return {.kind = WorkloadKind::kMcpCode,
          .name = "mcp_code_call",
          .description = "codemode mcp --mode code: tools/call code {code: 'return 6*7;'}",
          .source = "return 6*7;",
          .expected_output = Json{{"result", 42}},
          .default_iterations = 200,
          .mcp_tool = "code",
          .mcp_arguments = Json{{"code", "return 6*7;"}}};
}

// The simplest real tool a config can serve that runs in the server's process: the repository
// tools' findRepositories over a root with no repository (mcp_subject.h makes it empty). What it
// costs is the protocol, the dispatch and the broker, with no worker and no child process.
Workload mcp_direct_call() {
  return {
      .kind = WorkloadKind::kMcpDirect,
      .name = "mcp_direct_call",
      .description = "codemode mcp --mode direct: tools/call repo.findRepositories {}",
      .source = "repo.findRepositories",
      .expected_output =
          Json{
              {"budget",
               {{"remaining_bytes", 65348}, {"requested_bytes", 65536}, {"serialized_bytes", 188}}},
              {"has_more", false},
              {"items", Json::array()},
              {"next_cursor", nullptr},
              {"returned_items", 0},
              {"total_items", 0},
              {"walk_truncated", false}},
      .default_iterations = 200,
      .mcp_tool = "repo.findRepositories",
      .mcp_arguments = Json::object()};
}

}  // namespace

std::vector<Workload> standard_workloads() {
  return {trivial(),      catalog(),        sequential_calls(), concurrent_calls(), sieve(),
          sort_objects(), json_transform(), mcp_code_call(),    mcp_direct_call()};
}

}  // namespace codemode::perf
