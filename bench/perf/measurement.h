// How one subject is measured on one workload: a warm-up execution (it also starts a fork server),
// a pass at concurrency 1 (latencies and throughput), a pass at concurrency 2 (throughput), then a
// shorter pass at concurrency 1 with the MemorySampler running. Memory has its own pass because
// sampling /proc costs CPU that would otherwise be in the timings.
#ifndef CODEMODE_BENCH_PERF_MEASUREMENT_H_
#define CODEMODE_BENCH_PERF_MEASUREMENT_H_

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "perf/memory_sampler.h"
#include "perf/stats.h"
#include "perf/subject.h"

namespace codemode::perf {

struct PassResult {
  int concurrency = 1;
  std::size_t executions = 0;
  std::size_t succeeded = 0;
  std::string first_failure;  // empty when every execution succeeded
  double wall_seconds = 0;
  std::vector<double> latencies_ms;   // one per execution, failures included
  std::vector<double> call_spans_us;  // one per execution that made two calls or more

  std::optional<double> throughput() const;  // executions per second of wall time
};

struct MeasureOptions {
  std::size_t iterations = 0;         // per timed pass; 0: the workload's default
  std::size_t memory_iterations = 5;  // executions in the memory pass (at most `iterations`)
};

struct Measurement {
  std::string subject;
  std::string workload;
  PassResult warm_up;
  PassResult serial;      // concurrency 1
  PassResult concurrent;  // concurrency 2
  PassResult memory_pass;
  std::vector<ProcessPeak> memory;  // one per execution process the sampler saw

  std::size_t executions() const;
  std::size_t succeeded() const;
  std::string first_failure() const;
};

// Runs `iterations` executions, `concurrency` at a time. `sequence` numbers them across the run.
PassResult run_pass(Subject& subject, const Workload& workload, std::size_t iterations,
                    int concurrency, std::atomic<std::size_t>& sequence);

Measurement measure(Subject& subject, const Workload& workload, const MeasureOptions& options,
                    std::atomic<std::size_t>& sequence);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_MEASUREMENT_H_
