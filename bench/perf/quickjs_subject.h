// The QuickJS baseline: per execution, a Node.js child process runs quickjs/runner.mjs, which runs
// the workload's source in QuickJS (npm quickjs-emscripten, pinned in quickjs/package-lock.json)
// with its tools as host functions, as the TypeScript Code Mode library runs its sandbox.
// It needs `npm ci` in the runner's directory (scripts/bench does it); without node_modules the
// bench reports this baseline as skipped.
#ifndef CODEMODE_BENCH_PERF_QUICKJS_SUBJECT_H_
#define CODEMODE_BENCH_PERF_QUICKJS_SUBJECT_H_

#include <memory>
#include <string>

#include "perf/subject.h"

namespace codemode::perf {

class QuickJsSubject final : public Subject {
 public:
  // `directory` holds runner.mjs and node_modules/. Fails with rule "baseline_unavailable" and a
  // reason when node or the installed packages are missing.
  static Result<std::unique_ptr<QuickJsSubject>> create(std::string node, std::string directory);

  std::string name() const override { return "quickjs"; }
  bool supports(const Workload& workload) const override {
    return workload.kind == WorkloadKind::kProgram;
  }
  ExecutionResult run(const Workload& workload, std::size_t sequence) override;

 private:
  QuickJsSubject(std::string node, std::string runner)
      : node_(std::move(node)), runner_(std::move(runner)) {}

  std::string node_;
  std::string runner_;  // runner.mjs
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_QUICKJS_SUBJECT_H_
