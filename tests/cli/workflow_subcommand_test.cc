// `codemode workflow`, as the README walks through it: the quote example's two phases, each
// approved by its digest from `pending`, run by `worker --once`, then the result and the audit.
// Each test works in its own scratch directory (the store and the example's quote log live there).
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <poll.h>
#include <pwd.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "core/process/child_process.h"
#include "core/process/pipe_io.h"
#include "support/bubblewrap.h"
#include "support/http_test_client.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/signing_keys.h"
#include "support/timing.h"

namespace codemode {
namespace {

const std::string kQuote = std::string(CODEMODE_SOURCE_DIR) + "/examples/quote";

std::string login_name() {
  passwd* entry = getpwuid(getuid());
  return entry != nullptr ? entry->pw_name : "";
}

class WorkflowSubcommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CODEMODE_REQUIRE_WORKER();
    ASSERT_TRUE(scratch_.ok());
    // The example's workflow, with absolute paths and this account as its approver.
    std::ifstream example(kQuote + "/workflow.json");
    Json workflow = Json::parse(example);
    workflow["approvers"] = {login_name()};
    for (Json& phase : workflow["phases"]) {
      phase["program"] = kQuote + "/" + phase["program"].get<std::string>();
      phase["tools"] = kQuote + "/" + phase["tools"].get<std::string>();
    }
    std::ofstream(scratch_.file("workflow.json")) << workflow.dump();
  }

  // `codemode workflow COMMAND WORKFLOW ARGS... --store sqlite:runs.db`, run in the scratch
  // directory.
  testing::ProcessRun workflow(const std::string& command, std::vector<std::string> args = {}) {
    std::vector<std::string> argv{"/bin/sh",
                                  "-c",
                                  "cd \"$1\" && shift && exec \"$@\"",
                                  "sh",
                                  scratch_.path().string(),
                                  CODEMODE_CLI_BINARY,
                                  "workflow",
                                  command,
                                  scratch_.file("workflow.json"),
                                  "--store",
                                  "sqlite:runs.db"};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::run_process(argv, "");
  }

  static Json line_of(const testing::ProcessRun& run) {
    EXPECT_EQ(run.out.find('\n'), run.out.size() - 1) << run.out << run.err;
    return Json::parse(run.out, nullptr, false);
  }

  // The digest of the one pending request of `run`, which must be for `phase`.
  std::string pending_digest(const std::string& run, const std::string& phase) {
    testing::ProcessRun pending = workflow("pending", {run});
    EXPECT_EQ(pending.exit_code, 0) << pending.err;
    Json requests = line_of(pending).at("pending");
    EXPECT_EQ(requests.size(), 1u);
    EXPECT_EQ(requests.at(0).at("phaseId"), phase);
    return requests.at(0).at("digest").get<std::string>();
  }

  // Starts `codemode workflow console` on 127.0.0.1:0 with CODEMODE_CONSOLE_TOKEN=`token` and
  // returns the port it printed (0 when it printed none in time); it serves until the fixture ends.
  std::uint16_t start_console(const std::string& token) {
    std::vector<std::string> argv{CODEMODE_CLI_BINARY, "workflow",   "console",
                                  "workflow.json",     "--store",    "sqlite:runs.db",
                                  "--listen",          "127.0.0.1:0"};
    auto console = internal::spawn_child({.path = argv[0],
                                          .argv = argv,
                                          .env = {"CODEMODE_CONSOLE_TOKEN=" + token},
                                          .stderr_mode = internal::SpawnOptions::Stderr::kDiscard,
                                          .cwd = scratch_.path().string()});
    EXPECT_TRUE(console.ok());
    if (!console.ok()) return 0;
    console_ = std::move(*console);
    std::string first;  // {"console": "http://127.0.0.1:PORT/", ...}
    const auto deadline =
        std::chrono::steady_clock::now() + testing::slack(std::chrono::seconds(10));
    while (first.find('\n') == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      pollfd readable{.fd = console_->stdout_fd.get(), .events = POLLIN, .revents = 0};
      ::poll(&readable, 1, 100);
      if (internal::read_some(console_->stdout_fd.get(), 4096, first).status ==
          internal::IoStatus::kClosed) {
        break;
      }
    }
    const Json started = Json::parse(first.substr(0, first.find('\n')), nullptr, false);
    EXPECT_TRUE(started.is_object() && started.contains("console")) << first;
    if (!started.is_object() || !started.contains("console")) return 0;
    const std::string base = started.at("console").get<std::string>();
    return static_cast<std::uint16_t>(std::stoi(base.substr(base.rfind(':') + 1)));
  }

  testing::ScratchDir scratch_;
  std::optional<internal::SpawnedChild> console_;  // start_console's
};

TEST_F(WorkflowSubcommandTest, WalksThroughStartPendingApproveWorkerStatusAndInspect) {
  testing::ProcessRun start =
      workflow("start", {"--input", R"({"skus":["ab","cde"],"percent":10})"});
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const Json started = line_of(start);
  EXPECT_EQ(started.at("status"), "waiting");
  const std::string run = started.at("runId").get<std::string>();
  const Json first = started.at("pending").at(0);
  EXPECT_EQ(first.at("phaseId"), "price");
  EXPECT_EQ(first.at("effects"), "read");
  EXPECT_EQ(first.at("input"), Json::parse(R"({"skus":["ab","cde"],"percent":10})"));
  EXPECT_NE(first.at("source").get<std::string>().find("catalog.price"), std::string::npos);

  // Nothing runs before approval.
  EXPECT_EQ(line_of(workflow("worker", {"--once"})), (Json{{"executed", 0}}));

  testing::ProcessRun forged =
      workflow("approve", {run, "price", std::string(64, 'a'), "--as", login_name()});
  EXPECT_EQ(forged.exit_code, 1);
  EXPECT_NE(forged.err.find("CONFLICT"), std::string::npos);
  testing::ProcessRun impostor =
      workflow("approve", {run, "price", first.at("digest").get<std::string>(), "--as", "mallory"});
  EXPECT_EQ(impostor.exit_code, 1);
  EXPECT_NE(impostor.err.find("PERMISSION_DENIED"), std::string::npos);

  ASSERT_EQ(workflow("approve", {run, "price", pending_digest(run, "price"), "--as", login_name()})
                .exit_code,
            0);
  EXPECT_EQ(line_of(workflow("worker", {"--once"})), (Json{{"executed", 1}}));
  const std::string discount = pending_digest(run, "discount");
  ASSERT_EQ(workflow("approve", {run, "discount", discount, "--as", login_name()}).exit_code, 0);
  EXPECT_EQ(line_of(workflow("worker", {"--once"})), (Json{{"executed", 1}}));

  const Json status = line_of(workflow("status", {run}));
  EXPECT_EQ(status.at("status"), "succeeded");
  EXPECT_EQ(status.at("output"), Json::parse(R"({"quoteCents":450,"quoteId":"q-1"})"));
  EXPECT_EQ(status.at("ledger"),
            Json::parse(R"({"spentMicros":10,"reservedMicros":0,"maxCostMicros":1000})"));
  const Json audit = line_of(workflow("inspect", {run, "discount"})).at("audit");
  EXPECT_EQ(audit.at("format"), 2);
  EXPECT_EQ(audit.at("outcome"), "succeeded");
  EXPECT_EQ(audit.at("evidence").at(0).at("receipt").at("toolId"), "quote.discount");
  EXPECT_EQ(line_of(workflow("list")).at("runs").size(), 1u);

  std::ifstream quotes(scratch_.file("codemode-quotes.log"));
  std::string line;
  int lines = 0;
  while (std::getline(quotes, line)) ++lines;
  EXPECT_EQ(lines, 1);
}

// --sandbox: the phases run where a SANDBOX.json says, here the worker launched through
// bubblewrap by a production protocol sandbox; a file that describes no sandbox is a usage error.
TEST_F(WorkflowSubcommandTest, AWorkerRunsPhasesInTheSandboxItsFileNames) {
  const Json sandbox{{"type", "protocol"},
                     {"id", "tests.bwrap"},
                     {"qualification", "production"},
                     {"launch", testing::bubblewrap_launch(*testing::worker_binary())}};
  std::ofstream(scratch_.file("sandbox.json")) << sandbox.dump();
  const std::string run = line_of(workflow("start", {"--input", R"({"skus":["ab"],"percent":0})"}))
                              .at("runId")
                              .get<std::string>();
  ASSERT_EQ(workflow("approve", {run, "price", pending_digest(run, "price"), "--as", login_name()})
                .exit_code,
            0);
  EXPECT_EQ(line_of(workflow("worker", {"--once", "--sandbox", scratch_.file("sandbox.json")})),
            (Json{{"executed", 1}}));
  const Json status = line_of(workflow("status", {run}));
  EXPECT_EQ(status.at("phases").at(0).at("state"), "succeeded") << status.dump();

  std::ofstream(scratch_.file("bad-sandbox.json")) << R"({"type":"vm"})";
  testing::ProcessRun bad =
      workflow("worker", {"--once", "--sandbox", scratch_.file("bad-sandbox.json")});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--sandbox: sandbox.type"), std::string::npos) << bad.err;
  testing::ProcessRun both = workflow(
      "worker", {"--once", "--sandbox", scratch_.file("sandbox.json"), "--isolation", "isolated"});
  EXPECT_EQ(both.exit_code, 2);
}

TEST_F(WorkflowSubcommandTest, AWorkerRunsUntilSigtermAndThenSaysHowManyPhasesItRan) {
  const std::string pause =
      std::to_string(testing::slack(std::chrono::seconds(1)).count() / 1000.0);
  std::vector<std::string> argv{
      "/bin/sh",
      "-c",
      "cd \"$1\" || exit 9; \"$2\" workflow worker workflow.json --store sqlite:runs.db "
      "--poll-ms 20 & pid=$!; sleep \"$3\"; kill -TERM $pid; wait $pid",
      "sh",
      scratch_.path().string(),
      CODEMODE_CLI_BINARY,
      pause};
  testing::ProcessRun worker = testing::run_process(argv, "");
  EXPECT_EQ(worker.exit_code, 0) << worker.err;
  EXPECT_EQ(line_of(worker), (Json{{"executed", 0}}));
}

// An approval binds what the phase's tools run. After approval, the price tool's script is edited
// and then its tools file rewritten to run another command: each time the worker runs nothing, and
// the phase's request is issued again showing the command and the script's content it would run.
TEST_F(WorkflowSubcommandTest, AnApprovalBindsTheCommandsThePhasesToolsRun) {
  const std::string script = scratch_.file("price.sh");
  std::filesystem::copy_file(std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog/price.sh",
                             script);
  std::ifstream example_tools(kQuote + "/price-tools.json");
  Json tools = Json::parse(example_tools);
  tools["tools"][0]["command"] = {script};
  std::ofstream(scratch_.file("price-tools.json")) << tools.dump();
  std::ifstream written(scratch_.file("workflow.json"));
  Json workflow_file = Json::parse(written);
  workflow_file["phases"][0]["tools"] = scratch_.file("price-tools.json");
  std::ofstream(scratch_.file("workflow.json")) << workflow_file.dump();

  testing::ProcessRun start =
      workflow("start", {"--input", R"({"skus":["ab","cde"],"percent":10})"});
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const Json request = line_of(start).at("pending").at(0);
  const std::string run = request.at("runId").get<std::string>();
  const Json bound_tool = request.at("binding").at("tools").at(0);
  EXPECT_EQ(bound_tool.at("runs").at("command"), Json::array({script}));
  EXPECT_EQ(bound_tool.at("files").at(0).at("path"), script);
  EXPECT_TRUE(bound_tool.at("files").at(0).at("content").get<std::string>().starts_with("sha256:"));
  ASSERT_EQ(workflow("approve",
                     {run, "price", request.at("digest").get<std::string>(), "--as", login_name()})
                .exit_code,
            0);

  // The script now also writes a file of its own.
  { std::ofstream(script, std::ios::app) << "\necho hijacked > hijacked.txt\n"; }
  EXPECT_EQ(line_of(workflow("worker", {"--once"})), (Json{{"executed", 0}}));
  const std::string after_edit = pending_digest(run, "price");
  EXPECT_NE(after_edit, request.at("digest").get<std::string>());
  ASSERT_EQ(workflow("approve", {run, "price", after_edit, "--as", login_name()}).exit_code, 0);

  // The tools file now runs another command.
  tools["tools"][0]["command"] = {"/bin/sh", "-c", "echo hijacked > hijacked.txt"};
  std::ofstream(scratch_.file("price-tools.json"), std::ios::trunc) << tools.dump();
  EXPECT_EQ(line_of(workflow("worker", {"--once"})), (Json{{"executed", 0}}));
  EXPECT_FALSE(std::filesystem::exists(scratch_.file("hijacked.txt")));
  const Json pending = line_of(workflow("pending", {run})).at("pending");
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending.at(0).at("binding").at("tools").at(0).at("runs").at("command"),
            Json::array({"/bin/sh", "-c", "echo hijacked > hijacked.txt"}));
  const Json status = line_of(workflow("status", {run}));
  EXPECT_EQ(status.at("phases").at(0).at("state"), "awaiting_approval");
}

// Who may approve is the worker's own list. A copy of the workflow file that lists the caller
// approves nothing the real workflow's worker runs: its decision is made under another policy, so
// it is refused by the real file's runtime, and a decision the copy's runtime stores is never run.
TEST_F(WorkflowSubcommandTest, ACopyOfTheWorkflowFileListingTheCallerApprovesNothingThatRuns) {
  std::ifstream written(scratch_.file("workflow.json"));
  Json real = Json::parse(written);
  Json copy = real;
  real["approvers"] = {"somebody-else"};
  std::ofstream(scratch_.file("workflow.json"), std::ios::trunc) << real.dump();
  std::ofstream(scratch_.file("copy.json")) << copy.dump();
  auto with_copy = [&](const std::string& command, std::vector<std::string> args) {
    std::vector<std::string> argv{
        CODEMODE_CLI_BINARY,        "workflow", command,
        scratch_.file("copy.json"), "--store",  "sqlite:" + scratch_.file("runs.db")};
    argv.insert(argv.end(), args.begin(), args.end());
    return testing::run_process(argv, "");
  };

  testing::ProcessRun start =
      workflow("start", {"--input", R"({"skus":["ab","cde"],"percent":10})"});
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const std::string run = line_of(start).at("runId").get<std::string>();
  testing::ProcessRun copied =
      with_copy("approve", {run, "price", pending_digest(run, "price"), "--as", login_name()});
  EXPECT_EQ(copied.exit_code, 1);
  EXPECT_NE(copied.err.find("CONFLICT"), std::string::npos) << copied.err;

  // The copy's runtime issues its own request and stores an approval of it ...
  const Json reissued = line_of(with_copy("pending", {run})).at("pending");
  ASSERT_EQ(reissued.size(), 1u);
  ASSERT_EQ(with_copy("approve", {run, "price", reissued.at(0).at("digest").get<std::string>(),
                                  "--as", login_name()})
                .exit_code,
            0);
  // ... which the real worker never runs, and the real file's runtime asks again.
  EXPECT_EQ(line_of(workflow("worker", {"--once"})), (Json{{"executed", 0}}));
  EXPECT_NE(pending_digest(run, "price"), reissued.at(0).at("digest").get<std::string>());
  EXPECT_EQ(line_of(workflow("status", {run})).at("phases").at(0).at("state"), "awaiting_approval");
}

// approverKeys: every decision needs the approver's signature, made with `--key` from a private
// key file only its owner can read.
TEST_F(WorkflowSubcommandTest, WithApproverKeysApproveSignsWithTheApproversKey) {
  const testing::PemKeyPair key = testing::ed25519_key_pair();
  std::ofstream(scratch_.file("me.pub")) << key.public_key;
  std::ofstream(scratch_.file("me.key")) << key.private_key;
  std::filesystem::permissions(scratch_.file("me.key"), std::filesystem::perms::owner_read);
  std::ofstream(scratch_.file("open.key")) << key.private_key;
  std::filesystem::permissions(scratch_.file("open.key"), std::filesystem::perms::owner_read |
                                                              std::filesystem::perms::group_read |
                                                              std::filesystem::perms::others_read);
  std::ifstream written(scratch_.file("workflow.json"));
  Json workflow_file = Json::parse(written);
  workflow_file["approverKeys"] = {{login_name(), "me.pub"}};
  std::ofstream(scratch_.file("workflow.json"), std::ios::trunc) << workflow_file.dump();

  testing::ProcessRun start =
      workflow("start", {"--input", R"({"skus":["ab","cde"],"percent":10})"});
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const std::string run = line_of(start).at("runId").get<std::string>();
  const std::string digest = pending_digest(run, "price");
  testing::ProcessRun unsigned_decision =
      workflow("approve", {run, "price", digest, "--as", login_name()});
  EXPECT_EQ(unsigned_decision.exit_code, 1);
  EXPECT_NE(unsigned_decision.err.find("approval_signature"), std::string::npos);
  testing::ProcessRun readable_key = workflow(
      "approve", {run, "price", digest, "--as", login_name(), "--key", scratch_.file("open.key")});
  EXPECT_EQ(readable_key.exit_code, 1);
  EXPECT_NE(readable_key.err.find("approver_key"), std::string::npos);
  EXPECT_EQ(readable_key.err.find(scratch_.path().string()), std::string::npos) << "no host path";
  ASSERT_EQ(workflow("approve",
                     {run, "price", digest, "--as", login_name(), "--key", scratch_.file("me.key")})
                .exit_code,
            0);
  EXPECT_EQ(line_of(workflow("worker", {"--once"})), (Json{{"executed", 1}}));
}

// The console's connections (docs/console.md, "Access"): a local client without the token that
// keeps connections open, with keep-alive fetches of the page's files or connections that say
// nothing, more than the server's 32, cannot keep the person out. The page's files are answered
// with "Connection: close" and the server closes; the person's requests, with the token, are
// served and their connection kept.
TEST_F(WorkflowSubcommandTest, AConsoleClientWithoutTheTokenCannotHoldEveryConnection) {
  const std::string token(40, 'k');
  const std::uint16_t port = start_console(token);
  ASSERT_NE(port, 0);
  const std::string host = "Host: 127.0.0.1:" + std::to_string(port) + "\r\n";

  std::vector<testing::UniqueFd> held;
  for (int i = 0; i < 40; ++i) {
    held.push_back(testing::connect_to(port));
    testing::send_text(held.back(), "GET /console.css HTTP/1.1\r\n" + host + "\r\n");
  }
  for (int i = 0; i < 40; ++i) held.push_back(testing::connect_to(port));
  const std::string asset = testing::read_until(held[0], "\r\n\r\n");
  EXPECT_TRUE(asset.starts_with("HTTP/1.1 200 ")) << asset;
  EXPECT_NE(asset.find("\r\nConnection: close\r\n"), std::string::npos) << asset;
  EXPECT_TRUE(testing::closed_by_server(held[0]));

  testing::UniqueFd person = testing::connect_to(port);
  const std::string session_request =
      "GET /api/session HTTP/1.1\r\n" + host + "Authorization: Bearer " + token + "\r\n";
  testing::send_text(person, session_request + "\r\n");
  const std::string served = testing::read_until(person, "\"workflow\"");
  EXPECT_TRUE(served.starts_with("HTTP/1.1 200 ")) << served;
  EXPECT_EQ(served.find("Connection: close"), std::string::npos) << served;
  // Kept: a second request on the same connection is answered too.
  testing::send_text(person, session_request + "Connection: close\r\n\r\n");
  const std::string again = testing::read_to_end(person);
  EXPECT_NE(again.find("HTTP/1.1 200 "), std::string::npos) << again;
}

// A page of another origin is served nothing, not only refused a decision: every request with an
// Origin must come from the console's own (docs/security.md, "HTTP access"), as every request to
// the MCP HTTP transport must.
TEST_F(WorkflowSubcommandTest, TheConsoleRefusesEveryRequestFromAnotherOrigin) {
  const std::string token(40, 'k');
  const std::uint16_t port = start_console(token);
  ASSERT_NE(port, 0);
  const std::string own = "127.0.0.1:" + std::to_string(port);
  const auto get = [&](const std::string& path, const std::string& origin) {
    testing::UniqueFd fd = testing::connect_to(port);
    testing::send_text(fd, "GET " + path + " HTTP/1.1\r\nHost: " + own +
                               "\r\nAuthorization: Bearer " + token + "\r\n" +
                               (origin.empty() ? "" : "Origin: " + origin + "\r\n") +
                               "Connection: close\r\n\r\n");
    return testing::read_to_end(fd);
  };
  for (const std::string& path :
       std::vector<std::string>{"/api/session", "/api/runs", "/", "/login?token=" + token}) {
    for (const std::string& origin : std::vector<std::string>{
             "http://evil.example", "http://localhost:" + std::to_string(port), "null"}) {
      const std::string refused = get(path, origin);
      EXPECT_TRUE(refused.starts_with("HTTP/1.1 403 ")) << path << " from " << origin << refused;
    }
    const std::string served = get(path, "http://" + own);
    EXPECT_TRUE(served.starts_with(path.starts_with("/login") ? "HTTP/1.1 303 " : "HTTP/1.1 200 "))
        << path << served;
    EXPECT_FALSE(get(path, "").starts_with("HTTP/1.1 403 ")) << path;
  }
}

// A phase's limits that lower maxToolCalls below the default concurrency (8) without naming
// maxToolConcurrency: the default follows, as `codemode run --limits` does. Before this the file
// was refused ("maxToolConcurrency cannot be greater than maxToolCalls") for a value its author
// never wrote. One written above the calls is still refused.
TEST_F(WorkflowSubcommandTest, APhasesDefaultConcurrencyFollowsALowerMaxToolCalls) {
  std::ifstream written(scratch_.file("workflow.json"));
  Json workflow_file = Json::parse(written);
  workflow_file["phases"][0]["limits"] = {{"maxToolCalls", 2}};
  std::ofstream(scratch_.file("workflow.json"), std::ios::trunc) << workflow_file.dump();
  testing::ProcessRun start =
      workflow("start", {"--input", R"({"skus":["ab","cde"],"percent":10})"});
  ASSERT_EQ(start.exit_code, 0) << start.err;
  const Json limits = line_of(start).at("pending").at(0).at("limits");
  EXPECT_EQ(limits.at("maxToolCalls"), 2);
  EXPECT_EQ(limits.at("maxToolConcurrency"), 2);

  workflow_file["phases"][0]["limits"] = {{"maxToolCalls", 2}, {"maxToolConcurrency", 3}};
  std::ofstream(scratch_.file("workflow.json"), std::ios::trunc) << workflow_file.dump();
  testing::ProcessRun refused = workflow("list");
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("maxToolConcurrency cannot be greater"), std::string::npos)
      << refused.err;
}

TEST_F(WorkflowSubcommandTest, ReportsUsageErrorsWithExitStatusTwo) {
  EXPECT_EQ(workflow("start", {"--input", "{not json"}).exit_code, 2);
  EXPECT_EQ(workflow("status", {"nope"}).exit_code, 1);
  std::ofstream(scratch_.file("broken.json")) << R"({"id":"x","version":"1","extra":1})";
  testing::ProcessRun broken =
      testing::run_process({CODEMODE_CLI_BINARY, "workflow", "list", scratch_.file("broken.json"),
                            "--store", "sqlite:" + scratch_.file("runs.db")},
                           "");
  EXPECT_EQ(broken.exit_code, 2);
  EXPECT_NE(broken.err.find("WORKFLOW"), std::string::npos);
  EXPECT_EQ(broken.err.find(scratch_.path().string()), std::string::npos) << "no host path";
  testing::ProcessRun help = testing::run_process({CODEMODE_CLI_BINARY, "workflow", "--help"}, "");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* command :
       {"start", "list", "status", "pending", "approve", "reject", "inspect", "worker"}) {
    EXPECT_NE(help.out.find(command), std::string::npos) << command;
  }
}

}  // namespace
}  // namespace codemode
