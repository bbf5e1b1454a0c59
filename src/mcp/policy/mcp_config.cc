#include "mcp/policy/mcp_config.h"

#include <filesystem>
#include <initializer_list>
#include <regex>
#include <utility>

#include "codemode/command_tool.h"

#include "core/json/json_keys.h"
#include "core/process/command_path.h"

namespace codemode::mcp {
namespace {

constexpr std::string_view kDownstreamPath = "PATH=/usr/local/bin:/usr/bin:/bin";
constexpr std::size_t kMaxArguments = 1024;
constexpr std::size_t kMaxEnvEntries = 256;
constexpr std::int64_t kMaxTimeoutMillis = 2'147'483'647;

Error config_error(std::string message) {
  return Error::invalid_config("mcp_config", std::move(message));
}

using internal::only_keys;

bool is_plain_string(const Json& value) {
  return value.is_string() && value.get_ref<const std::string&>().find('\0') == std::string::npos;
}

Status parse_arguments(const Json& server, const std::string& field,
                       DownstreamServerConfig& config) {
  if (!server.contains("args")) return {};
  const Json& args = server.at("args");
  if (!args.is_array() || args.size() > kMaxArguments) {
    return config_error(field + ".args must be an array of at most 1024 strings.");
  }
  for (const Json& argument : args) {
    if (!is_plain_string(argument)) {
      return config_error(field + ".args entries must be strings without NUL.");
    }
    config.argv.push_back(argument.get<std::string>());
  }
  return {};
}

Status parse_env(const Json& server, const std::string& field, DownstreamServerConfig& config) {
  static const std::regex kEnvName("[A-Za-z_][A-Za-z0-9_]{0,127}");
  config.env.push_back(std::string(kDownstreamPath));
  if (!server.contains("env")) return {};
  const Json& env = server.at("env");
  if (!env.is_object() || env.size() > kMaxEnvEntries) {
    return config_error(field + ".env must be an object of at most 256 strings.");
  }
  for (const auto& [name, value] : env.items()) {
    if (!std::regex_match(name, kEnvName) || !is_plain_string(value)) {
      return config_error(field + ".env must map variable names to strings without NUL.");
    }
    if (name == "PATH") config.env.erase(config.env.begin());
    config.env.push_back(name + "=" + value.get<std::string>());
  }
  return {};
}

Status parse_cwd(const Json& server, const std::string& field, const std::string& base,
                 DownstreamServerConfig& config) {
  if (!server.contains("cwd")) return {};
  if (!is_plain_string(server.at("cwd"))) return config_error(field + ".cwd must be a string.");
  std::error_code error;
  std::filesystem::path cwd = std::filesystem::path(base) / server.at("cwd").get<std::string>();
  cwd = std::filesystem::absolute(cwd, error).lexically_normal();
  if (!cwd.has_filename() && cwd != cwd.root_path()) cwd = cwd.parent_path();  // "dir/" -> "dir"
  if (error || !std::filesystem::is_directory(cwd, error)) {
    return config_error(field + ".cwd does not name a directory.");
  }
  config.cwd = cwd.string();
  return {};
}

Status parse_options(const Json& server, const std::string& field, DownstreamServerConfig& config) {
  if (server.contains("timeoutMs")) {
    const Json& timeout = server.at("timeoutMs");
    if (!timeout.is_number_integer() || timeout.get<std::int64_t>() < 1 ||
        timeout.get<std::int64_t>() > kMaxTimeoutMillis) {
      return config_error(field + ".timeoutMs must be an integer from 1 to 2147483647.");
    }
    config.timeout = std::chrono::milliseconds(timeout.get<std::int64_t>());
  }
  if (server.contains("exposeErrors")) {
    if (!server.at("exposeErrors").is_boolean()) {
      return config_error(field + ".exposeErrors must be true or false.");
    }
    config.expose_errors = server.at("exposeErrors").get<bool>();
  }
  return {};
}

Result<DownstreamServerConfig> parse_server(const std::string& name, const Json& server,
                                            const std::string& base) {
  static const std::regex kServerName("[A-Za-z][A-Za-z0-9_-]{0,63}");
  if (!std::regex_match(name, kServerName)) {
    return config_error("servers: a server name must match [A-Za-z][A-Za-z0-9_-]{0,63}.");
  }
  const std::string field = "servers." + name;
  if (!server.is_object() ||
      !only_keys(server, {"command", "args", "env", "cwd", "timeoutMs", "exposeErrors"})) {
    return config_error(field + " must be an object with only the documented members.");
  }
  if (!server.contains("command") || !is_plain_string(server.at("command"))) {
    return config_error(field + ".command must be a string.");
  }
  DownstreamServerConfig config{.name = name, .argv = {server.at("command").get<std::string>()}};
  std::optional<std::filesystem::path> path =
      config.argv[0].empty() ? std::nullopt : internal::resolve_command_path(config.argv[0], base);
  if (!path) return config_error(field + ".command does not name an executable file.");
  config.path = path->string();
  for (Status status :
       {parse_arguments(server, field, config), parse_env(server, field, config),
        parse_cwd(server, field, base, config), parse_options(server, field, config)}) {
    if (!status.ok()) return std::move(status).error();
  }
  return config;
}

Result<std::vector<DownstreamServerConfig>> parse_servers(const Json& config,
                                                          const std::string& base) {
  std::vector<DownstreamServerConfig> servers;
  if (!config.contains("servers")) return servers;
  const Json& entries = config.at("servers");
  if (!entries.is_object() || entries.size() > kMaxDownstreamServers) {
    return config_error("servers must be an object of at most 32 servers.");
  }
  for (const auto& [name, server] : entries.items()) {
    Result<DownstreamServerConfig> parsed = parse_server(name, server, base);
    if (!parsed.ok()) return std::move(parsed).error();
    servers.push_back(std::move(*parsed));
  }
  return servers;
}

Result<std::vector<Tool>> parse_tools(const Json& config, const std::string& base) {
  if (!config.contains("tools")) return std::vector<Tool>();
  Result<std::vector<Tool>> tools =
      load_command_tools(Json{{"tools", config.at("tools")}}, {.base_directory = base});
  if (!tools.ok()) return config_error(tools.error().message);
  return tools;
}

// A quota class may name a command tool, or any tool of a configured server: those are listed
// only once the server runs.
bool declares_tool(const McpConfig& config, std::string_view name) {
  for (const Tool& tool : config.tools) {
    if (tool.id() == name) return true;
  }
  for (const DownstreamServerConfig& server : config.servers) {
    if (name.size() > server.name.size() + 1 && name.starts_with(server.name) &&
        name[server.name.size()] == '.') {
      return true;
    }
  }
  if (config.repositories) {
    const std::string& space = config.repositories->tools.tool_namespace;
    if (name.size() > space.size() + 1 && name.starts_with(space) && name[space.size()] == '.') {
      const std::string_view operation = name.substr(space.size() + 1);
      if (operation == kSnapshotOperation) return true;
      for (std::string_view page : kPageOperations) {
        if (operation == page) return true;
      }
    }
  }
  return false;
}

// One of the `http` member's caps: an integer from 1 to kMaxHttpConnections, when present.
Status parse_connection_cap(const Json& http, std::string_view name,
                            std::optional<std::size_t>& cap) {
  if (!http.contains(name)) return {};
  const Json& value = http.at(name);
  if (!value.is_number_integer() || value.get<std::int64_t>() < 1 ||
      value.get<std::int64_t>() > static_cast<std::int64_t>(kMaxHttpConnections)) {
    return config_error("http." + std::string(name) + " must be an integer from 1 to " +
                        std::to_string(kMaxHttpConnections) + ".");
  }
  cap = static_cast<std::size_t>(value.get<std::int64_t>());
  return {};
}

Result<HttpConnectionLimits> parse_http(const Json& config) {
  HttpConnectionLimits limits;
  if (!config.contains("http")) return limits;
  const Json& http = config.at("http");
  if (!http.is_object() || !only_keys(http, {"connections", "incompleteConnectionsPerAddress"})) {
    return config_error(
        "http must be an object with only connections and incompleteConnectionsPerAddress.");
  }
  for (Status status : {parse_connection_cap(http, "connections", limits.connections),
                        parse_connection_cap(http, "incompleteConnectionsPerAddress",
                                             limits.incomplete_per_address)}) {
    if (!status.ok()) return std::move(status).error();
  }
  return limits;
}

}  // namespace

Result<McpConfig> load_mcp_config(const Json& config, const std::string& base_directory) {
  if (!config.is_object() ||
      !only_keys(config, {"servers", "tools", "policy", "sandbox", "repositories", "http"})) {
    return config_error(
        "The config must be an object with only servers, tools, policy, sandbox, repositories "
        "and http.");
  }
  McpConfig loaded;
  Result<std::vector<DownstreamServerConfig>> servers = parse_servers(config, base_directory);
  if (!servers.ok()) return std::move(servers).error();
  loaded.servers = std::move(*servers);
  Result<std::vector<Tool>> tools = parse_tools(config, base_directory);
  if (!tools.ok()) return std::move(tools).error();
  loaded.tools = std::move(*tools);
  if (config.contains("repositories")) {
    Result<RepositoriesConfig> repositories =
        parse_repositories_config(config.at("repositories"), base_directory);
    if (!repositories.ok()) return std::move(repositories).error();
    loaded.repositories = std::move(*repositories);
  }
  Result<McpPolicy> policy =
      parse_policy(config.value("policy", Json::object()),
                   [&loaded](std::string_view name) { return declares_tool(loaded, name); });
  if (!policy.ok()) return std::move(policy).error();
  loaded.policy = std::move(*policy);
  if (loaded.repositories) {
    for (QuotaClass& quota : repository_quota_classes(*loaded.repositories)) {
      for (const QuotaClass& declared : loaded.policy.quota_classes) {
        if (declared.name == quota.name) {
          return config_error("policy.quotaClasses." + quota.name +
                              " is the repositories member's own; set repositories." + quota.name +
                              " instead.");
        }
      }
      if (loaded.policy.quota_classes.size() >= kMaxQuotaClasses) {
        return config_error("policy.quotaClasses leaves no room for the repositories budgets.");
      }
      loaded.policy.quota_classes.push_back(std::move(quota));
    }
  }
  if (config.contains("sandbox")) {
    Result<SandboxConfig> sandbox =
        parse_sandbox_config(config.at("sandbox"), base_directory, IsolationProfile::kIsolated);
    if (!sandbox.ok()) return std::move(sandbox).error();
    loaded.sandbox = std::move(*sandbox);
  }
  Result<HttpConnectionLimits> http = parse_http(config);
  if (!http.ok()) return std::move(http).error();
  loaded.http = *http;
  return loaded;
}

}  // namespace codemode::mcp
