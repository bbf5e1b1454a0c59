// codemode itself as a bench subject: CodeMode::execute with a real adapter (the process adapter
// in the spawn mode and profiles asked, or the Docker adapter), the real codemode-worker, and the
// standard broker with the bench's in-process tools. Programs are defined once per workload and
// reused, as a host would.
#ifndef CODEMODE_BENCH_PERF_CODEMODE_SUBJECT_H_
#define CODEMODE_BENCH_PERF_CODEMODE_SUBJECT_H_

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/process_adapter.h"

#include "perf/bench_tools.h"
#include "perf/call_timeline.h"
#include "perf/subject.h"

namespace codemode::perf {

// "fork_server" / "exec", "process" / "isolated": the names the flags and the JSON use.
std::string to_string(SpawnMode spawn);
std::string to_string(IsolationProfile isolation);

class CodeModeSubject final : public Subject {
 public:
  // UNSUPPORTED_PROFILE when the adapter is not available on this host (for the isolated profile:
  // the kernel refuses the namespaces; for Docker: no such image or daemon), so the caller reports
  // the configuration as skipped.
  // `inline_calls`: CodeModeOptions.run_non_blocking_tools_inline (the bench's tools are
  // non_blocking; false sends every call through the call pool, for a before/after).
  static Result<std::unique_ptr<CodeModeSubject>> create(std::shared_ptr<SandboxAdapter> adapter,
                                                         const std::vector<Workload>& workloads,
                                                         bool inline_calls);

  std::string name() const override { return "codemode"; }
  bool supports(const Workload& workload) const override {
    return workload.kind == WorkloadKind::kProgram;
  }
  ExecutionResult run(const Workload& workload, std::size_t sequence) override;

 private:
  CodeModeSubject() = default;

  CallTimeline timeline_;  // must outlive mode_, whose broker refers to it
  std::unique_ptr<CodeMode> mode_;
  std::map<std::string, CodeProgram> programs_;  // by workload name; read-only after create
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_CODEMODE_SUBJECT_H_
