#include "cli/mcp_subcommand.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <utility>
#include <variant>

#include <unistd.h>

#include "codemode/process_adapter.h"
#include "codemode/repository_tools.h"

#include "cli/cli_io.h"
#include "core/text/enum_names.h"
#include "http/serve_until_stopped.h"
#include "mcp/catalog/tool_results.h"
#include "mcp/code_tool/code_tool.h"
#include "mcp/downstream/downstream_tools.h"
#include "mcp/policy/mcp_config.h"
#include "mcp/policy/server_capacity.h"
#include "mcp/serve_http.h"
#include "mcp/serve_stdio.h"

namespace codemode::cli {
namespace {

constexpr internal::EnumNames<McpMode, 2> kModeNames{{
    {McpMode::kDirect, "direct"},
    {McpMode::kCode, "code"},
}};

constexpr internal::EnumNames<McpTransport, 2> kTransportNames{{
    {McpTransport::kStdio, "stdio"},
    {McpTransport::kHttp, "http"},
}};

// An option whose value is one of `names`, as --mode and --transport take: the value is checked
// against the names (the error and the help list them in the table's order), then stored.
template <typename Enum, std::size_t N>
CLI::Option* add_choice(CLI::App& app, const std::string& flag, Enum& value,
                        const internal::EnumNames<Enum, N>& names, const std::string& description) {
  std::vector<std::string> allowed;
  for (const internal::EnumName<Enum>& row : names) allowed.emplace_back(row.name);
  return app
      .add_option_function<std::string>(
          flag,
          [&value, &names](const std::string& text) {
            value = internal::value_of(names, text).value_or(value);
          },
          description)
      ->check(CLI::IsMember(allowed));
}

constexpr std::string_view kInstructions =
    "Each tool is a host capability; calls are checked against the tool's input schema and the "
    "server's policy. Failures come back as {code, message}.";

constexpr std::string_view kCodeInstructions =
    "Call the one `code` tool with a short async JavaScript function body that calls "
    "codemode.<namespace>.<method>(args) and returns only the JSON the task needs.";

Result<mcp::McpConfig> load_config(const McpArguments& arguments) {
  Result<std::string> text = read_file(arguments.config_path, mcp::kMaxConfigBytes, "--config");
  if (!text.ok()) return std::move(text).error();
  Result<Json> json = parse_json_argument(*text, mcp::kMaxConfigBytes, "--config");
  if (!json.ok()) return std::move(json).error();
  std::error_code error;
  const std::filesystem::path file = std::filesystem::absolute(arguments.config_path, error);
  return mcp::load_mcp_config(*json, file.parent_path().string());
}

Error server_error(const std::string& name, std::string_view why) {
  return Error::invalid_config("mcp_downstream", "servers." + name + " " + std::string(why));
}

// Starts each downstream server and adds its tools; a server that cannot be started or listed,
// or a tool name that collides, fails the start.
Status add_downstream_tools(const mcp::McpConfig& config, mcp::ToolCatalog& catalog,
                            std::size_t& skipped) {
  for (const mcp::DownstreamServerConfig& server : config.servers) {
    auto client = std::make_shared<mcp::DownstreamClient>(server);
    Result<mcp::DownstreamTools> tools = mcp::load_downstream_tools(client);
    if (!tools.ok())
      return server_error(server.name,
                          "could not be started and listed (" + tools.error().rule + ").");
    skipped += tools->skipped;
    for (const Tool& tool : tools->tools) {
      if (!catalog.add(tool, mcp::ToolOrigin::kDownstream).ok()) {
        return server_error(server.name, "lists a tool whose name is taken.");
      }
    }
  }
  return {};
}

// The repository tools of the config's `repositories` member; code mode reads files in the
// compact text format by default (docs/repositories.md, "Compact formats").
Status add_repository_tools(const mcp::McpConfig& config, bool code_mode,
                            mcp::ToolCatalog& catalog) {
  if (!config.repositories) return {};
  RepositoryToolsOptions options = config.repositories->tools;
  options.compact_defaults = code_mode;
  Result<RepositoryTools> tools = make_repository_tools(options);
  if (!tools.ok())
    return Error::invalid_config("mcp_config", "repositories." + tools.error().message);
  for (const Tool& tool : tools->tools) {
    if (!catalog.add(tool).ok()) {
      return Error::invalid_config(
          "mcp_config", "repositories: the tool " + tool.id() + " has the name of another tool.");
    }
  }
  return {};
}

Result<mcp::ToolCatalog> build_catalog(const mcp::McpConfig& config, bool code_mode,
                                       std::size_t& skipped) {
  mcp::ToolCatalog catalog;
  for (const Tool& tool : config.tools) {
    if (Status added = catalog.add(tool); !added.ok()) return std::move(added).error();
  }
  if (Status added = add_repository_tools(config, code_mode, catalog); !added.ok()) {
    return std::move(added).error();
  }
  if (Status added = add_downstream_tools(config, catalog, skipped); !added.ok()) {
    return std::move(added).error();
  }
  Status bound = mcp::check_quota_tools_listed(
      config.policy, [&catalog](std::string_view id) { return catalog.find(id) != nullptr; });
  if (!bound.ok()) return std::move(bound).error();
  return catalog;
}

// The HTTP options from the flags and the environment: the listen address, allowed origins, and
// the bearer token from CODEMODE_MCP_TOKEN, set even when empty (so that an empty one is refused,
// not taken for none). The token is never a flag: other users can read a command line
// (/proc/PID/cmdline), not an environment. For --transport http, refused before anything starts
// when the address is not loopback and there is no token (mcp::check_http_access).
Result<mcp::McpHttpOptions> http_options(const McpArguments& arguments) {
  mcp::McpHttpOptions options;
  if (Status parsed = http::parse_listen_address(arguments.listen, options.http); !parsed.ok()) {
    return std::move(parsed).error();
  }
  options.allowed_origins = arguments.allowed_origins;
  // NOLINTNEXTLINE(concurrency-mt-unsafe): before any thread
  if (const char* token = std::getenv("CODEMODE_MCP_TOKEN"); token != nullptr) {
    options.bearer_token = token;
  }
  if (arguments.transport == McpTransport::kHttp) {
    if (Status allowed = mcp::check_http_access(options); !allowed.ok()) {
      return std::move(allowed).error();
    }
  }
  return options;
}

// The effective configuration, without secrets: server names, tool names, the policy.
// `sandbox` is the code tool's adapter id ("" in direct mode, where no program runs).
void log_startup(const mcp::McpConfig& config, const mcp::ToolCatalog& catalog,
                 const McpArguments& arguments, std::size_t skipped, const std::string& sandbox) {
  Json servers = Json::array();
  for (const auto& server : config.servers) servers.push_back(server.name);
  Json tools = Json::array();
  for (const Tool& tool : catalog.tools()) tools.push_back(tool.id());
  const Json line{{"event", "mcp_server_started"},
                  {"mode", internal::name_of(kModeNames, arguments.mode)},
                  {"transport", internal::name_of(kTransportNames, arguments.transport)},
                  {"servers", servers},
                  {"tools", tools},
                  {"skippedTools", skipped},
                  {"sandbox", sandbox.empty() ? Json() : Json(sandbox)},
                  {"policy", mcp::describe_policy(config.policy)}};
  std::fputs((mcp::json_text(line) + "\n").c_str(), stderr);
}

// Why the config's sandbox cannot run here. For the isolated profile (code mode's default), what
// the kernel or its policy refuses, and the one explicit way to run without it.
Error unavailable_sandbox(const SandboxConfig& sandbox, const std::string& worker_path,
                          const std::string& id) {
  const auto* process = std::get_if<ProcessAdapterOptions>(&sandbox.adapter);
  if (process && process->isolation == IsolationProfile::kIsolated) {
    if (Status isolated = check_isolated_profile(worker_path); !isolated.ok()) {
      return Error::unsupported_profile(
          "sandbox_unavailable",
          isolated.error().message +
              " Nothing runs with less confinement unless the config's sandbox says "
              "\"isolation\": \"process\".");
    }
  }
  return Error::unsupported_profile("sandbox_unavailable",
                                    "The config's sandbox \"" + id +
                                        "\" is not available on this machine; nothing runs with "
                                        "less confinement.");
}

}  // namespace

CLI::App* add_mcp_subcommand(CLI::App& app, McpArguments& arguments) {
  CLI::App* mcp = app.add_subcommand(
      "mcp",
      "Serve the tools of a config file over the Model Context Protocol (MCP 2025-06-18 and "
      "2025-11-25). stdout carries protocol messages only; logs go to stderr. The config file "
      "(see docs/mcp.md) declares downstream MCP servers, command tools, the repository tools "
      "(docs/repositories.md), the policy and the sandbox code mode runs programs in (the "
      "isolated profile unless it says process, a protocol launch, Docker; where the isolated "
      "profile cannot run, the server refuses to start with UNSUPPORTED_PROFILE); an invalid file "
      "fails at start with one JSON line on stderr naming the field (exit 2).");
  mcp->add_option("--config", arguments.config_path, "The config file (JSON, docs/mcp.md).")
      ->required();
  add_choice(*mcp, "--mode", arguments.mode, kModeNames,
             "direct: one MCP tool per configured tool (default); code: one `code` tool "
             "that runs JavaScript calling them.");
  add_choice(*mcp, "--transport", arguments.transport, kTransportNames,
             "stdio (default), or http: MCP Streamable HTTP on --listen, endpoint /mcp. "
             "Requests need 'Authorization: Bearer <token>' when the environment variable "
             "CODEMODE_MCP_TOKEN is set (never a flag: command lines are readable by other "
             "users): 32 to 256 characters of A-Z a-z 0-9 . _ ~ -, required to listen on an "
             "address that is not loopback.");
  mcp->add_option("--worker", arguments.worker_path,
                  "The codemode-worker binary for --mode code (default: next to libcodemode).");
  mcp->add_option("--listen", arguments.listen,
                  "IPv4 HOST:PORT for --transport http (default 127.0.0.1:8080; port 0 picks a "
                  "free one, logged on stderr as mcp_http_listening). An address outside "
                  "127.0.0.0/8 (such as 0.0.0.0) is refused unless CODEMODE_MCP_TOKEN is set.");
  mcp->add_option("--allow-origin", arguments.allowed_origins,
                  "An Origin allowed besides the server's own, http://HOST:PORT as it is "
                  "reached (repeatable), e.g. https://app.example.com.");
  return mcp;
}

int run_mcp_server(const McpArguments& arguments) {
  if (arguments.transport == McpTransport::kHttp) {
    http::block_stop_signals();  // before any thread starts
  }
  Result<mcp::McpConfig> config = load_config(arguments);
  Result<mcp::McpHttpOptions> http = http_options(arguments);
  Status supported =
      !config.ok() ? Status(config.error()) : (http.ok() ? Status() : Status(http.error()));
  if (supported.ok()) {
    http->http.max_connections = config->http.connections.value_or(http->http.max_connections);
    http->http.max_incomplete_per_peer =
        config->http.incomplete_per_address.value_or(http->http.max_incomplete_per_peer);
  }
  std::size_t skipped = 0;
  Result<mcp::ToolCatalog> catalog =
      supported.ok() ? build_catalog(*config, arguments.mode == McpMode::kCode, skipped)
                     : Result<mcp::ToolCatalog>(supported.error());
  if (!catalog.ok()) {
    print_usage_error(catalog.error());
    return kExitUsageError;
  }
  // One capacity for the server: every session and the code tool draw on it.
  const std::shared_ptr<mcp::ServerCapacity> capacity = mcp::ServerCapacity::create(config->policy);
  std::shared_ptr<mcp::CodeTool> code_tool;
  std::string sandbox;
  if (arguments.mode == McpMode::kCode) {
    Result<std::shared_ptr<SandboxAdapter>> adapter =
        make_sandbox_adapter(config->sandbox, arguments.worker_path, config->policy.stack_bytes);
    if (adapter.ok()) {
      sandbox = (*adapter)->id();
      // A sandbox that cannot run here fails the start, not every later call.
      if (!(*adapter)->is_available()) {
        adapter = unavailable_sandbox(config->sandbox, arguments.worker_path, sandbox);
      }
    }
    Result<std::unique_ptr<mcp::CodeTool>> made =
        adapter.ok()
            ? mcp::CodeTool::create(*catalog, config->policy, std::move(*adapter), capacity)
            : Result<std::unique_ptr<mcp::CodeTool>>(adapter.error());
    if (!made.ok()) {
      print_usage_error(made.error());
      return kExitUsageError;
    }
    code_tool = std::move(*made);
  }
  log_startup(*config, *catalog, arguments, skipped, sandbox);
  mcp::McpServerOptions options{
      .catalog = std::move(*catalog),
      .code_tool = std::move(code_tool),
      .policy = config->policy,
      .capacity = capacity,
      .instructions =
          std::string(arguments.mode == McpMode::kCode ? kCodeInstructions : kInstructions)};
  if (arguments.transport == McpTransport::kStdio) {
    mcp::serve_stdio(std::move(options), STDIN_FILENO, STDOUT_FILENO);
    return kExitSucceeded;
  }
  Status served = mcp::serve_http(std::move(options), std::move(*http), [](std::uint16_t port) {
    const Json line{{"event", "mcp_http_listening"}, {"port", port}};
    std::fputs((mcp::json_text(line) + "\n").c_str(), stderr);
    std::fflush(stderr);
  });
  if (!served.ok()) {
    print_usage_error(served.error());
    return kExitUsageError;
  }
  return kExitSucceeded;
}

}  // namespace codemode::cli
