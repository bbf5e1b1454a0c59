// The in-process QuickJS baseline ("QuickJS-wasm in-process, no isolation"): one Node.js process,
// started here once for the bench run, runs quickjs/inprocess_runner.mjs; per execution it makes a
// fresh QuickJS runtime and context (the same code as the quickjs baseline, run_quickjs.mjs) and
// disposes them, with no process per execution. QuickJS runs on Node's main thread, so two
// executions at once interleave at their tool calls but do not compute in parallel. Timing:
// runner_subject.h. It needs `npm ci` in quickjs/; without node or quickjs-emscripten it is
// reported as skipped.
#ifndef CODEMODE_BENCH_PERF_QUICKJS_INPROCESS_SUBJECT_H_
#define CODEMODE_BENCH_PERF_QUICKJS_INPROCESS_SUBJECT_H_

#include <memory>
#include <string>

#include "perf/runner_subject.h"

namespace codemode::perf {

// `directory` is the quickjs baseline's (inprocess_runner.mjs, node_modules/). Fails with rule
// "baseline_unavailable" and a reason when node, the package or a ready runner is missing.
Result<std::unique_ptr<RunnerSubject>> make_quickjs_inprocess_subject(const std::string& node,
                                                                      const std::string& directory);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_QUICKJS_INPROCESS_SUBJECT_H_
