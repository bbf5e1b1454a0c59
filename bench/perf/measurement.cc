#include "perf/measurement.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

namespace codemode::perf {
namespace {

using Clock = std::chrono::steady_clock;

double millis_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Accumulates one pass's executions from several threads.
class PassRecorder {
 public:
  explicit PassRecorder(PassResult& result) : result_(result) {}
  void record(const ExecutionResult& execution, double latency_ms) {
    std::lock_guard lock(mu_);
    ++result_.executions;
    result_.latencies_ms.push_back(latency_ms);
    if (execution.call_span_micros) result_.call_spans_us.push_back(*execution.call_span_micros);
    if (execution.succeeded) {
      ++result_.succeeded;
    } else if (result_.first_failure.empty()) {
      result_.first_failure = execution.failure.empty() ? "failed" : execution.failure;
    }
  }

 private:
  std::mutex mu_;
  PassResult& result_;
};

}  // namespace

std::optional<double> PassResult::throughput() const {
  if (executions == 0 || wall_seconds <= 0) return std::nullopt;
  return static_cast<double>(executions) / wall_seconds;
}

PassResult run_pass(Subject& subject, const Workload& workload, std::size_t iterations,
                    int concurrency, std::atomic<std::size_t>& sequence) {
  PassResult result{.concurrency = concurrency};
  PassRecorder recorder(result);
  std::atomic<std::size_t> started{0};
  const Clock::time_point pass_start = Clock::now();
  {
    std::vector<std::jthread> threads;
    for (int t = 0; t < concurrency; ++t) {
      threads.emplace_back([&] {
        while (started++ < iterations) {
          const Clock::time_point start = Clock::now();
          ExecutionResult execution = subject.run(workload, sequence++);
          recorder.record(execution, millis_since(start));
        }
      });
    }
  }  // the jthreads join here
  result.wall_seconds = millis_since(pass_start) / 1000;
  return result;
}

Measurement measure(Subject& subject, const Workload& workload, const MeasureOptions& options,
                    std::atomic<std::size_t>& sequence) {
  const std::size_t iterations =
      options.iterations > 0 ? options.iterations : workload.default_iterations;
  Measurement m{.subject = subject.name(), .workload = workload.name};
  m.warm_up = run_pass(subject, workload, 1, 1, sequence);
  m.serial = run_pass(subject, workload, iterations, 1, sequence);
  m.concurrent = run_pass(subject, workload, iterations, 2, sequence);
  MemorySampler sampler;
  m.memory_pass =
      run_pass(subject, workload, std::min(iterations, options.memory_iterations), 1, sequence);
  m.memory = sampler.take();
  return m;
}

std::size_t Measurement::executions() const {
  return warm_up.executions + serial.executions + concurrent.executions + memory_pass.executions;
}

std::size_t Measurement::succeeded() const {
  return warm_up.succeeded + serial.succeeded + concurrent.succeeded + memory_pass.succeeded;
}

std::string Measurement::first_failure() const {
  for (const PassResult* pass : {&warm_up, &serial, &concurrent, &memory_pass}) {
    if (!pass->first_failure.empty()) return pass->first_failure;
  }
  return {};
}

}  // namespace codemode::perf
