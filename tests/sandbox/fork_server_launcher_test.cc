// The fork-server launcher (src/sandbox/process/fork_server_launcher.h) with the real
// `codemode-worker --fork-server`: every worker is this process's own child, killed and reaped by
// its owner; a server that dies is reaped and replaced, failing at most the launch in flight;
// children outlive the server and the thread that asked for them; destroying the launcher leaves
// no process and no fd.
#include "sandbox/process/fork_server_launcher.h"

#include <atomic>
#include <chrono>
#include <fstream>
#include <future>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "codemode/code_mode.h"

#include "sandbox/process/process_adapter_impl.h"
#include "support/executor_fixture.h"
#include "support/process_support.h"
#include "support/program_fixture.h"
#include "support/timing.h"

namespace codemode::internal {
namespace {

using namespace std::chrono_literals;

// The state letter and parent of `pid` from /proc/<pid>/stat ('?' and 0 when it is gone).
std::pair<char, pid_t> state_and_parent(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return {'?', 0};
  std::istringstream rest(line.substr(line.rfind(')') + 2));
  char state = '?';
  pid_t parent = 0;
  rest >> state >> parent;
  return {state, parent};
}

// Whether thread `tid` of this process is blocked in poll(2), from /proc/self/task/<tid>/syscall
// (the number of the system call it waits in): in a launch, only the wait for the server's reply.
bool blocked_in_poll(pid_t tid) {
  std::ifstream file("/proc/self/task/" + std::to_string(tid) + "/syscall");
  long number = -1;
  if (!(file >> number)) return false;  // "running", or the thread is gone
#ifdef SYS_poll
  if (number == SYS_poll) return true;
#endif
  return number == SYS_ppoll;
}

// Waits until the whole of child `pid` (every thread) has ended, and leaves it unreaped. Its
// leader shows state Z earlier, while its other threads still exit.
bool ends_unreaped(pid_t pid) {
  siginfo_t info{};
  return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) == 0;
}

CodeProgram doubling_program() {
  return testing::any_json_program("async (input, tools) => tools.call('number.double', input)");
}

class ForkServerLauncherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_WORKER();
    children_before_ = testing::child_pids();
    launcher_ = make_fork_server_launcher(*testing::worker_binary(), IsolationProfile::kProcess);
  }
  void TearDown() override {
    launcher_.reset();
    EXPECT_EQ(testing::child_pids(), children_before_) << "a server or worker was left behind";
  }

  std::vector<pid_t> children_before_;  // earlier tests of this binary may keep a fork server
  std::unique_ptr<WorkerLauncher> launcher_;
};

TEST_F(ForkServerLauncherTest, WorkerIsThisProcesssOwnChildAndItsOwnerReapsIt) {
  Result<WorkerProcess> worker = launcher_->launch();
  ASSERT_TRUE(worker.ok());
  const pid_t server = fork_server_pid(*launcher_);
  const pid_t pid = worker->process.pid();
  EXPECT_NE(pid, server);
  EXPECT_EQ(state_and_parent(pid).second, getpid()) << "CLONE_PARENT: the launcher's child";
  EXPECT_EQ(state_and_parent(server).second, getpid());
  *worker = WorkerProcess{};  // killed and reaped by its owner
  EXPECT_FALSE(testing::is_unreaped_child(pid));
  EXPECT_TRUE(testing::is_unreaped_child(server)) << "the server serves the next launch";
}

TEST_F(ForkServerLauncherTest, ServerKilledWhileIdleIsReplacedAtTheNextLaunch) {
  ASSERT_TRUE(launcher_->launch().ok());
  const pid_t first = fork_server_pid(*launcher_);
  ASSERT_EQ(kill(first, SIGKILL), 0);
  ASSERT_TRUE(ends_unreaped(first));
  Result<WorkerProcess> worker = launcher_->launch();
  ASSERT_TRUE(worker.ok()) << "a server found dead is replaced before the launch: "
                           << (worker.ok() ? "" : worker.error().rule);
  EXPECT_NE(fork_server_pid(*launcher_), first);
  EXPECT_FALSE(testing::is_unreaped_child(first)) << "the dead server was reaped";
}

TEST_F(ForkServerLauncherTest, ServerDyingDuringALaunchFailsThatLaunchOnly) {
  ASSERT_TRUE(launcher_->launch().ok());
  const pid_t first = fork_server_pid(*launcher_);
  ASSERT_EQ(kill(first, SIGSTOP), 0);
  std::atomic<pid_t> launching{0};
  auto pending = std::async(std::launch::async, [&] {
    launching = static_cast<pid_t>(syscall(SYS_gettid));
    return launcher_->launch();
  });
  // The kill lands once the launch waits for the stopped server's reply, however loaded the
  // machine: a kill before the request was sent would test a server dead while idle instead.
  const auto mid_launch = [&] { return launching != 0 && blocked_in_poll(launching); };
  const auto give_up = std::chrono::steady_clock::now() + testing::slack(10s);
  while (!mid_launch() && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(1ms);
  }
  EXPECT_TRUE(mid_launch()) << "the launch never waited for the server's reply";
  ASSERT_EQ(kill(first, SIGKILL), 0);
  Result<WorkerProcess> failed = pending.get();
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().rule, "fork_server_failed");
  EXPECT_FALSE(testing::is_unreaped_child(first));
  EXPECT_TRUE(launcher_->launch().ok()) << "the next launch starts a new server";
}

TEST_F(ForkServerLauncherTest, WorkerOutlivesTheShortLivedThreadThatLaunchedIt) {
  Result<WorkerProcess> worker = std::async(std::launch::async, [&] {
                                   return launcher_->launch();
                                 }).get();  // that thread has exited now
  ASSERT_TRUE(worker.ok());
  std::this_thread::sleep_for(100ms);
  const char state = state_and_parent(worker->process.pid()).first;
  EXPECT_TRUE(state == 'S' || state == 'R') << "parent-death signal fired: " << state;
}

TEST_F(ForkServerLauncherTest, DestroyingTheLauncherKillsAndReapsTheServerAndClosesItsFds) {
  const std::size_t fds_before = testing::open_fd_count();
  ASSERT_TRUE(launcher_->launch().ok());
  const pid_t server = fork_server_pid(*launcher_);
  launcher_.reset();
  EXPECT_FALSE(testing::is_unreaped_child(server));
  EXPECT_EQ(testing::open_fd_count(), fds_before);
}

TEST(ForkServerAdapter, RunningWorkerFinishesAfterTheServerDies) {
  CODEMODE_REQUIRE_WORKER();
  std::unique_ptr<WorkerLauncher> owned =
      make_fork_server_launcher(*testing::worker_binary(), IsolationProfile::kProcess);
  WorkerLauncher* launcher = owned.get();
  auto adapter = make_process_adapter_with(std::move(owned), [] { return true; });
  const ToolBroker doubling = testing::doubling_broker();
  pid_t killed = -1;
  auto mode =
      CodeMode::create({.adapter = adapter,
                        .invoke_tool =
                            [&](const Tool& tool, const Json& input, const BrokerContext& context) {
                              killed = fork_server_pid(*launcher);
                              kill(killed, SIGKILL);
                              return doubling(tool, input, context);
                            }})
          .value();
  const CodeExecutionOutcome outcome =
      mode->execute(doubling_program(), {{"value", 21}}, testing::execute_options("outlives"));
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  // A launch that races the server's death fails (worker_start_failed); once it is gone, the next
  // launch starts a new one.
  ASSERT_TRUE(ends_unreaped(killed));
  const CodeExecutionOutcome next =
      mode->execute(doubling_program(), {{"value", 1}}, testing::execute_options("next"));
  EXPECT_TRUE(next.ok()) << to_json(next);
}

}  // namespace
}  // namespace codemode::internal
