// The config file's schema: every bad field fails at load, naming the field.
#include "mcp/policy/mcp_config.h"

#include <string>

#include <gtest/gtest.h>

namespace codemode::mcp {
namespace {

const std::string kCatalog = std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog";

Result<McpConfig> load(const char* text) { return load_mcp_config(Json::parse(text), kCatalog); }

std::string message_of(const char* text) {
  Result<McpConfig> config = load(text);
  EXPECT_FALSE(config.ok()) << text;
  if (config.ok()) return "";
  EXPECT_EQ(config.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(config.error().rule, "mcp_config");
  return config.error().message;
}

TEST(McpConfigTest, AnEmptyConfigHasTheDefaultPolicy) {
  Result<McpConfig> config = load("{}");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_TRUE(config->servers.empty());
  EXPECT_EQ(config->policy.host_calls, 16);
  EXPECT_EQ(config->policy.server_invocations, 4);
  EXPECT_EQ(config->policy.source_bytes, 32 * 1024);
}

// Code mode runs model-written code: the isolated profile unless the config says "process".
TEST(McpConfigTest, NoSandboxMeansTheProcessAdapterInTheIsolatedProfile) {
  Result<McpConfig> config = load("{}");
  ASSERT_TRUE(config.ok());
  const auto* process = std::get_if<ProcessAdapterOptions>(&config->sandbox.adapter);
  ASSERT_NE(process, nullptr);
  EXPECT_EQ(process->spawn, SpawnMode::kForkServer);
  EXPECT_EQ(process->isolation, IsolationProfile::kIsolated);
  EXPECT_EQ(process->engine, EngineProfile::kInterpreter);
}

TEST(McpConfigTest, AProcessSandboxIsIsolatedUnlessItSaysProcess) {
  for (const auto& [text, isolation] :
       {std::pair{R"({"sandbox":{"type":"process"}})", IsolationProfile::kIsolated},
        std::pair{R"({"sandbox":{"type":"process","spawn":"exec"}})", IsolationProfile::kIsolated},
        std::pair{R"({"sandbox":{"type":"process","isolation":"process"}})",
                  IsolationProfile::kProcess}}) {
    Result<McpConfig> config = load(text);
    ASSERT_TRUE(config.ok()) << text;
    const auto* process = std::get_if<ProcessAdapterOptions>(&config->sandbox.adapter);
    ASSERT_NE(process, nullptr) << text;
    EXPECT_EQ(process->isolation, isolation) << text;
  }
}

TEST(McpConfigTest, LoadsAServerWithArgsEnvCwdAndOptions) {
  Result<McpConfig> config = load(R"({"servers":{"shell":{"command":"sh","args":["-c","x"],
      "env":{"MODE":"1"},"cwd":".","timeoutMs":500,"exposeErrors":true}}})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  const DownstreamServerConfig& server = config->servers.at(0);
  EXPECT_EQ(server.name, "shell");
  EXPECT_TRUE(server.path.starts_with("/")) << server.path;
  EXPECT_EQ(server.argv, (std::vector<std::string>{"sh", "-c", "x"}));
  EXPECT_EQ(server.env, (std::vector<std::string>{"PATH=/usr/local/bin:/usr/bin:/bin", "MODE=1"}));
  EXPECT_EQ(server.cwd, kCatalog);
  EXPECT_EQ(server.timeout.count(), 500);
  EXPECT_TRUE(server.expose_errors);
}

TEST(McpConfigTest, AConfiguredPathReplacesTheDefault) {
  Result<McpConfig> config = load(R"({"servers":{"s":{"command":"sh","env":{"PATH":"/bin"}}}})");
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->servers[0].env, (std::vector<std::string>{"PATH=/bin"}));
}

TEST(McpConfigTest, LoadsCommandToolsRelativeToTheConfigDirectory) {
  Result<McpConfig> config = load(R"({"tools":[{"id":"catalog.price","version":"1",
      "description":"d","effects":"read","command":["./price.sh"]}]})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(config->tools.at(0).id(), "catalog.price");
}

TEST(McpConfigTest, UnknownTopLevelMemberFails) {
  EXPECT_NE(message_of(R"({"server":{}})").find("sandbox, repositories and http"),
            std::string::npos);
}

TEST(McpConfigTest, UnknownServerMemberFailsNamingTheServer) {
  EXPECT_EQ(message_of(R"({"servers":{"s":{"command":"sh","argz":[]}}})"),
            "servers.s must be an object with only the documented members.");
}

TEST(McpConfigTest, MissingCommandFails) {
  EXPECT_EQ(message_of(R"({"servers":{"s":{}}})"), "servers.s.command must be a string.");
}

TEST(McpConfigTest, ACommandThatIsNotExecutableFails) {
  EXPECT_EQ(message_of(R"({"servers":{"s":{"command":"./no-such-server"}}})"),
            "servers.s.command does not name an executable file.");
}

TEST(McpConfigTest, BadServerNamesFail) {
  EXPECT_NE(message_of(R"({"servers":{"a.b":{"command":"sh"}}})").find("server name"),
            std::string::npos);
  EXPECT_NE(message_of(R"({"servers":{"1a":{"command":"sh"}}})").find("server name"),
            std::string::npos);
}

TEST(McpConfigTest, BadArgsEnvCwdAndTimeoutFail) {
  EXPECT_EQ(message_of(R"({"servers":{"s":{"command":"sh","args":[1]}}})"),
            "servers.s.args entries must be strings without NUL.");
  EXPECT_EQ(message_of(R"({"servers":{"s":{"command":"sh","env":{"A-B":"x"}}}})"),
            "servers.s.env must map variable names to strings without NUL.");
  EXPECT_EQ(message_of(R"({"servers":{"s":{"command":"sh","cwd":"no-such-dir"}}})"),
            "servers.s.cwd does not name a directory.");
  EXPECT_EQ(message_of(R"({"servers":{"s":{"command":"sh","timeoutMs":0}}})"),
            "servers.s.timeoutMs must be an integer from 1 to 2147483647.");
  EXPECT_EQ(message_of(R"({"servers":{"s":{"command":"sh","exposeErrors":"yes"}}})"),
            "servers.s.exposeErrors must be true or false.");
}

TEST(McpConfigTest, ABadCommandToolFailsNamingItsField) {
  EXPECT_NE(message_of(R"({"tools":[{"id":"x"}]})").find("tools[0]"), std::string::npos);
}

TEST(McpConfigTest, APolicyBelowItsMaximumIsApplied) {
  Result<McpConfig> config = load(R"({"policy":{"hostCalls":3,"serverInvocations":16}})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(config->policy.host_calls, 3);
  EXPECT_EQ(config->policy.server_invocations, 16);
}

TEST(McpConfigTest, EveryBudgetAboveItsMaximumFailsAtStart) {
  for (const PolicyField& field : kPolicyFields) {
    const Json config{{"policy", {{std::string(field.name), field.maximum + 1}}}};
    Result<McpConfig> loaded = load_mcp_config(config, kCatalog);
    ASSERT_FALSE(loaded.ok()) << field.name;
    EXPECT_EQ(loaded.error().message, "policy." + std::string(field.name) +
                                          " exceeds its maximum of " +
                                          std::to_string(field.maximum) + ".");
  }
}

TEST(McpConfigTest, BudgetsBelowTheirMinimumOrNotIntegersFail) {
  EXPECT_EQ(message_of(R"({"policy":{"hostCalls":0}})"),
            "policy.hostCalls is below its minimum of 1.");
  EXPECT_EQ(message_of(R"({"policy":{"hostCalls":1.5}})"), "policy.hostCalls must be an integer.");
  EXPECT_EQ(message_of(R"({"policy":{"heapBytes":1024}})"),
            "policy.heapBytes is below its minimum of 1048576.");
  EXPECT_EQ(message_of(R"({"policy":{"hostCallz":1}})"),
            "policy.hostCallz is not one of the documented budgets.");
  // A name that is not a plain identifier is not echoed.
  EXPECT_EQ(message_of(R"({"policy":{"a b\n":1}})"),
            "policy: a field is not one of the documented budgets.");
}

TEST(McpConfigTest, CumulativeHostBytesBelowOneResultFails) {
  EXPECT_EQ(message_of(R"({"policy":{"hostResultBytes":1000,"cumulativeHostResultBytes":999}})"),
            "policy.cumulativeHostResultBytes is below policy.hostResultBytes.");
}

TEST(McpConfigTest, QuotaClassesNameDeclaredTools) {
  Result<McpConfig> config = load(R"({"servers":{"mem":{"command":"sh"}},
      "policy":{"quotaClasses":{"writes":{"cap":2,"tools":["mem.create_entities"]}}}})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  ASSERT_EQ(config->policy.quota_classes.size(), 1u);
  EXPECT_EQ(config->policy.quota_classes[0].cap, 2);
  EXPECT_EQ(message_of(R"({"policy":{"quotaClasses":{"writes":{"cap":2,"tools":["mem.x"]}}}})"),
            "policy.quotaClasses.writes.tools[0] names a tool the config does not declare.");
  EXPECT_EQ(message_of(R"({"servers":{"mem":{"command":"sh"}},
      "policy":{"quotaClasses":{"writes":{"cap":2,"tools":["mem.a","mem.a"]}}}})"),
            "policy.quotaClasses.writes.tools[1] names a tool already named.");
  EXPECT_EQ(message_of(R"({"servers":{"mem":{"command":"sh"}},
      "policy":{"quotaClasses":{"writes":{"cap":0,"tools":["mem.x"]}}}})"),
            "policy.quotaClasses.writes.cap must be an integer from 1 to 1024.");
}

// At config time only the server is known; once it listed its tools, a name it does not list fails.
TEST(McpConfigTest, QuotaClassesMustNameListedToolsOnceServersListed) {
  Result<McpConfig> config = load(R"({"servers":{"mem":{"command":"sh"}},
      "policy":{"quotaClasses":{"writes":{"cap":2,"tools":["mem.create","mem.creat"]}}}})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  const auto listed = [](std::string_view id) { return id == "mem.create"; };
  Status bound = check_quota_tools_listed(config->policy, listed);
  ASSERT_FALSE(bound.ok());
  EXPECT_EQ(bound.error().message,
            "policy.quotaClasses.writes.tools[1] names a tool its server does not list.");
  EXPECT_TRUE(check_quota_tools_listed(config->policy, [](std::string_view) { return true; }).ok());
}

TEST(McpConfigTest, AQuotaClassWhoseCodeWouldBeCodemodesOwnFails) {
  for (std::string_view code : kBuiltInLimitCodes) {
    const std::string name(code.substr(0, code.size() - std::string_view("_limit").size()));
    const Json config{{"servers", {{"mem", {{"command", "sh"}}}}},
                      {"policy", {{"quotaClasses", {{name, {{"cap", 1}, {"tools", {"mem.x"}}}}}}}}};
    Result<McpConfig> loaded = load_mcp_config(config, kCatalog);
    ASSERT_FALSE(loaded.ok()) << name;
    EXPECT_EQ(loaded.error().message, "policy.quotaClasses." + name + ": its code " + name +
                                          "_limit is one of codemode's own.");
  }
  EXPECT_TRUE(load(R"({"servers":{"mem":{"command":"sh"}},
      "policy":{"quotaClasses":{"pages":{"cap":8,"tools":["mem.x"]}}}})")
                  .ok());
}

TEST(McpConfigTest, ConsoleCaptureIsOffByDefaultAndASwitch) {
  Result<McpConfig> defaults = load("{}");
  ASSERT_TRUE(defaults.ok());
  EXPECT_FALSE(defaults->policy.console_logs);
  EXPECT_EQ(defaults->policy.console_log_bytes, 8192);
  Result<McpConfig> on = load(R"({"policy":{"consoleLogs":true,"consoleLogBytes":1000}})");
  ASSERT_TRUE(on.ok()) << on.error().message;
  EXPECT_TRUE(on->policy.console_logs);
  EXPECT_EQ(on->policy.console_log_bytes, 1000);
  EXPECT_EQ(message_of(R"({"policy":{"consoleLogs":1}})"),
            "policy.consoleLogs must be true or false.");
  EXPECT_EQ(message_of(R"({"policy":{"consoleLogBytes":63}})"),
            "policy.consoleLogBytes is below its minimum of 64.");
  EXPECT_EQ(describe_policy(on->policy).at("consoleLogs"), true);
}

// By default a call of unknown outcome ends the invocation (the specification's rule); an operator
// may leave it to the program, by name only.
TEST(McpConfigTest, UnknownOutcomesEndTheInvocationUnlessLeftToTheProgram) {
  Result<McpConfig> defaults = load("{}");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->policy.unknown_outcomes, UnknownOutcomes::kEndExecution);
  EXPECT_EQ(describe_policy(defaults->policy).at("unknownOutcomes"), "end_execution");
  Result<McpConfig> left = load(R"({"policy":{"unknownOutcomes":"leave_to_program"}})");
  ASSERT_TRUE(left.ok()) << left.error().message;
  EXPECT_EQ(left->policy.unknown_outcomes, UnknownOutcomes::kLeaveToProgram);
  EXPECT_EQ(describe_policy(left->policy).at("unknownOutcomes"), "leave_to_program");
  for (const char* text :
       {R"({"policy":{"unknownOutcomes":"leave"}})", R"({"policy":{"unknownOutcomes":true}})"}) {
    EXPECT_EQ(message_of(text),
              "policy.unknownOutcomes must be \"end_execution\" or \"leave_to_program\".");
  }
}

TEST(McpConfigTest, TheHostOperationWaitIsBoundedAndMayBeZero) {
  Result<McpConfig> defaults = load("{}");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->policy.server_host_operation_wait_millis, 2000);
  EXPECT_EQ(describe_policy(defaults->policy).at("serverHostOperationWaitMillis"), 2000);
  Result<McpConfig> at_once = load(R"({"policy":{"serverHostOperationWaitMillis":0}})");
  ASSERT_TRUE(at_once.ok()) << at_once.error().message;
  EXPECT_EQ(at_once->policy.server_host_operation_wait_millis, 0);
  EXPECT_EQ(message_of(R"({"policy":{"serverHostOperationWaitMillis":-1}})"),
            "policy.serverHostOperationWaitMillis is below its minimum of 0.");
}

TEST(McpConfigTest, HttpConnectionCapsAreOptionalAndBounded) {
  Result<McpConfig> defaults = load("{}");
  ASSERT_TRUE(defaults.ok());
  EXPECT_FALSE(defaults->http.connections.has_value());
  EXPECT_FALSE(defaults->http.incomplete_per_address.has_value());
  Result<McpConfig> set =
      load(R"({"http":{"connections":512,"incompleteConnectionsPerAddress":4}})");
  ASSERT_TRUE(set.ok()) << set.error().message;
  EXPECT_EQ(set->http.connections, 512u);
  EXPECT_EQ(set->http.incomplete_per_address, 4u);
  EXPECT_EQ(message_of(R"({"http":{"connections":0}})"),
            "http.connections must be an integer from 1 to 1024.");
  EXPECT_EQ(message_of(R"({"http":{"incompleteConnectionsPerAddress":1025}})"),
            "http.incompleteConnectionsPerAddress must be an integer from 1 to 1024.");
  EXPECT_EQ(message_of(R"({"http":{"connections":"8"}})"),
            "http.connections must be an integer from 1 to 1024.");
  EXPECT_EQ(message_of(R"({"http":{"idleMs":1}})"),
            "http must be an object with only connections and incompleteConnectionsPerAddress.");
}

}  // namespace
}  // namespace codemode::mcp
