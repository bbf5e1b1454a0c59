// What the Node.js baseline runners (quickjs/, isolated_vm/) are sent for one execution and how
// their answer is judged: the request {source, input, memoryBytes, cpuMillis} and the answer
// {status: "succeeded", output, callSpanMicros} or {status: "failed", error}, whether one process
// runs one request (quickjs) or a persistent runner runs many (persistent_runner.h).
#ifndef CODEMODE_BENCH_PERF_RUNNER_REQUEST_H_
#define CODEMODE_BENCH_PERF_RUNNER_REQUEST_H_

#include "codemode/json.h"

#include "perf/subject.h"
#include "perf/workloads.h"

namespace codemode::perf {

Json runner_request(const Workload& workload);

// Succeeded only if the runner says so and its output is the workload's expected output; the
// runner's callSpanMicros is carried over.
ExecutionResult judge_runner_answer(const Workload& workload, const Json& answer);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_RUNNER_REQUEST_H_
