// workflow_crash_runtime: a runtime process for the crash tests to kill. It runs the durable
// fixture's workflow against a store and parks (prints "parked" and waits for its SIGKILL) at one
// boundary of a phase:
//   effect      inside the nested write, after the effect is on disk
//   audit       after the audit record's commit
//   receipt     after the receipt's commit
//   completion  after the completion's commit
// or, as `worker`, executes approved phases until every run of the scope is over and prints how
// many it executed (for the test of two runtimes sharing one store).
//
//   workflow_crash_runtime WORKER STORE_URL EFFECTS_FILE (effect|audit|receipt|completion) RUN_ID
//   workflow_crash_runtime WORKER STORE_URL EFFECTS_FILE worker SECONDS
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

#include <unistd.h>

#include "codemode/workflow_runtime.h"

#include "workflow/durable_fixture.h"
#include "workflow/forwarding_store.h"

namespace codemode::testing {
namespace {

std::string g_park_at;

[[noreturn]] void park() {
  std::fputs("parked\n", stdout);
  std::fflush(stdout);
  for (;;) pause();
}

// The real store, with a park after the commit the scenario names.
class ParkingStore final : public ForwardingStore {
 public:
  using ForwardingStore::ForwardingStore;
  Result<bool> replace_run(const StoredRun& run, std::int64_t version) override {
    Result<bool> swapped = ForwardingStore::replace_run(run, version);
    if (swapped.ok() && *swapped) {
      const Json phase = Json::parse(run.document).at("phases").at(0);
      if (g_park_at == "receipt" && phase.contains("receipt") && phase.at("state") == "running") {
        park();
      }
      if (g_park_at == "completion" && phase.at("state") == "succeeded") park();
    }
    return swapped;
  }
  Result<StoredAudit> create_audit(const StoredAudit& audit) override {
    Result<StoredAudit> stored = ForwardingStore::create_audit(audit);
    if (stored.ok() && g_park_at == "audit") park();
    return stored;
  }
};

int work(WorkflowRuntime& runtime, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  std::size_t executed = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    Result<std::size_t> ran = runtime.run_due();
    if (!ran.ok()) {
      std::cerr << "run_due: " << ran.error().message << "\n";
      return 1;
    }
    executed += *ran;
    Result<std::vector<RunView>> runs = runtime.list(1000);
    if (!runs.ok()) return 1;
    bool all_over = true;
    for (const RunView& run : *runs) {
      all_over = all_over && run.status != RunStatus::kWaiting && run.status != RunStatus::kRunning;
    }
    if (all_over) {
      std::cout << executed << "\n";
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  std::cerr << "runs still open at the deadline\n";
  return 1;
}

int run(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: workflow_crash_runtime WORKER STORE_URL EFFECTS_FILE MODE ARG\n";
    return 2;
  }
  const std::string mode = argv[4];
  g_park_at = mode;
  const Tool write = external_write_tool(argv[3], [mode] {
    if (mode == "effect") park();
  });
  const DurableWorkflow workflow =
      define_durable_workflow(one_phase_options(write_program(write))).value();
  Result<std::shared_ptr<WorkflowStore>> store = open_workflow_store(argv[2]);
  if (!store.ok()) {
    std::cerr << "store: " << store.error().message << "\n";
    return 1;
  }
  auto code_mode =
      nested_code_mode(make_process_adapter({.worker_path = argv[1]}), write, /*calls=*/1000);
  auto runtime =
      WorkflowRuntime::create(
          runtime_options(std::make_shared<ParkingStore>(std::move(*store)), code_mode, workflow))
          .value();
  if (mode == "worker") return work(*runtime, std::stoi(argv[5]));
  Result<RunView> view = runtime->advance(argv[5]);
  std::cerr << "the run ended without reaching the park point: "
            << (view.ok() ? std::string(to_string(view->status)) : view.error().message) << "\n";
  return 1;
}

}  // namespace
}  // namespace codemode::testing

int main(int argc, char** argv) { return codemode::testing::run(argc, argv); }
