// Command tools (include/codemode/command_tool.h): loading TOOLS.json, field by field, and what a
// call does with the command's process: input on stdin, stdout as output, failures, the output
// cap, the timeout and cancellation, and nothing left behind.
#include "codemode/command_tool.h"

#include <chrono>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "codemode/broker.h"

#include "support/descendants.h"
#include "support/process_support.h"
#include "support/timing.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;

Json one_tool(Json fields) {
  Json entry{{"id", "t.echo"},
             {"version", "1"},
             {"description", "A test tool."},
             {"effects", "none"},
             {"command", {"/bin/cat"}}};
  for (auto& [key, value] : fields.items()) {
    if (value.is_null()) {
      entry.erase(key);
    } else {
      entry[key] = value;
    }
  }
  return Json{{"tools", {entry}}};
}

Tool load_one(Json fields) {
  Result<std::vector<Tool>> tools = load_command_tools(one_tool(std::move(fields)));
  EXPECT_TRUE(tools.ok()) << tools.error().message;
  return tools.value().at(0);
}

std::string load_error(const Json& file, const CommandToolOptions& options = {}) {
  Result<std::vector<Tool>> tools = load_command_tools(file, options);
  if (tools.ok()) return "(loaded)";
  EXPECT_EQ(tools.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(tools.error().rule, "tools_file");
  return tools.error().message;
}

ToolOutcome call(const Tool& tool, const Json& input, std::stop_token stop = {}) {
  auto budget = Budget::create({.max_cost_micros = 0, .max_calls = 100}).value();
  std::vector<std::string> grants{"tool:" + tool.id()};
  if (tool.effects() != ToolEffects::kNone)
    grants.push_back("effect:" + std::string(to_string(tool.effects())));
  return invoke_tool(tool, input,
                     {.run_id = "run-1",
                      .call_id = "call-1",
                      .scope = {.principal_id = "local", .project_id = "demo"},
                      .stop_token = stop,
                      .permissions = {.allow = grants},
                      .budget = budget,
                      .max_input_bytes = 16u << 20,
                      .max_output_bytes = 16u << 20});
}

// sh -c: `jobs` times `job` in the background, each recorded in `record` ($0), then `tail`.
Json background_jobs(const std::string& record, int jobs, const std::string& job,
                     const std::string& tail) {
  std::string script;
  for (int i = 0; i < jobs; ++i) script += job + " & " + testing::kRecordLastJob + "; ";
  return Json{"/bin/sh", "-c", script + tail, record};
}

class CommandToolTest : public ::testing::Test {
 protected:
  void SetUp() override { children_before_ = testing::child_pids(); }
  void TearDown() override {
    EXPECT_EQ(testing::child_pids(), children_before_) << "a command process was left behind";
  }

 private:
  std::vector<pid_t> children_before_;  // earlier tests of this binary may keep a fork server
};

TEST_F(CommandToolTest, LoadsTheCatalogExample) {
  const std::string dir = std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog";
  std::ifstream file(dir + "/tools.json");
  const std::string text(std::istreambuf_iterator<char>(file), {});
  Result<std::vector<Tool>> tools =
      load_command_tools(parse_json(text).value(), {.base_directory = dir});
  ASSERT_TRUE(tools.ok()) << tools.error().message;
  ASSERT_EQ(tools->size(), 1u);
  const Tool& price = tools->at(0);
  EXPECT_EQ(price.id(), "catalog.price");
  EXPECT_EQ(price.effects(), ToolEffects::kRead);
  EXPECT_EQ(price.timeout(), 5000ms);
  const ToolOutcome outcome = call(price, {{"sku", "abcd"}});
  ASSERT_TRUE(outcome.ok()) << outcome.error->message;
  EXPECT_EQ(*outcome.output, Json({{"cents", 400}}));
}

TEST_F(CommandToolTest, OptionalFieldsHaveTheirDefaults) {
  const Tool tool = load_one({});
  EXPECT_EQ(tool.cost_micros(), 0);
  EXPECT_EQ(tool.timeout(), 30'000ms);
  EXPECT_TRUE(tool.capabilities().empty());
  EXPECT_EQ(tool.input_schema().document(), Json::object());
  EXPECT_EQ(tool.output_schema().document(), Json::object());
}

TEST_F(CommandToolTest, ReadsEveryDocumentedField) {
  const Tool tool = load_one({{"effects", "write"},
                              {"capabilities", {"billing"}},
                              {"costMicros", 25},
                              {"timeoutMs", 1500},
                              {"inputSchema", {{"type", "object"}}},
                              {"outputSchema", {{"type", "integer"}}}});
  EXPECT_EQ(tool.effects(), ToolEffects::kWrite);
  EXPECT_EQ(tool.capabilities(), std::vector<std::string>{"billing"});
  EXPECT_EQ(tool.cost_micros(), 25);
  EXPECT_EQ(tool.timeout(), 1500ms);
  EXPECT_EQ(tool.input_schema().document(), Json({{"type", "object"}}));
}

TEST_F(CommandToolTest, ErrorsNameTheFile) {
  for (const Json& file : {Json::array(), Json::object(), Json{{"tools", 1}},
                           Json{{"tools", Json::array()}, {"extra", 1}}}) {
    EXPECT_EQ(load_error(file),
              "The tools file must be {\"tools\": [...]} with at most 128 tools.");
  }
  EXPECT_EQ(load_error(Json{{"tools", Json::array({1})}}),
            "tools[0] must be an object of the documented fields only.");
  EXPECT_EQ(load_error(one_tool({{"inputschema", Json::object()}})),
            "tools[0] must be an object of the documented fields only.");
}

TEST_F(CommandToolTest, ErrorsNameTheField) {
  const std::vector<std::pair<Json, std::string>> cases{
      {{{"id", nullptr}}, "tools[0].id must be a string."},
      {{{"version", 1}}, "tools[0].version must be a string."},
      {{{"description", nullptr}}, "tools[0].description must be a string."},
      {{{"effects", "delete"}}, "tools[0].effects must be none, read, write or host."},
      {{{"costMicros", -1}}, "tools[0].costMicros must be an integer from 0 to 9007199254740991."},
      {{{"costMicros", 1.5}}, "tools[0].costMicros must be an integer from 0 to 9007199254740991."},
      {{{"timeoutMs", 0}}, "tools[0].timeoutMs must be an integer from 1 to 2147483647."},
      {{{"capabilities", "billing"}}, "tools[0].capabilities must be an array."},
      {{{"inputSchema", {{"type", 5}}}},
       "tools[0].inputSchema is not a supported draft 7 JSON Schema."},
      {{{"command", nullptr}}, "tools[0].command must be an array of 1 to 1024 strings."},
      {{{"command", Json::array()}}, "tools[0].command must be an array of 1 to 1024 strings."},
      {{{"command", {"/bin/cat", 1}}}, "tools[0].command entries must be strings without NUL."},
      {{{"command", {std::string("/bin/cat\0x", 10)}}},
       "tools[0].command entries must be strings without NUL."},
      {{{"command", {"/nonexistent/tool"}}},
       "tools[0].command[0] does not name an executable file."},
      {{{"command", {CODEMODE_SOURCE_DIR "/CMakeLists.txt"}}},
       "tools[0].command[0] does not name an executable file."},
      {{{"command", {"./price.sh"}}}, "tools[0].command[0] does not name an executable file."},
      {{{"command", {"no-such-command-anywhere"}}},
       "tools[0].command[0] does not name an executable file."},
  };
  for (const auto& [fields, message] : cases) {
    EXPECT_EQ(load_error(one_tool(fields)), message) << fields.dump();
  }
}

TEST_F(CommandToolTest, DefinitionErrorsAreReportedAsTheFilesWithTheTool) {
  const std::string message = load_error(one_tool({{"id", "1bad"}}));
  EXPECT_EQ(message.rfind("tools[0]: Tool definition field 'id'", 0), 0u) << message;
}

TEST_F(CommandToolTest, RepeatedIdIsRefused) {
  Json file = one_tool({});
  file["tools"].push_back(file["tools"][0]);
  EXPECT_EQ(load_error(file), "tools[1].id repeats the id of an earlier tool.");
}

TEST_F(CommandToolTest, ResolvesBareNamesThroughPathAndRelativePathsAgainstTheBase) {
  const Tool bare = load_one({{"command", {"cat"}}});
  EXPECT_EQ(*call(bare, {{"a", 1}}).output, Json({{"a", 1}}));
  Result<std::vector<Tool>> relative = load_command_tools(
      one_tool({{"command", {"./price.sh"}}}),
      {.base_directory = std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog"});
  ASSERT_TRUE(relative.ok()) << relative.error().message;
}

// What an approval binds of a command (ToolBinding): the argv with command[0] resolved, the
// executable, and every argument that names a regular file now; other arguments are only in argv.
TEST_F(CommandToolTest, BindsItsResolvedArgvAndTheFilesItNames) {
  const std::string readme = std::string(CODEMODE_SOURCE_DIR) + "/README.md";
  const std::string docs = std::string(CODEMODE_SOURCE_DIR) + "/docs";
  const Tool tool = load_one({{"command", {"cat", readme, "--not-a-file", docs}}});
  const ToolBinding& binding = tool.binding();
  const Json& command = binding.description.at("command");
  ASSERT_EQ(command.size(), 4u);
  const std::string executable = command.at(0).get<std::string>();
  EXPECT_TRUE(executable.starts_with("/") && executable.ends_with("/cat")) << executable;
  EXPECT_EQ(command.at(1), readme);
  EXPECT_EQ(command.at(2), "--not-a-file");
  EXPECT_EQ(command.at(3), docs);
  EXPECT_EQ(binding.files, (std::vector<std::string>{executable, readme}));
}

TEST_F(CommandToolTest, WritesTheInputAsJsonAndReadsTheOutput) {
  const Tool echo = load_one({});
  const Json input{{"text", "é\n\"quoted\""}, {"n", 1.5}, {"list", {1, nullptr, true}}};
  const ToolOutcome outcome = call(echo, input);
  ASSERT_TRUE(outcome.ok()) << outcome.error->message;
  EXPECT_EQ(*outcome.output, input);
}

TEST_F(CommandToolTest, CommandSeesOnlyAMinimalPath) {
  const Tool env = load_one({{"command",
                              {"/usr/bin/awk",
                               "BEGIN { printf \"[\"; s = \"\"; for (k in ENVIRON) "
                               "{ printf \"%s\\\"%s=%s\\\"\", s, k, ENVIRON[k]; "
                               "s = \",\" }; print \"]\" }"}}});
  const ToolOutcome outcome = call(env, nullptr);
  ASSERT_TRUE(outcome.ok()) << outcome.error->message;
  EXPECT_EQ(*outcome.output, Json({"PATH=/usr/local/bin:/usr/bin:/bin"}));
}

TEST_F(CommandToolTest, NonZeroExitFails) {
  const ToolOutcome outcome = call(load_one({{"command", {"/bin/sh", "-c", "echo 1; exit 3"}}}), 1);
  EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kToolFailed);
  ASSERT_TRUE(outcome.receipt.has_value());
  EXPECT_EQ(outcome.receipt->execution, ExecutionState::kFailed);
}

TEST_F(CommandToolTest, OutputThatIsNotJsonFails) {
  const ToolOutcome outcome = call(load_one({{"command", {"/bin/echo", "not json"}}}), 1);
  EXPECT_EQ(outcome.error->code, ErrorCode::kToolFailed);
}

TEST_F(CommandToolTest, EndlessOutputIsCutAtTheCapAndFails) {
  const auto start = std::chrono::steady_clock::now();
  const ToolOutcome outcome = call(load_one({{"command", {"/usr/bin/yes"}}}), 1);
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kToolFailed);  // not TIMEOUT after 30 s
  EXPECT_LT(std::chrono::steady_clock::now() - start, testing::slack(10s));
}

TEST_F(CommandToolTest, TimeoutKillsTheCommand) {
  const auto start = std::chrono::steady_clock::now();
  const ToolOutcome outcome =
      call(load_one({{"command", {"/bin/sleep", "30"}}, {"timeoutMs", 100}}), 1);
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kTimeout);
  EXPECT_LT(std::chrono::steady_clock::now() - start, testing::slack(3s));
}

TEST_F(CommandToolTest, CancellationKillsTheCommand) {
  std::stop_source caller;
  std::jthread canceller([&] {
    std::this_thread::sleep_for(100ms);
    caller.request_stop();
  });
  const ToolOutcome outcome =
      call(load_one({{"command", {"/bin/sleep", "30"}}}), 1, caller.get_token());
  EXPECT_EQ(outcome.status, OutcomeStatus::kCancelled);
}

TEST_F(CommandToolTest, TimeoutEndsEverythingTheCommandStarted) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string record = dir.file("jobs");
  const ToolOutcome outcome =
      // Long enough for the shell to start and record both jobs on a loaded machine under ASan.
      call(load_one({{"command", background_jobs(record, 2, "/bin/sleep 300", "wait")},
                     {"timeoutMs", 4000}}),
           1);
  const std::vector<testing::RecordedProcess> jobs = testing::recorded_processes(record);
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(5s)))
      << "a background job outlived the timeout";
  ASSERT_EQ(jobs.size(), 2u);
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kTimeout);
}

TEST_F(CommandToolTest, CancellationEndsEverythingTheCommandStarted) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string record = dir.file("jobs");
  std::stop_source caller;
  std::jthread canceller([&] {
    testing::wait_for_recorded(record, 2, testing::slack(5s));
    caller.request_stop();
  });
  const ToolOutcome outcome =
      call(load_one({{"command", background_jobs(record, 2, "/bin/sleep 300", "wait")}}), 1,
           caller.get_token());
  const std::vector<testing::RecordedProcess> jobs = testing::recorded_processes(record);
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(5s)))
      << "a background job outlived the cancellation";
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(outcome.status, OutcomeStatus::kCancelled);
}

// The call is over when the command exits: what it left in the background is killed, also when
// it succeeded.
TEST_F(CommandToolTest, AnExitEndsTheBackgroundJobsTheCommandLeft) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string record = dir.file("jobs");
  const ToolOutcome outcome = call(
      load_one({{"command", background_jobs(record, 1, "/bin/sleep 300 >/dev/null", "echo 1")}}),
      1);
  const std::vector<testing::RecordedProcess> jobs = testing::recorded_processes(record);
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(5s)))
      << "a background job outlived the call";
  ASSERT_EQ(jobs.size(), 1u);
  ASSERT_TRUE(outcome.ok()) << outcome.error->message;
  EXPECT_EQ(*outcome.output, 1);
}

// A background job that keeps stdout open does not hold the call until the timeout: once the
// command exits, its group is killed and stdout ends with what the pipe holds.
TEST_F(CommandToolTest, AnExitEndsTheCallWhileABackgroundJobHoldsStdout) {
  testing::ScratchDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string record = dir.file("jobs");
  const auto start = std::chrono::steady_clock::now();
  const ToolOutcome outcome =
      call(load_one({{"command", background_jobs(record, 1, "/bin/sleep 300", "echo 1")},
                     {"timeoutMs", 10'000}}),
           1);
  const auto took = std::chrono::steady_clock::now() - start;
  const std::vector<testing::RecordedProcess> jobs = testing::recorded_processes(record);
  EXPECT_TRUE(testing::ended_or_killed(jobs, testing::slack(5s)))
      << "a background job outlived the call";
  ASSERT_EQ(jobs.size(), 1u);
  ASSERT_TRUE(outcome.ok()) << outcome.error->message;
  EXPECT_EQ(*outcome.output, 1);
  EXPECT_LT(took, testing::slack(5s));
}

TEST_F(CommandToolTest, CommandThatIgnoresItsInputStillAnswers) {
  const Json big = std::string(1 << 20, 'x');  // far more than a pipe holds
  const ToolOutcome outcome = call(load_one({{"command", {"/bin/echo", "7"}}}), big);
  ASSERT_TRUE(outcome.ok()) << outcome.error->message;
  EXPECT_EQ(*outcome.output, 7);
}

TEST_F(CommandToolTest, WaitsForTheExitAfterStdoutCloses) {
  const auto start = std::chrono::steady_clock::now();
  const ToolOutcome outcome =
      call(load_one({{"command", {"/bin/sh", "-c", "echo 1; exec 1>&-; sleep 0.2; exit 4"}}}), 1);
  EXPECT_EQ(outcome.error->code, ErrorCode::kToolFailed);  // the exit status decides
  EXPECT_GE(std::chrono::steady_clock::now() - start, 200ms);
}

TEST_F(CommandToolTest, ManyCallsLeaveNoFdOrProcess) {
  const Tool echo = load_one({});
  const Tool failing = load_one({{"command", {"/bin/false"}}});
  const std::size_t fds = testing::open_fd_count();
  for (int i = 0; i < 100; ++i) {
    EXPECT_TRUE(call(echo, i).ok());
    EXPECT_FALSE(call(failing, i).ok());
  }
  EXPECT_EQ(testing::open_fd_count(), fds);
}

}  // namespace
}  // namespace codemode
