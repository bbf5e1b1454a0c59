// A baseline that runs every execution through one PersistentRunner started for the whole bench
// run (isolated_vm_subject.h, quickjs_inprocess_subject.h). An execution's time, as the bench
// measures it around run(), is: the request's JSON written to the runner's pipe, the runner's
// whole execution (a fresh engine instance made, the program run, the instance disposed), and the
// answer's line read back and parsed. Not in it: starting the runner process, which happens once.
// The memory pass sees nothing of these baselines: the runner predates it (MemorySampler ignores
// such processes) and its executions allocate inside it.
#ifndef CODEMODE_BENCH_PERF_RUNNER_SUBJECT_H_
#define CODEMODE_BENCH_PERF_RUNNER_SUBJECT_H_

#include <memory>
#include <string>

#include "perf/persistent_runner.h"
#include "perf/subject.h"

namespace codemode::perf {

// What a persistent-runner baseline needs: its name in the report, node, its runner script, and a
// file whose absence means `npm ci` has not been run (with the hint that says so).
struct RunnerBaseline {
  std::string name;
  std::string node;
  std::string script;         // the runner, absolute
  std::string required_file;  // absolute; present once the packages are installed
  std::string install_hint;   // the skip reason when it is missing
};

class RunnerSubject;

// Starts the baseline's runner. Fails with rule "baseline_unavailable" and a reason when node, the
// installed packages or a ready runner is missing.
Result<std::unique_ptr<RunnerSubject>> start_runner_subject(const RunnerBaseline& baseline);

class RunnerSubject final : public Subject {
 public:
  RunnerSubject(std::string name, std::unique_ptr<PersistentRunner> runner)
      : name_(std::move(name)), runner_(std::move(runner)) {}

  std::string name() const override { return name_; }
  bool supports(const Workload& workload) const override {
    return workload.kind == WorkloadKind::kProgram;
  }
  ExecutionResult run(const Workload& workload, std::size_t sequence) override;

 private:
  std::string name_;
  std::unique_ptr<PersistentRunner> runner_;
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_RUNNER_SUBJECT_H_
