// A Subject is what the bench times: something that runs one execution of a workload and says
// whether it returned the workload's expected output. codemode in one configuration is a subject;
// so are the baselines (a do-nothing process, QuickJS in a Node.js process per execution, a V8
// isolate or a QuickJS runtime per execution in one persistent Node.js process).
//
// Thread-safety: run may be called from several threads at once (the concurrency-2 pass).
#ifndef CODEMODE_BENCH_PERF_SUBJECT_H_
#define CODEMODE_BENCH_PERF_SUBJECT_H_

#include <cstddef>
#include <optional>
#include <string>

#include "perf/workloads.h"

namespace codemode::perf {

struct ExecutionResult {
  bool succeeded = false;
  std::string failure;                     // when not succeeded: what went wrong, for the report
  std::optional<double> call_span_micros;  // from one tool call to the next, when it made >= 2
};

class Subject {
 public:
  virtual ~Subject() = default;
  // The name in the report: "codemode", "floor", "quickjs", "isolated_vm",
  // "quickjs_inprocess".
  virtual std::string name() const = 0;
  // Whether this subject runs `workload` at all (the floor runs only "trivial").
  virtual bool supports(const Workload& workload) const = 0;
  // One execution. `sequence` is unique over the subject's life (it names the execution).
  virtual ExecutionResult run(const Workload& workload, std::size_t sequence) = 0;
};

// The outcome's verdict against the workload: succeeded only if `output` equals its expected
// output.
ExecutionResult judge_output(const Workload& workload, const Json& output);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_SUBJECT_H_
