// A runtime killed with SIGKILL at each of the four boundaries of a phase (docs/workflows.md,
// "Crashes") is recovered without replay and without made-up evidence; and two runtime processes
// sharing one store execute every phase exactly once.
#include <fstream>
#include <set>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "support/adapter_options.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/timing.h"
#include "workflow/durable_fixture.h"
#include "workflow/store_fixture.h"

extern char** environ;

namespace codemode::testing {
namespace {

// One workflow_crash_runtime process, its stdout on a pipe; killed and reaped on destruction.
class CrashRuntime {
 public:
  explicit CrashRuntime(const std::vector<std::string>& args) {
    int pipe_fds[2];
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDOUT_FILENO);
    std::vector<std::string> argv_storage{CODEMODE_CRASH_RUNTIME_BINARY};
    argv_storage.insert(argv_storage.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& arg : argv_storage) argv.push_back(arg.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipe_fds[1]);
    out_ = pipe_fds[0];
  }
  ~CrashRuntime() {
    kill_and_reap();
    if (out_ >= 0) ::close(out_);
  }
  CrashRuntime(const CrashRuntime&) = delete;
  CrashRuntime& operator=(const CrashRuntime&) = delete;

  // Everything the process printed until `text` appeared, it closed stdout, or the timeout.
  std::string read_until(std::string_view text, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (output_.find(text) == std::string::npos) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd readable{.fd = out_, .events = POLLIN, .revents = 0};
      if (left.count() <= 0 || ::poll(&readable, 1, static_cast<int>(left.count())) <= 0) break;
      char buffer[256];
      ssize_t got = ::read(out_, buffer, sizeof(buffer));
      if (got <= 0) break;
      output_.append(buffer, static_cast<std::size_t>(got));
    }
    return output_;
  }
  void kill_and_reap() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    wait_exit();
  }
  // The exit status once it ended by itself.
  int wait_exit() {
    int status = 0;
    if (pid_ > 0) ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }
  bool started() const { return pid_ > 0; }

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  std::string output_;
};

struct Boundary {
  const char* name;
  RunStatus status;
  RunLedger ledger;
  bool audited;
};

class CrashRecoveryTest : public ::testing::TestWithParam<StoreKind> {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_WORKER();
    ASSERT_TRUE(scratch_.ok());
    store_ = std::make_unique<TestStore>(GetParam(), scratch_);
    CODEMODE_REQUIRE_STORE(*store_);
  }

  // This process's runtime over the store: the same policy as the crash runtime's, and a clock an
  // hour ahead, so every lease the killed runtime held has lapsed.
  std::unique_ptr<WorkflowRuntime> runtime(const Tool& write, std::int64_t ahead_millis = 0) {
    const DurableWorkflow workflow =
        define_durable_workflow(one_phase_options(write_program(write))).value();
    WorkflowRuntimeOptions options = runtime_options(
        open_workflow_store(store_->url()).value(),
        nested_code_mode(make_process_adapter(adapter_options(*worker_binary())), write), workflow);
    options.clock_millis = [ahead_millis] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
                 .count() +
             ahead_millis;
    };
    return WorkflowRuntime::create(std::move(options)).value();
  }

  ScratchDir scratch_;
  std::unique_ptr<TestStore> store_;
};

TEST_P(CrashRecoveryTest, RecoversWithoutReplayAfterAKillAtEachBoundary) {
  const std::vector<Boundary> boundaries{
      {"effect",
       RunStatus::kOutcomeUnknown,
       {.spent_micros = 0, .reserved_micros = 6, .max_cost_micros = 6},
       false},
      {"audit",
       RunStatus::kOutcomeUnknown,
       {.spent_micros = 0, .reserved_micros = 6, .max_cost_micros = 6},
       true},
      {"receipt",
       RunStatus::kOutcomeUnknown,
       {.spent_micros = 3, .reserved_micros = 0, .max_cost_micros = 6},
       true},
      {"completion",
       RunStatus::kSucceeded,
       {.spent_micros = 3, .reserved_micros = 0, .max_cost_micros = 6},
       true},
  };
  for (const Boundary& boundary : boundaries) {
    SCOPED_TRACE(boundary.name);
    const std::string effects = scratch_.file(std::string(boundary.name) + ".effects");
    const Tool write = external_write_tool(effects);
    auto here = runtime(write);
    const DurableWorkflow workflow =
        define_durable_workflow(one_phase_options(write_program(write))).value();
    const std::string run = here->start(workflow, Json{{"value", 3}}).value();
    ASSERT_TRUE(
        here->approve(run, "update", here->pending(run).value().at(0).digest, "reviewer-token")
            .ok());

    CrashRuntime crashing({*worker_binary(), store_->url(), effects, boundary.name, run});
    ASSERT_TRUE(crashing.started());
    ASSERT_NE(crashing.read_until("parked", slack(std::chrono::seconds(30))).find("parked"),
              std::string::npos);
    crashing.kill_and_reap();

    // Before its lease lapses the phase is still the dead runtime's: nothing is recovered.
    EXPECT_EQ(here->recover_expired().value(), 0u);
    auto later = runtime(write, /*ahead_millis=*/3'600'000);
    RunView view = later->status(run).value();
    if (boundary.status != RunStatus::kSucceeded) {
      EXPECT_EQ(view.status, RunStatus::kRunning);
      EXPECT_EQ(later->recover_expired().value(), 1u);
      view = later->status(run).value();
    }
    EXPECT_EQ(view.status, boundary.status);
    EXPECT_EQ(view.ledger, boundary.ledger);
    EXPECT_EQ(view.output.has_value(), boundary.status == RunStatus::kSucceeded);
    if (boundary.status == RunStatus::kSucceeded) {
      EXPECT_EQ(view.output, (Json{{"value", 3}}));
    }
    ASSERT_TRUE(view.phases.at(0).receipt);
    if (std::string_view(boundary.name) == "receipt") {
      EXPECT_EQ(view.phases.at(0).receipt->execution, ExecutionState::kSucceeded);
      EXPECT_EQ(view.phases.at(0).receipt->disclosure, Disclosure::kWithheld);
    }
    std::optional<PhaseAudit> audit = later->inspect(run, "update").value();
    EXPECT_EQ(audit.has_value(), boundary.audited);
    if (audit) {
      EXPECT_EQ(audit->outcome, OutcomeStatus::kSucceeded);
    }

    // Continuing replays nothing.
    EXPECT_EQ(later->run_due().value(), 0u);
    EXPECT_EQ(later->advance(run).value().status, boundary.status);
    EXPECT_EQ(effects_made(effects), 1);
  }
}

TEST_P(CrashRecoveryTest, TwoRuntimeProcessesSharingAStoreRunEachPhaseOnce) {
  const std::string effects = scratch_.file("shared.effects");
  const Tool write = external_write_tool(effects);
  auto here = runtime(write);
  const DurableWorkflow workflow =
      define_durable_workflow(one_phase_options(write_program(write))).value();
  constexpr int kRuns = 12;
  for (int i = 0; i < kRuns; ++i) {
    const std::string run = here->start(workflow, Json{{"value", i}}).value();
    ASSERT_TRUE(
        here->approve(run, "update", here->pending(run).value().at(0).digest, "reviewer-token")
            .ok());
  }
  const std::string seconds = std::to_string(slack(std::chrono::seconds(60)).count() / 1000);
  CrashRuntime first({*worker_binary(), store_->url(), effects, "worker", seconds});
  CrashRuntime second({*worker_binary(), store_->url(), effects, "worker", seconds});
  const auto timeout = slack(std::chrono::seconds(90));
  const std::string first_out = first.read_until("\n", timeout);
  const std::string second_out = second.read_until("\n", timeout);
  EXPECT_EQ(first.wait_exit(), 0);
  EXPECT_EQ(second.wait_exit(), 0);
  ASSERT_FALSE(first_out.empty());
  ASSERT_FALSE(second_out.empty());
  EXPECT_EQ(std::stoi(first_out) + std::stoi(second_out), kRuns);

  std::ifstream file(effects);
  std::multiset<std::string> written;
  for (std::string line; std::getline(file, line);) written.insert(line);
  EXPECT_EQ(written.size(), static_cast<std::size_t>(kRuns));
  for (int i = 0; i < kRuns; ++i) {
    EXPECT_EQ(written.count(Json{{"value", i}}.dump()), 1u) << i;
  }
  const std::vector<RunView> runs = here->list().value();
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kRuns));
  for (const RunView& run : runs) {
    EXPECT_EQ(run.status, RunStatus::kSucceeded);
    EXPECT_EQ(run.ledger.spent_micros, 3);
  }
}

INSTANTIATE_TEST_SUITE_P(Stores, CrashRecoveryTest,
                         ::testing::Values(StoreKind::kSqlite, StoreKind::kPostgres),
                         [](const auto& info) { return store_name(info.param); });

}  // namespace
}  // namespace codemode::testing
