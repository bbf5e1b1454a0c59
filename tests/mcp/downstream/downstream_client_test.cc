// DownstreamClient against a real downstream process (a small python3 MCP server): a caller
// waiting for the server to (re)start leaves on its own stop token, one start at a time, a start
// nobody waits for any more ends without leaving a process or an fd behind, and whatever a server
// started ends with it (restart, shutdown, a start that times out).
#include "mcp/downstream/downstream_client.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "support/descendants.h"
#include "support/process_support.h"
#include "support/timing.h"

namespace codemode::mcp {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// argv: <start log> <mode> [<job record>]. Appends a line to the log on each start. Modes: "hang"
// never answers initialize; "slow" answers it after 300 ms; "hang-on-restart" answers it on the
// first start only; "spawn-then-hang" starts a background job, then hangs. tools/call "crash"
// exits without answering; "spawn" starts a background job (a sleep with its stdio on /dev/null,
// recorded in the job record as support/descendants.h reads it) and answers "ok"; any other tool
// answers "ok".
constexpr char kFixtureServer[] = R"(
import json, subprocess, sys, time
log, mode = sys.argv[1], sys.argv[2]
def spawn():
    job = subprocess.Popen(['/bin/sleep', '300'], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open('/proc/%d/stat' % job.pid) as f:
        start_time = f.read().rsplit(')', 1)[1].split()[19]
    with open(sys.argv[3], 'a') as f:
        f.write('%d %s\n' % (job.pid, start_time))
with open(log, 'a') as f:
    f.write('start\n')
with open(log) as f:
    starts = len(f.readlines())
if mode == 'spawn-then-hang':
    spawn()
while True:
    line = sys.stdin.readline()
    if not line:
        break
    message = json.loads(line)
    method = message.get('method')
    if method == 'initialize':
        if mode in ('hang', 'spawn-then-hang') or (mode == 'hang-on-restart' and starts > 1):
            continue
        if mode == 'slow':
            time.sleep(0.3)
        result = {'protocolVersion': message['params']['protocolVersion'], 'capabilities': {},
                  'serverInfo': {'name': 'fixture', 'version': '1'}}
    elif method == 'tools/call':
        if message['params']['name'] == 'crash':
            sys.exit(0)
        if message['params']['name'] == 'spawn':
            spawn()
        result = {'content': [{'type': 'text', 'text': 'ok'}]}
    else:
        continue
    sys.stdout.write(json.dumps({'jsonrpc': '2.0', 'id': message['id'], 'result': result}) + '\n')
    sys.stdout.flush()
)";

// The fixture's start log, in a directory of the test's own.
class StartLog {
 public:
  const std::string& path() const { return path_; }
  int starts() const {
    std::ifstream in(path_);
    int lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    return lines;
  }

 private:
  testing::ScratchDir dir_;
  std::string path_ = dir_.file("starts");
};

DownstreamServerConfig fixture(const StartLog& log, const std::string& mode, milliseconds timeout) {
  return {.name = "fixture",
          .path = "/usr/bin/python3",
          .argv = {"python3", "-c", kFixtureServer, log.path(), mode},
          .timeout = timeout};
}

// The fixture with its start log and job record in the test's own directory.
DownstreamServerConfig recording_fixture(const testing::ScratchDir& dir, const std::string& mode,
                                         milliseconds timeout) {
  return {.name = "fixture",
          .path = "/usr/bin/python3",
          .argv = {"python3", "-c", kFixtureServer, dir.file("starts"), mode, dir.file("jobs")},
          .timeout = timeout};
}

struct CallEnd {
  Result<Json> result;
  Clock::time_point at;
};

// One call_tool on a thread of its own (it blocks while the server starts), with its own stop.
class BackgroundCall {
 public:
  BackgroundCall(DownstreamClient& client, std::string tool)
      : ended_(promise_.get_future()), thread_([this, &client, tool] {
          client.call_tool(tool, Json::object(), stop_.get_token(), [this](Result<Json> result) {
            promise_.set_value(CallEnd{std::move(result), Clock::now()});
          });
        }) {}
  ~BackgroundCall() {
    stop_.request_stop();
    thread_.join();
  }

  Clock::time_point stop() {
    const Clock::time_point now = Clock::now();
    stop_.request_stop();
    return now;
  }
  bool ended_within(milliseconds limit) {
    return ended_.wait_for(limit) == std::future_status::ready;
  }
  CallEnd end() { return ended_.get(); }

 private:
  std::stop_source stop_;
  std::promise<CallEnd> promise_;
  std::future<CallEnd> ended_;
  std::thread thread_;
};

void expect_cancelled_within(BackgroundCall& call, Clock::time_point stopped, milliseconds limit) {
  ASSERT_TRUE(call.ended_within(limit)) << "the call did not leave on its stop";
  CallEnd end = call.end();
  ASSERT_FALSE(end.result.ok());
  EXPECT_EQ(end.result.error().code, ErrorCode::kCancelled);
  EXPECT_EQ(end.result.error().rule, "cancelled");
  EXPECT_LT(end.at - stopped, limit);
}

// Children of this process are reaped asynchronously by the attempt's thread: poll a little.
bool children_back_to(const std::vector<pid_t>& baseline, milliseconds limit) {
  const Clock::time_point deadline = Clock::now() + limit;
  while (testing::child_pids() != baseline) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(10));
  }
  return true;
}

Result<Json> call_and_wait(DownstreamClient& client, const std::string& tool) {
  BackgroundCall call(client, tool);
  if (!call.ended_within(testing::slack(milliseconds(5000)))) {
    return Error::timeout("test", "hung");
  }
  return call.end().result;
}

TEST(DownstreamClientTest, CallersWaitingForARestartEachLeaveOnTheirOwnStop) {
  const std::vector<pid_t> children = testing::child_pids();
  const std::size_t fds = testing::open_fd_count();
  StartLog log;
  auto client =
      std::make_unique<DownstreamClient>(fixture(log, "hang-on-restart", milliseconds(10'000)));
  ASSERT_TRUE(call_and_wait(*client, "echo").ok());
  Result<Json> crashed = call_and_wait(*client, "crash");
  ASSERT_FALSE(crashed.ok());
  EXPECT_EQ(crashed.error().rule, "downstream_exited");

  {  // the callers end (stop, join) before the client goes
    BackgroundCall first(*client, "echo");
    std::this_thread::sleep_for(milliseconds(50));
    BackgroundCall second(*client, "echo");
    std::this_thread::sleep_for(milliseconds(50));
    expect_cancelled_within(first, first.stop(), testing::slack(milliseconds(1000)));
    EXPECT_FALSE(second.ended_within(milliseconds(100)))
        << "the second caller left on the first's stop";
    expect_cancelled_within(second, second.stop(), testing::slack(milliseconds(1000)));
    EXPECT_EQ(log.starts(), 2) << "the two callers did not share one restart";
  }
  const Clock::time_point destroying = Clock::now();
  client.reset();  // cuts the hanging restart short
  EXPECT_LT(Clock::now() - destroying, testing::slack(milliseconds(2000)));
  EXPECT_TRUE(children_back_to(children, testing::slack(milliseconds(2000))));
  EXPECT_EQ(testing::open_fd_count(), fds);
}

TEST(DownstreamClientTest, AStartNobodyWaitsForEndsAtTheTimeoutWithItsProcessReaped) {
  const std::vector<pid_t> children = testing::child_pids();
  const std::size_t fds = testing::open_fd_count();
  StartLog log;
  DownstreamClient client(fixture(log, "hang", milliseconds(400)));
  {
    BackgroundCall call(client, "echo");
    std::this_thread::sleep_for(milliseconds(100));
    expect_cancelled_within(call, call.stop(), testing::slack(milliseconds(200)));
  }
  // The client is still alive: the abandoned start ended on its own, at timeoutMs.
  EXPECT_TRUE(children_back_to(children, testing::slack(milliseconds(3000))));
  EXPECT_EQ(testing::open_fd_count(), fds);
  EXPECT_EQ(log.starts(), 1);
}

TEST(DownstreamClientTest, AStartItsCallerLeftIsFinishedAndUsedByTheNextCaller) {
  StartLog log;
  DownstreamClient client(fixture(log, "slow", milliseconds(5000)));
  {
    BackgroundCall call(client, "echo");
    std::this_thread::sleep_for(milliseconds(50));
    expect_cancelled_within(call, call.stop(), testing::slack(milliseconds(200)));
  }
  std::this_thread::sleep_for(milliseconds(500));
  Result<Json> answered = call_and_wait(client, "echo");
  ASSERT_TRUE(answered.ok()) << answered.error().rule;
  EXPECT_EQ(answered->at("content").at(0).at("text"), "ok");
  EXPECT_EQ(log.starts(), 1);
}

TEST(DownstreamClientTest, ListToolsWaitsForTheStartBoundedByTheTimeout) {
  StartLog log;
  DownstreamClient client(fixture(log, "hang", milliseconds(300)));
  const Clock::time_point started = Clock::now();
  Result<Json> tools = client.list_tools();
  const Clock::duration took = Clock::now() - started;
  ASSERT_FALSE(tools.ok());
  EXPECT_EQ(tools.error().rule, "downstream_handshake");
  EXPECT_GE(took, milliseconds(300));
  EXPECT_LT(took, testing::slack(milliseconds(2000)));
}

TEST(DownstreamClientTest, ARestartEndsWhatTheDeadServerStarted) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  DownstreamClient client(recording_fixture(dir, "normal", milliseconds(10'000)));
  ASSERT_TRUE(call_and_wait(client, "spawn").ok());
  Result<Json> crashed = call_and_wait(client, "crash");
  ASSERT_FALSE(crashed.ok());
  EXPECT_EQ(crashed.error().rule, "downstream_exited");
  EXPECT_TRUE(call_and_wait(client, "echo").ok()) << "the server was not restarted";
  const std::vector<testing::RecordedProcess> jobs = testing::recorded_processes(dir.file("jobs"));
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(milliseconds(5000))))
      << "a job of the dead server outlived the restart";
  ASSERT_EQ(jobs.size(), 1u);
}

TEST(DownstreamClientTest, ShutdownEndsWhatTheServerStarted) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  auto client =
      std::make_unique<DownstreamClient>(recording_fixture(dir, "normal", milliseconds(10'000)));
  ASSERT_TRUE(call_and_wait(*client, "spawn").ok());
  client.reset();
  const std::vector<testing::RecordedProcess> jobs = testing::recorded_processes(dir.file("jobs"));
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(milliseconds(5000))))
      << "a job of the server outlived the client";
  ASSERT_EQ(jobs.size(), 1u);
}

// A start that fails (here: initialize is never answered) kills what the half-started server
// started, too.
TEST(DownstreamClientTest, AStartThatTimesOutEndsWhatTheServerStarted) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  DownstreamClient client(recording_fixture(dir, "spawn-then-hang", milliseconds(2000)));
  Result<Json> tools = client.list_tools();
  ASSERT_FALSE(tools.ok());
  EXPECT_EQ(tools.error().rule, "downstream_handshake");
  const std::vector<testing::RecordedProcess> jobs = testing::recorded_processes(dir.file("jobs"));
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(milliseconds(5000))))
      << "a job of the server outlived its failed start";
  ASSERT_EQ(jobs.size(), 1u);
}

}  // namespace
}  // namespace codemode::mcp
