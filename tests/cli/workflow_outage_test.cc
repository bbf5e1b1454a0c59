// `codemode workflow worker` outlives its store (docs/workflows.md, "Store outages"). The test
// starts a PostgreSQL server of its own with scripts/postgres, in its scratch directory, so that
// stopping it disturbs no other test; stops it for three seconds under a running worker, while the
// phase's tool is in the middle of its call; and starts it again. The worker stays up, logs the
// outage once when it starts and once when it ends, and the run completes with its phase run once.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "core/process/child_process.h"
#include "core/process/pipe_io.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/timing.h"

namespace codemode {
namespace {

const std::string kPostgresScript = std::string(CODEMODE_SOURCE_DIR) + "/scripts/postgres";

std::string account_name() {
  passwd* entry = getpwuid(getuid());
  return entry != nullptr ? entry->pw_name : "";
}

// How many lines the file holds (the tool's effects, one a line).
int lines_in(const std::string& path) {
  std::ifstream file(path);
  int lines = 0;
  for (std::string line; std::getline(file, line);) ++lines;
  return lines;
}

std::size_t count_of(const std::string& text, const std::string& word) {
  std::size_t count = 0;
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    ++count;
  }
  return count;
}

// A private PostgreSQL server (scripts/postgres, as the workflow suite's fixture starts its own):
// its cluster in a new directory under $TMPDIR or /tmp, a Unix socket there and no TCP port, its
// address in `dir`. Stopped, and its files deleted, on destruction.
class PostgresServer {
 public:
  explicit PostgresServer(std::string dir) : dir_(std::move(dir)) {
    started_ = script("start");
    if (!started_.exit_code || *started_.exit_code != 0) return;
    std::ifstream file(dir_ + "/server");
    std::string host;
    std::string port;
    for (std::string word; file >> word;) {
      if (word.starts_with("host=")) host = word.substr(5);
      if (word.starts_with("port=")) port = word.substr(5);
    }
    url_ = "postgresql://codemode@/postgres?host=" + host + "&port=" + port;
  }
  ~PostgresServer() { script("stop"); }
  PostgresServer(const PostgresServer&) = delete;
  PostgresServer& operator=(const PostgresServer&) = delete;

  // Empty when the server did not start; then why() says why.
  const std::string& url() const { return url_; }
  const std::string& why() const { return started_.err; }
  bool pause() { return script("pause").exit_code == 0; }
  bool resume() { return script("resume").exit_code == 0; }

 private:
  testing::ProcessRun script(const std::string& command) {
    std::vector<std::string> env{"PATH=/usr/local/bin:/usr/bin:/sbin:/bin"};
    // NOLINTNEXTLINE(concurrency-mt-unsafe): nothing in this test changes its environment
    if (const char* tmpdir = std::getenv("TMPDIR")) env.push_back(std::string("TMPDIR=") + tmpdir);
    return testing::run_process({"/bin/bash", kPostgresScript, command, dir_}, "",
                                testing::slack(std::chrono::seconds(120)), std::move(env));
  }

  std::string dir_;
  testing::ProcessRun started_;
  std::string url_;
};

// `codemode workflow worker` running in the background; its stderr collected as it comes.
class BackgroundWorker {
 public:
  explicit BackgroundWorker(std::vector<std::string> argv) {
    auto child = internal::spawn_child({.path = argv[0], .argv = argv});
    if (child.ok()) child_ = std::move(*child);
  }
  bool started() const { return child_.has_value(); }
  bool running() { return child_->process.owned() && !child_->process.try_reap(); }

  // Its stderr so far, read until `text` appears `times` times or the timeout.
  const std::string& err_until(const std::string& text, std::size_t times,
                               std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (count_of(err_, text) < times && std::chrono::steady_clock::now() < deadline &&
           child_->stderr_fd.valid()) {
      pollfd readable{.fd = child_->stderr_fd.get(), .events = POLLIN, .revents = 0};
      ::poll(&readable, 1, 50);
      if (internal::read_some(child_->stderr_fd.get(), 4096, err_).status ==
          internal::IoStatus::kClosed) {
        child_->stderr_fd.reset();
      }
    }
    return err_;
  }

  // SIGTERM, then its stdout and exit status.
  std::pair<std::string, std::optional<int>> stop() {
    if (!child_->process.owned()) return {"", std::nullopt};
    ::kill(child_->process.pid(), SIGTERM);
    std::string out;
    const auto deadline =
        std::chrono::steady_clock::now() + testing::slack(std::chrono::seconds(30));
    while (std::chrono::steady_clock::now() < deadline) {
      pollfd readable{.fd = child_->stdout_fd.get(), .events = POLLIN, .revents = 0};
      ::poll(&readable, 1, 50);
      if (internal::read_some(child_->stdout_fd.get(), 4096, out).status ==
          internal::IoStatus::kClosed) {
        break;
      }
    }
    for (int i = 0; i < 2000; ++i) {
      if (auto status = child_->process.try_reap()) return {out, status->exit_code};
      usleep(1000);
    }
    return {out, std::nullopt};
  }

 private:
  std::optional<internal::SpawnedChild> child_;
  std::string err_;
};

TEST(WorkflowOutageTest, AWorkerSurvivesItsStoreStoppingAndStartingAndRunsNothingTwice) {
  CODEMODE_REQUIRE_WORKER();
  testing::ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  PostgresServer postgres(scratch.file("postgres"));
  if (postgres.url().empty() &&
      postgres.why().find("no PostgreSQL server installed") != std::string::npos) {
    GTEST_SKIP() << "No PostgreSQL server is installed (scripts/install-deps).";
  }
  ASSERT_FALSE(postgres.url().empty()) << postgres.why();

  // One phase whose one write tool appends its input to effects.log (its effect) and then waits
  // for a file named go before it answers: the store goes away while the phase is mid-call.
  const std::string effects = scratch.file("effects.log");
  const std::string go = scratch.file("go");
  const std::string tool = scratch.file("write.sh");
  std::ofstream(tool) << "#!/bin/sh\ncat >> '" << effects << "'\necho >> '" << effects
                      << "'\ni=0\nwhile [ ! -e '" << go
                      << "' ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\n"
                         "echo '{\"value\": 7}'\n";
  std::filesystem::permissions(tool, std::filesystem::perms::owner_all);
  std::ofstream(scratch.file("tools.json")) << Json{
      {"tools",
       {{{"id", "outage.write"},
         {"version", "1"},
         {"description", "Writes once, then waits for the test."},
         {"inputSchema", {{"type", "object"}}},
         {"outputSchema", {{"type", "object"}}},
         {"effects", "write"},
         {"costMicros", 1},
         {"timeoutMs", 60'000},
         {"command", {tool}}}}}}.dump();
  std::ofstream(scratch.file("write.js"))
      << "async (input, tools) => { const r = await tools.call('outage.write', input); "
         "if (r.status !== 'succeeded') throw new Error('not written'); return r.output; }";
  std::ofstream(scratch.file("workflow.json"))
      << Json{{"id", "outage.test"},
              {"version", "1"},
              {"scope", {{"principalId", "local"}, {"projectId", "demo"}}},
              {"approvers", {account_name()}},
              {"maxCostMicros", 10},
              {"phases",
               {{{"id", "write"},
                 {"program", "write.js"},
                 {"intent", "Write once."},
                 {"tools", "tools.json"},
                 {"limits",
                  {{"maxToolCalls", 1}, {"maxToolConcurrency", 1}, {"wallTimeMillis", 60'000}}}}}},
              {"result", {{"kind", "phase"}, {"phaseId", "write"}, {"path", Json::array()}}}}
             .dump();
  const auto workflow = [&](const std::string& command, std::vector<std::string> args = {}) {
    std::vector<std::string> argv{CODEMODE_CLI_BINARY,           "workflow", command,
                                  scratch.file("workflow.json"), "--store",  postgres.url()};
    argv.insert(argv.end(), args.begin(), args.end());
    testing::ProcessRun run = testing::run_process(argv, "");
    EXPECT_EQ(run.exit_code, 0) << command << ": " << run.err;
    return Json::parse(run.out, nullptr, false);
  };

  const Json started = workflow("start", {"--input", R"({"n":1})"});
  const std::string run = started.at("runId").get<std::string>();
  workflow("approve", {run, "write", started.at("pending").at(0).at("digest").get<std::string>(),
                       "--as", account_name()});
  BackgroundWorker worker({CODEMODE_CLI_BINARY, "workflow", "worker", scratch.file("workflow.json"),
                           "--store", postgres.url(), "--poll-ms", "50"});
  ASSERT_TRUE(worker.started());
  const auto deadline = std::chrono::steady_clock::now() + testing::slack(std::chrono::seconds(30));
  while (lines_in(effects) == 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(lines_in(effects), 1) << "the phase never reached its tool";

  // The store goes away mid-call; the tool then answers, and the audit, receipt and completion
  // wait for the store.
  const auto outage = std::chrono::steady_clock::now();
  ASSERT_TRUE(postgres.pause());
  std::ofstream(go) << "go\n";
  worker.err_until("workflow_worker_failing", 1, testing::slack(std::chrono::seconds(20)));
  std::this_thread::sleep_until(outage + std::chrono::seconds(3));
  EXPECT_TRUE(worker.running()) << "the worker ended with its store";
  ASSERT_TRUE(postgres.resume());
  const std::string log =
      worker.err_until("workflow_worker_recovered", 1, testing::slack(std::chrono::seconds(30)));

  EXPECT_EQ(count_of(log, "workflow_worker_failing"), 1u) << log;
  EXPECT_EQ(count_of(log, "workflow_worker_recovered"), 1u) << log;
  EXPECT_NE(log.find(R"("rule":"store_io")"), std::string::npos) << log;
  EXPECT_EQ(log.find(postgres.url()), std::string::npos) << "the URL is never logged";
  const Json status = workflow("status", {run});
  EXPECT_EQ(status.at("status"), "succeeded") << status.dump();
  EXPECT_EQ(status.at("output"), (Json{{"value", 7}}));
  EXPECT_EQ(status.at("ledger").at("spentMicros"), 1);
  const Json audit = workflow("inspect", {run, "write"}).at("audit");
  EXPECT_EQ(audit.at("outcome"), "succeeded");
  EXPECT_EQ(audit.at("evidence").size(), 1u);
  EXPECT_EQ(lines_in(effects), 1);

  const auto [out, exit_code] = worker.stop();
  EXPECT_EQ(exit_code, 0);
  EXPECT_EQ(Json::parse(out, nullptr, false), (Json{{"executed", 1}})) << out;
}

}  // namespace
}  // namespace codemode
