// The `codemode mcp --config FILE` document: downstream MCP servers to connect to over stdio,
// command tools (as `codemode run --tools` declares them, include/codemode/command_tool.h) and the
// policy (mcp_policy.h). docs/mcp.md documents the schema field by field:
//
//   {"servers": {"everything": {"command": "node", "args": ["dist/index.js", "stdio"],
//                               "env": {"LOG": "1"}, "cwd": "servers/everything",
//                               "timeoutMs": 30000, "exposeErrors": false}},
//    "tools": [{"id": "catalog.price", ...}],
//    "policy": {"hostCalls": 8, "quotaClasses": {"writes": {"cap": 2, "tools": ["memory.x"]}}},
//    "sandbox": {"type": "process", "isolation": "isolated"},
//    "repositories": {"roots": {"code": "/srv/code"}, "pages": 8, "snapshots": 2},
//    "http": {"connections": 256, "incompleteConnectionsPerAddress": 32}}
//
// Every member is optional; unknown members are refused anywhere, so a typo fails at start.
// Relative paths (a command with a "/", a cwd) are relative to the config file's directory.
//
// Thread-safety: plain values.
#ifndef CODEMODE_MCP_POLICY_MCP_CONFIG_H_
#define CODEMODE_MCP_POLICY_MCP_CONFIG_H_

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/sandbox_config.h"
#include "codemode/tool.h"

#include "mcp/policy/mcp_policy.h"
#include "mcp/policy/repositories_config.h"

namespace codemode::mcp {

// One downstream MCP server, started on first use as a child process speaking MCP over stdio.
struct DownstreamServerConfig {
  std::string name;               // ^[A-Za-z][A-Za-z0-9_-]{0,63}$; its tools are "<name>.<tool>"
  std::string path;               // command resolved to an absolute executable path
  std::vector<std::string> argv;  // argv[0] is the command as written, then args
  // "NAME=value": PATH=/usr/local/bin:/usr/bin:/bin, then the config's env (which may replace
  // PATH). Nothing of codemode's own environment is passed on.
  std::vector<std::string> env;
  std::string cwd;                            // absolute; empty: codemode's working directory
  std::chrono::milliseconds timeout{30'000};  // each request to it (initialize, tools/*)
  // Whether the text of this server's failed tool results may reach the caller. Off by default:
  // a downstream's error text can hold paths or secrets of the host.
  bool expose_errors = false;
};

// The `http` member: the connection caps of `--transport http` (HttpServerOptions
// max_connections and max_incomplete_per_peer); unset, McpHttpOptions' defaults hold.
struct HttpConnectionLimits {
  std::optional<std::size_t> connections;             // 1 .. kMaxHttpConnections
  std::optional<std::size_t> incomplete_per_address;  // 1 .. kMaxHttpConnections
};

struct McpConfig {
  std::vector<DownstreamServerConfig> servers;
  std::vector<Tool> tools;  // command tools
  McpPolicy policy;
  // Where code mode runs programs: by default, and for a process sandbox that names no
  // isolation, the isolated profile. Only "isolation": "process" runs without namespaces.
  SandboxConfig sandbox{ProcessAdapterOptions{.isolation = IsolationProfile::kIsolated}};
  // The repository tools, when the config has a `repositories` member; its page and snapshot
  // budgets are then policy.quota_classes "pages" and "snapshots".
  std::optional<RepositoriesConfig> repositories;
  HttpConnectionLimits http;
};

// Largest config file, in bytes.
inline constexpr std::size_t kMaxConfigBytes = 1u << 20;
inline constexpr std::size_t kMaxDownstreamServers = 32;
// Each HTTP connection has a thread and its buffers (a head, a body of up to 4 MiB).
inline constexpr std::size_t kMaxHttpConnections = 1024;

// Checks and loads a parsed config. `base_directory` (absolute) resolves relative paths.
// INVALID_CONFIG, rule "mcp_config", with a message naming the field
// ("servers.everything.command does not name an executable file.").
Result<McpConfig> load_mcp_config(const Json& config, const std::string& base_directory);

}  // namespace codemode::mcp

#endif  // CODEMODE_MCP_POLICY_MCP_CONFIG_H_
