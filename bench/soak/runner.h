// SoakRunner runs planned executions through the real process adapter and CodeMode::execute, a
// given number at a time, and records each outcome. It owns two CodeModes (the production worker,
// and the test-hooks worker for the crash kind) and the per-execution brokers they route to.
//
// Thread-safety: run is called from one thread; it starts and joins its own workers.
#ifndef CODEMODE_BENCH_SOAK_RUNNER_H_
#define CODEMODE_BENCH_SOAK_RUNNER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "codemode/code_mode.h"

#include "soak/execution_brokers.h"
#include "soak/kinds.h"
#include "soak/tally.h"

namespace codemode::soak {

class DelayedStop;

struct WorkerPaths {
  std::string standard;    // codemode-worker
  std::string test_hooks;  // codemode-worker-testhooks
};

class SoakRunner {
 public:
  // UNSUPPORTED_PROFILE (rule "adapter_unavailable") when either worker cannot run here: the soak
  // would measure nothing but refusals. `kinds` and `tally` must outlive the runner.
  static Result<std::unique_ptr<SoakRunner>> create(const WorkerPaths& workers,
                                                    const std::vector<SoakKind>& kinds,
                                                    Permissions permissions, OutcomeTally& tally);
  ~SoakRunner();

  // Runs executions [begin, end) of `plan` on `concurrency` threads; returns when all ended.
  void run(const std::vector<std::size_t>& plan, std::size_t begin, std::size_t end,
           int concurrency);

 private:
  SoakRunner(const std::vector<SoakKind>& kinds, Permissions permissions, OutcomeTally& tally);
  CodeExecutionOutcome execute(std::size_t execution, const SoakKind& kind);
  ToolBroker broker_for(const SoakKind& kind, DelayedStop* stop) const;

  const std::vector<SoakKind>& kinds_;
  const Permissions permissions_;
  OutcomeTally& tally_;
  ExecutionBrokers brokers_;  // before the CodeModes: it must outlive them
  std::unique_ptr<CodeMode> standard_;
  std::unique_ptr<CodeMode> test_hooks_;
};

}  // namespace codemode::soak

#endif  // CODEMODE_BENCH_SOAK_RUNNER_H_
