// The console runs the runtime's worker loop (console_server.h): what fails in it is shown on
// /api/runs and handed to on_worker_event, not dropped, once per way of failing; and the report
// clears when a pass succeeds again. Before this the console ran a loop of its own that dropped
// every error.
#include "console/console_server.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "support/http_test_client.h"
#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/timing.h"
#include "workflow/durable_fixture.h"
#include "workflow/flaky_store.h"
#include "workflow/worker_events.h"

namespace codemode::testing {
namespace {

using std::chrono::milliseconds;

const std::string kToken(40, 'k');

// GET /api/runs with the bearer token: the body, parsed.
Json runs_of(std::uint16_t port) {
  UniqueFd connection = connect_to(port);
  send_text(connection, "GET /api/runs HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                            "\r\nAuthorization: Bearer " + kToken +
                            "\r\nConnection: close\r\n\r\n");
  const std::string response = read_to_end(connection);
  EXPECT_TRUE(response.starts_with("HTTP/1.1 200 ")) << response;
  const std::size_t body = response.find("\r\n\r\n");
  return body == std::string::npos ? Json()
                                   : Json::parse(response.substr(body + 4), nullptr, false);
}

TEST(ConsoleServerTest, TheWorkerLoopsFailureIsShownAndHeardOnceNotDropped) {
  CODEMODE_REQUIRE_WORKER();
  ScratchDir scratch;
  ASSERT_TRUE(scratch.ok());
  const Tool write = external_write_tool(scratch.file("effects.log"));
  const DurableWorkflow workflow =
      define_durable_workflow(one_phase_options(write_program(write))).value();
  auto store = std::make_shared<FlakyStore>(
      open_workflow_store("sqlite:" + scratch.file("runs.db")).value());
  std::shared_ptr<WorkflowRuntime> runtime =
      WorkflowRuntime::create(runtime_options(store, worker_code_mode(write), workflow)).value();
  store->due_runs_down = true;
  WorkerEvents heard;
  auto console = console::ConsoleServer::start(
                     {.runtime = runtime,
                      .workflow_id = workflow.id(),
                      .person = "reviewer",
                      .credential = "reviewer-token",
                      .access_token = kToken,
                      .http = {.address = "127.0.0.1", .port = 0},
                      .poll_interval = milliseconds(5),
                      .work = true,
                      .worker = {.first_retry = milliseconds(1), .max_retry = milliseconds(4)},
                      .on_worker_event = [&](const WorkerEvent& event) { heard.add(event); }})
                     .value();
  ASSERT_TRUE(heard.wait_for(1, slack(std::chrono::seconds(10))));
  const auto retries = std::chrono::steady_clock::now() + slack(std::chrono::seconds(10));
  while (store->failures < 10 && std::chrono::steady_clock::now() < retries) {
    std::this_thread::sleep_for(milliseconds(5));
  }
  ASSERT_GE(store->failures, 10);

  const Json failing = runs_of(console->port()).at("worker");
  EXPECT_EQ(failing.at("duty"), "reissue_and_execute");
  ASSERT_TRUE(failing.at("failing").is_object()) << failing.dump();
  EXPECT_EQ(failing.at("failing").at("error").at("code"), "STORAGE_UNAVAILABLE");
  EXPECT_EQ(failing.at("failing").at("error").at("rule"), "store_io");
  EXPECT_GT(failing.at("failing").at("since").get<std::int64_t>(), 0);

  store->due_runs_down = false;
  ASSERT_TRUE(heard.wait_for(2, slack(std::chrono::seconds(10))));
  EXPECT_TRUE(runs_of(console->port()).at("worker").at("failing").is_null());
  EXPECT_EQ(heard.kinds(), (std::vector<WorkerEvent::Kind>{WorkerEvent::Kind::kFailing,
                                                           WorkerEvent::Kind::kRecovered}));
}

}  // namespace
}  // namespace codemode::testing
