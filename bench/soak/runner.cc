#include "soak/runner.h"

#include <atomic>
#include <optional>
#include <stop_token>
#include <thread>
#include <utility>

#include "codemode/process_adapter.h"

#include "soak/cancellation.h"

namespace codemode::soak {
namespace {

Result<std::unique_ptr<CodeMode>> make_mode(const std::string& worker, ToolBroker router) {
  std::shared_ptr<SandboxAdapter> adapter = make_process_adapter({.worker_path = worker});
  if (!adapter->is_available()) {
    return Error::unsupported_profile(
        "adapter_unavailable",
        "A worker binary cannot run on this host (missing, not executable, or without "
        "seccomp support).");
  }
  return CodeMode::create({.adapter = std::move(adapter), .invoke_tool = std::move(router)});
}

}  // namespace

SoakRunner::SoakRunner(const std::vector<SoakKind>& kinds, Permissions permissions,
                       OutcomeTally& tally)
    : kinds_(kinds), permissions_(std::move(permissions)), tally_(tally) {}

SoakRunner::~SoakRunner() = default;

Result<std::unique_ptr<SoakRunner>> SoakRunner::create(const WorkerPaths& workers,
                                                       const std::vector<SoakKind>& kinds,
                                                       Permissions permissions,
                                                       OutcomeTally& tally) {
  std::unique_ptr<SoakRunner> runner(new SoakRunner(kinds, std::move(permissions), tally));
  auto standard = make_mode(workers.standard, runner->brokers_.router());
  if (!standard.ok()) return standard.error();
  auto test_hooks = make_mode(workers.test_hooks, runner->brokers_.router());
  if (!test_hooks.ok()) return test_hooks.error();
  runner->standard_ = std::move(standard).value();
  runner->test_hooks_ = std::move(test_hooks).value();
  return runner;
}

void SoakRunner::run(const std::vector<std::size_t>& plan, std::size_t begin, std::size_t end,
                     int concurrency) {
  std::atomic<std::size_t> next{begin};
  std::vector<std::jthread> threads;
  for (int t = 0; t < concurrency; ++t) {
    threads.emplace_back([&] {
      for (std::size_t i = next++; i < end; i = next++) {
        tally_.record(i, plan[i], execute(i, kinds_[plan[i]]));
      }
    });
  }
}  // the jthreads join here

CodeExecutionOutcome SoakRunner::execute(std::size_t execution, const SoakKind& kind) {
  const std::string id = "soak-" + std::to_string(execution);
  std::stop_source stop;
  std::optional<DelayedStop> delayed_stop;
  if (kind.cancellation != Cancellation::kNone) delayed_stop.emplace(stop, kCancelDelay);
  ToolBroker broker = broker_for(kind, delayed_stop ? &*delayed_stop : nullptr);
  if (!broker) {
    CodeExecutionOutcome refused;
    refused.error = Error::invalid_config("budget", "The kind's budget is invalid.");
    return refused;
  }
  const auto registration = brokers_.add(id, std::move(broker));
  CodeMode& mode = kind.worker == WorkerBinary::kTestHooks ? *test_hooks_ : *standard_;
  return mode.execute(kind.program, kind.input,
                      {.run_id = "soak",
                       .execution_id = id,
                       .scope = {.principal_id = "soak", .project_id = "soak"},
                       .stop_token = stop.get_token()});
}

// A standard broker with a fresh Budget, wrapped to cancel when the kind says so. Empty when the
// kind's budget limits are invalid (a bug in the kinds table, reported as an unexpected outcome).
ToolBroker SoakRunner::broker_for(const SoakKind& kind, DelayedStop* stop) const {
  Result<std::shared_ptr<Budget>> budget = Budget::create(kind.budget);
  if (!budget.ok()) return {};
  ToolBroker broker =
      standard_broker({.permissions = permissions_, .budget = std::move(budget).value()});
  if (stop == nullptr) return broker;
  return cancelling_broker(kind.cancellation, std::move(broker), *stop);
}

}  // namespace codemode::soak
