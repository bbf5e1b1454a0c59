// The isolated-vm baseline: V8 isolates in-process, as UTCP's code-mode runs programs. One Node.js
// process, started here once for the bench run, runs isolated_vm/runner.mjs; per execution it
// makes a fresh ivm.Isolate (the workload's memory limit) and context, gives it the tools as a
// host function, runs the workload's source and disposes the isolate. Two executions at once run
// in two isolates on isolated-vm's threads inside that one process. Timing: runner_subject.h.
// It needs `npm ci` in isolated_vm/, which builds isolated-vm's native addon with node-gyp
// (scripts/bench does it); without node or the built addon it is reported as skipped.
#ifndef CODEMODE_BENCH_PERF_ISOLATED_VM_SUBJECT_H_
#define CODEMODE_BENCH_PERF_ISOLATED_VM_SUBJECT_H_

#include <memory>
#include <string>

#include "perf/runner_subject.h"

namespace codemode::perf {

// `directory` holds runner.mjs and node_modules/, and sits beside persistent_runner.mjs and
// bench_tools.mjs, which the runner imports. Fails with rule "baseline_unavailable" and a reason
// when node, the built addon or a ready runner is missing.
Result<std::unique_ptr<RunnerSubject>> make_isolated_vm_subject(const std::string& node,
                                                                const std::string& directory);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_ISOLATED_VM_SUBJECT_H_
