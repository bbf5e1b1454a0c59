// `codemode mcp --config FILE`: an MCP server (stdio) exposing the config's tools, directly (one
// MCP tool each) or through one `code` tool (--mode code). Every call goes through the broker.
// docs/mcp.md documents the config file and the protocol surface.
#ifndef CODEMODE_CLI_MCP_SUBCOMMAND_H_
#define CODEMODE_CLI_MCP_SUBCOMMAND_H_

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace codemode::cli {

// --mode: one MCP tool per configured tool, or one `code` tool that runs JavaScript calling them.
enum class McpMode { kDirect, kCode };
// --transport: stdio lines, or MCP Streamable HTTP on --listen.
enum class McpTransport { kStdio, kHttp };

struct McpArguments {
  std::string config_path;
  McpMode mode = McpMode::kDirect;
  McpTransport transport = McpTransport::kStdio;
  std::string listen = "127.0.0.1:8080";
  std::vector<std::string> allowed_origins;  // --allow-origin
  std::string worker_path;                   // --worker; empty: codemode::default_worker_path()
};

// Adds the subcommand to `app`; parsing fills `arguments`, which must outlive `app`.
CLI::App* add_mcp_subcommand(CLI::App& app, McpArguments& arguments);

// Loads the config and serves until stdin ends. Returns the exit status: 0 after a clean end,
// 2 for a usage or config error (one JSON line on stderr, nothing on stdout).
int run_mcp_server(const McpArguments& arguments);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_MCP_SUBCOMMAND_H_
