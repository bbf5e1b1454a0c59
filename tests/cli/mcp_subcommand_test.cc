// `codemode mcp --transport http`, as a user starts it: who may listen where. Off loopback a bearer
// token is required, an empty or short token is refused, and no flag takes the token (a command
// line is readable by other users; the token comes from CODEMODE_MCP_TOKEN only). Each refusal is
// one JSON line on stderr naming its rule, exit status 2, before anything listens.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "support/process_support.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;

const std::string kConfig =
    std::string(CODEMODE_SOURCE_DIR) + "/tests/cli/data/empty_mcp_config.json";

// Runs `codemode mcp --config <an empty config> --transport http` with `arguments` and `env`. A
// server that starts serves until stopped: the run is then killed at the timeout (no exit code).
testing::ProcessRun codemode_mcp_http(std::vector<std::string> arguments,
                                      std::vector<std::string> env = {}) {
  arguments.insert(arguments.begin(),
                   {CODEMODE_CLI_BINARY, "mcp", "--config", kConfig, "--transport", "http"});
  return testing::run_process(arguments, "", 20s, std::move(env));
}

// The rule of the one JSON error line on stderr.
std::string refusal_rule(const testing::ProcessRun& run) {
  const Json line = Json::parse(run.err, nullptr, false);
  return line.is_discarded() ? "" : line["error"].value("rule", "");
}

TEST(McpSubcommandHttp, RefusesANonLoopbackAddressWithoutAToken) {
  const auto run = codemode_mcp_http({"--listen", "0.0.0.0:0"});
  EXPECT_EQ(run.exit_code, 2) << run.err;
  EXPECT_EQ(refusal_rule(run), "http_token_required") << run.err;
  EXPECT_NE(run.err.find("CODEMODE_MCP_TOKEN"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("mcp_http_listening"), std::string::npos) << run.err;
  EXPECT_EQ(run.out, "");
}

TEST(McpSubcommandHttp, RefusesAnEmptyToken) {
  for (const char* listen : {"127.0.0.1:0", "0.0.0.0:0"}) {
    const auto run = codemode_mcp_http({"--listen", listen}, {"CODEMODE_MCP_TOKEN="});
    EXPECT_EQ(run.exit_code, 2) << listen << run.err;
    EXPECT_EQ(refusal_rule(run), "http_token") << listen << run.err;
  }
}

// The token's form is the approvals console's (32 to 256 characters of A-Z a-z 0-9 . _ ~ -): a
// short one is refused on loopback too, where it was optional, before anything listens.
TEST(McpSubcommandHttp, RefusesATokenOutsideTheConsolesForm) {
  for (const char* token : {"s3cret-t0ken", "0123456789abcdef0123456789abcdef+/="}) {
    const auto run = codemode_mcp_http({"--listen", "127.0.0.1:0"},
                                       {std::string("CODEMODE_MCP_TOKEN=") + token});
    EXPECT_EQ(run.exit_code, 2) << token << run.err;
    EXPECT_EQ(refusal_rule(run), "http_token") << token << run.err;
    EXPECT_EQ(run.err.find(token), std::string::npos) << "no secret in it: " << run.err;
    EXPECT_EQ(run.err.find("mcp_http_listening"), std::string::npos) << run.err;
  }
}

TEST(McpSubcommandHttp, NoFlagTakesTheTokenAndHelpSaysWhereItComesFrom) {
  for (const char* flag : {"--token", "--bearer-token", "--auth-token"}) {
    const auto run = codemode_mcp_http({"--listen", "127.0.0.1:0", flag, "s3cret"});
    EXPECT_EQ(run.exit_code, 2) << flag << run.err;  // an unknown flag: a usage error
    EXPECT_EQ(run.err.find("mcp_http_listening"), std::string::npos) << run.err;
  }
  const auto help = testing::run_process({CODEMODE_CLI_BINARY, "mcp", "--help"}, "");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("CODEMODE_MCP_TOKEN"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("never a flag"), std::string::npos) << help.out;
}

}  // namespace
}  // namespace codemode
