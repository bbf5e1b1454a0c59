// The OS confinement holds when the engine does not: the test-hooks worker runs native code after
// the system-call filter went on, as an exploited engine would, and tries to reach the host. Each
// attempt must kill the worker (the filter's SIGSYS; tests/worker/worker_confinement_test.cc
// checks the signal itself on the raw worker), end the execution as worker_exited, and leave the
// host exactly as it was: no file, no connection, no process, no signal, no tracer.
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "core/process/unique_fd.h"
#include "core/sanitizer_build.h"
#include "support/scratch_dir.h"
#include "support/testhooks_fixture.h"

namespace codemode {
namespace {

using testing::HookedMode;
using testing::js_bytes;

class OsConfinementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_TESTHOOKS_WORKER();
    mode_.emplace();
  }
  void TearDown() override {
    EXPECT_TRUE(testing::child_pids_but_fork_servers().empty())
        << "a worker or a process of its was left behind";
  }

  // Runs `hook_call` (the arguments of __codemodeTestHook) and expects the worker killed. Had the
  // call returned, the program would have returned "survived" and the execution succeeded.
  void expect_killed(const std::string& hook_call) {
    const CodeExecutionOutcome outcome = mode_->run(testing::hook_program(
        "() => { __codemodeTestHook(" + hook_call + "); return 'survived'; }"));
    testing::expect_sandbox_fault(outcome, "worker_exited");
    EXPECT_EQ(outcome.usage.tool_calls, 0);
  }

  std::optional<HookedMode> mode_;  // made once the test-hooks worker is known to exist
};

TEST_F(OsConfinementTest, CreatingAFileKillsTheWorkerAndNoFileAppears) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  const std::filesystem::path target = dir.path() / "created-by-worker";
  expect_killed("'create', " + js_bytes(target.string()));
  EXPECT_FALSE(std::filesystem::exists(target));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
  expect_killed("'open'");  // reading a host file: /etc/hostname
  mode_->expect_next_execution_works();
}

TEST_F(OsConfinementTest, ConnectingToALoopbackListenerKillsTheWorkerAndNothingConnects) {
  internal::UniqueFd listener(socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  ASSERT_TRUE(listener.valid());
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ASSERT_EQ(bind(listener.get(), reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(listen(listener.get(), 8), 0);
  ASSERT_EQ(getsockname(listener.get(), reinterpret_cast<sockaddr*>(&address), &length), 0);
  const int port = ntohs(address.sin_port);

  expect_killed("'connect', " + std::to_string(port));
  errno = 0;
  EXPECT_EQ(accept4(listener.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC), -1);
  EXPECT_EQ(errno, EAGAIN) << "something connected to the listener";
  mode_->expect_next_execution_works();
}

TEST_F(OsConfinementTest, ExecutingABinaryKillsTheWorkerAndItNeverRuns) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  const std::filesystem::path marker = dir.path() / "marker";
  const std::filesystem::path script = dir.path() / "make-marker";
  {
    std::ofstream file(script);
    file << "#!/bin/sh\n: > '" << marker.string() << "'\n";
  }
  ASSERT_EQ(chmod(script.c_str(), 0755), 0);
  // The script does create the marker when it runs, so its absence below means it never ran.
  testing::run_process({script.string()}, "");
  ASSERT_TRUE(std::filesystem::exists(marker));
  std::filesystem::remove(marker);

  expect_killed("'exec', " + js_bytes(script.string()));
  EXPECT_FALSE(std::filesystem::exists(marker));
  mode_->expect_next_execution_works();
}

TEST_F(OsConfinementTest, ForkingKillsTheWorkerAndNoProcessIsLeft) {
  testing::SubreaperScope subreaper;
  ASSERT_TRUE(subreaper.active());
  expect_killed("'fork'");  // the child would linger 5 s, so it would still be here
  EXPECT_TRUE(testing::child_pids_but_fork_servers().empty()) << "the worker's child survived it";
  mode_->expect_next_execution_works();
}

// Memory both writable and executable kills in either engine profile. The interpreter profile
// kills any executable memory; the JIT profile (CODEMODE_TEST_ENGINE=jit) lets a mapping be
// executable, as its compilers need, as long as it is not writable too (W^X).
TEST_F(OsConfinementTest, ExecutableMemoryKillsTheWorker) {
  expect_killed("'mmap_wx'");
  expect_killed("'mprotect_wx'");
  if (testing::testing_jit()) {
    const CodeExecutionOutcome outcome = mode_->run(testing::hook_program(
        "() => [__codemodeTestHook('mmap_exec'), __codemodeTestHook('mprotect_exec')]"));
    ASSERT_TRUE(outcome.ok()) << to_json(outcome);
    EXPECT_EQ(*outcome.output, Json({0, 0}));
  } else {
    expect_killed("'mmap_exec'");
    expect_killed("'mprotect_exec'");
  }
  mode_->expect_next_execution_works();
}

// The "TracerPid:" field of /proc/self/status.
std::string tracer_pid() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("TracerPid:", 0) == 0) return line.substr(line.find_first_not_of(" \t", 10));
  }
  return "";
}

// Memory RLIMIT_DATA does not count, or a second view of a page (the first security review, finding
// 1): shared and grows-down mappings and mremap's aliasing form kill in both engine profiles, as
// does advice beyond MADV_DONTNEED (MADV_MERGEABLE: 12). A read-only reservation the filter allows
// is refused by RLIMIT_AS once it is larger than the worker's address space may grow (release
// builds; under ASan the limit sits above the runtime's terabytes of shadow).
TEST_F(OsConfinementTest, MemoryTheDataLimitMissesIsRefused) {
  expect_killed("'mmap_shared', 1073741824");
  expect_killed("'mmap_growsdown'");
  expect_killed("'mremap_alias'");
  expect_killed("'madvise', 12");
  const CodeExecutionOutcome dontneed =
      mode_->run(testing::hook_program("() => __codemodeTestHook('madvise', 4)"));
  ASSERT_TRUE(dontneed.ok()) << to_json(dontneed);
  EXPECT_EQ(*dontneed.output, Json(0));
  if (!internal::kSanitizerBuild) {
    const CodeExecutionOutcome reserved = mode_->run(testing::hook_program(
        "() => [__codemodeTestHook('reserve', 2 ** 20), __codemodeTestHook('reserve', 2 ** 36)]"));
    ASSERT_TRUE(reserved.ok()) << to_json(reserved);
    EXPECT_EQ(*reserved.output, Json({0, -ENOMEM}));
  }
  mode_->expect_next_execution_works();
}

// A worker started by root keeps no capability (the first security review, finding 6), in every
// spawn mode, isolation profile and engine profile this suite runs in: read from this process's
// view of the confined worker (the child with a seccomp filter) while its program waits on a tool
// call.
TEST_F(OsConfinementTest, ConfinedWorkerHoldsNoCapability) {
  std::vector<std::map<std::string, std::string>> confined;
  ToolOptions inspect = testing::double_tool_options();
  inspect.execute = [&confined](const Json& input, const ToolContext&, ToolResponder respond) {
    for (pid_t pid : testing::child_pids_but_fork_servers()) {
      std::map<std::string, std::string> status = testing::proc_status(pid);
      if (status["Seccomp"] == "2") confined.push_back(std::move(status));
    }
    respond.succeed(input);
  };
  const Tool tool = define_tool(inspect).value();
  testing::HookedMode mode({tool});
  const CodeExecutionOutcome outcome = mode.run(testing::hook_program(
      "async (input, tools) => (await tools.call('number.double', { value: 1 })).status",
      testing::hook_limits(), {tool}));
  ASSERT_TRUE(outcome.ok()) << to_json(outcome);
  ASSERT_EQ(confined.size(), 1u) << "expected exactly one confined worker among the children: "
                                 << testing::child_pids().size() << " children";
  const std::string kNone = "0000000000000000";
  for (const char* set : {"CapInh", "CapPrm", "CapEff", "CapAmb"}) {
    EXPECT_EQ(confined[0][set], kNone) << set;
  }
  if (geteuid() == 0) {
    EXPECT_EQ(confined[0]["CapBnd"], kNone);
  }
  EXPECT_EQ(confined[0]["NoNewPrivs"], "1");
}

TEST_F(OsConfinementTest, TracingTheHostKillsTheWorkerAndTheHostStaysUntraced) {
  ASSERT_EQ(tracer_pid(), "0") << "this test process is already traced";
  expect_killed("'ptrace', " + std::to_string(getpid()));
  EXPECT_EQ(tracer_pid(), "0");
  mode_->expect_next_execution_works();
}

volatile sig_atomic_t g_sigterm_received = 0;

// Catches SIGTERM for the scope, so a signal that got through is recorded instead of ending the
// test process.
class SigtermCatcher {
 public:
  SigtermCatcher() {
    g_sigterm_received = 0;
    struct sigaction catcher {};
    catcher.sa_handler = [](int) { g_sigterm_received = 1; };
    sigemptyset(&catcher.sa_mask);
    installed_ = sigaction(SIGTERM, &catcher, &previous_) == 0;
  }
  ~SigtermCatcher() {
    if (installed_) sigaction(SIGTERM, &previous_, nullptr);
  }
  SigtermCatcher(const SigtermCatcher&) = delete;
  SigtermCatcher& operator=(const SigtermCatcher&) = delete;
  bool installed() const { return installed_; }

 private:
  struct sigaction previous_ {};
  bool installed_ = false;
};

TEST_F(OsConfinementTest, SignallingTheHostKillsTheWorkerAndNoSignalArrives) {
  SigtermCatcher catcher;
  ASSERT_TRUE(catcher.installed());
  // The worker's parent is this process; the hook gets its pid because getppid itself is denied.
  expect_killed("'kill', " + std::to_string(getpid()));
  EXPECT_EQ(g_sigterm_received, 0) << "SIGTERM reached the host";
  mode_->expect_next_execution_works();
}

}  // namespace
}  // namespace codemode
