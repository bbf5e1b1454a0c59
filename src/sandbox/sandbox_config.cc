#include "codemode/sandbox_config.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "core/json/json_keys.h"
#include "core/process/command_path.h"
#include "core/text/enum_names.h"
#include "sandbox/docker/docker_adapter_options.h"

namespace codemode {
namespace {

using internal::only_keys;

constexpr std::size_t kMaxPublicKeyFileBytes = 4096;

Error sandbox_error(std::string message) {
  return Error::invalid_config("mcp_config", std::move(message));
}

constexpr internal::EnumNames<IsolationProfile, 2> kIsolationNames{{
    {IsolationProfile::kProcess, "process"},
    {IsolationProfile::kIsolated, "isolated"},
}};

constexpr internal::EnumNames<EngineProfile, 2> kEngineNames{{
    {EngineProfile::kInterpreter, "interpreter"},
    {EngineProfile::kJit, "jit"},
}};

constexpr internal::EnumNames<SpawnMode, 2> kSpawnNames{{
    {SpawnMode::kForkServer, "fork_server"},
    {SpawnMode::kExec, "exec"},
}};

constexpr internal::EnumNames<AdapterQualification, 2> kQualificationNames{{
    {AdapterQualification::kTest, "test"},
    {AdapterQualification::kProduction, "production"},
}};

constexpr internal::EnumNames<DockerSeccomp, 2> kSeccompNames{{
    {DockerSeccomp::kBuiltin, "builtin"},
    {DockerSeccomp::kDaemonDefault, "daemon_default"},
}};

// The member `name` of `sandbox` as one of `choices`; `fallback` when absent.
template <typename T, std::size_t N>
Result<T> parse_choice(const Json& sandbox, const char* name,
                       const internal::EnumNames<T, N>& choices, T fallback, const char* allowed) {
  if (!sandbox.contains(name)) return fallback;
  const Json& value = sandbox.at(name);
  if (value.is_string()) {
    if (std::optional<T> choice =
            internal::value_of(choices, value.get_ref<const std::string&>())) {
      return *choice;
    }
  }
  return sandbox_error(std::string("sandbox.") + name + " must be " + allowed + ".");
}

Result<IsolationProfile> parse_isolation(const Json& sandbox,
                                         IsolationProfile fallback = IsolationProfile::kProcess) {
  return parse_choice(sandbox, "isolation", kIsolationNames, fallback,
                      "\"process\" or \"isolated\"");
}

Result<EngineProfile> parse_engine(const Json& sandbox) {
  return parse_choice(sandbox, "engine", kEngineNames, EngineProfile::kInterpreter,
                      "\"interpreter\" or \"jit\"");
}

Result<ProcessAdapterOptions> parse_process(const Json& sandbox, IsolationProfile fallback) {
  if (!only_keys(sandbox, {"type", "isolation", "spawn", "engine"})) {
    return sandbox_error(
        "sandbox of type \"process\" takes only type, isolation, spawn and engine.");
  }
  Result<IsolationProfile> isolation = parse_isolation(sandbox, fallback);
  if (!isolation.ok()) return std::move(isolation).error();
  Result<EngineProfile> engine = parse_engine(sandbox);
  if (!engine.ok()) return std::move(engine).error();
  Result<SpawnMode> spawn = parse_choice(sandbox, "spawn", kSpawnNames, SpawnMode::kForkServer,
                                         "\"fork_server\" or \"exec\"");
  if (!spawn.ok()) return std::move(spawn).error();
  return ProcessAdapterOptions{.spawn = *spawn, .isolation = *isolation, .engine = *engine};
}

// A command: an array of strings whose first names an executable (resolved as a server's
// command is).
Result<std::vector<std::string>> parse_command(const Json& sandbox, const char* name,
                                               const std::string& base) {
  const std::string field = std::string("sandbox.") + name;
  const Json& value = sandbox.at(name);
  if (!value.is_array() || value.empty()) {
    return sandbox_error(field + " must be a nonempty array of strings.");
  }
  std::vector<std::string> argv;
  for (const Json& argument : value) {
    if (!argument.is_string())
      return sandbox_error(field + " must be a nonempty array of strings.");
    argv.push_back(argument.get<std::string>());
  }
  std::optional<std::filesystem::path> path =
      argv[0].empty() ? std::nullopt : internal::resolve_command_path(argv[0], base);
  if (!path) return sandbox_error(field + "[0] does not name an executable file.");
  argv[0] = path->string();
  return argv;
}

Result<std::vector<std::string>> parse_env(const Json& sandbox) {
  std::vector<std::string> env;
  if (!sandbox.contains("env")) return env;
  const Json& entries = sandbox.at("env");
  if (!entries.is_object()) return sandbox_error("sandbox.env must be an object of strings.");
  for (const auto& [name, value] : entries.items()) {
    if (!value.is_string()) return sandbox_error("sandbox.env must be an object of strings.");
    env.push_back(name + "=" + value.get<std::string>());
  }
  return env;
}

Result<ProtocolAdapterOptions> parse_protocol(const Json& sandbox, const std::string& base) {
  if (!only_keys(sandbox, {"type", "id", "version", "qualification", "launch", "terminate", "env",
                           "isolation", "engine"})) {
    return sandbox_error(
        "sandbox of type \"protocol\" takes only type, id, version, qualification, launch, "
        "terminate, env, isolation and engine.");
  }
  ProtocolAdapterOptions options;
  if (!sandbox.contains("id") || !sandbox.at("id").is_string()) {
    return sandbox_error("sandbox.id must be a string naming the sandbox.");
  }
  options.id = sandbox.at("id").get<std::string>();
  if (sandbox.contains("version")) {
    if (!sandbox.at("version").is_string())
      return sandbox_error("sandbox.version must be a string.");
    options.version = sandbox.at("version").get<std::string>();
  }
  Result<AdapterQualification> qualification =
      parse_choice(sandbox, "qualification", kQualificationNames, AdapterQualification::kTest,
                   "\"test\" or \"production\"");
  if (!qualification.ok()) return std::move(qualification).error();
  options.qualification = *qualification;
  if (!sandbox.contains("launch")) return sandbox_error("sandbox.launch is required.");
  Result<std::vector<std::string>> launch = parse_command(sandbox, "launch", base);
  if (!launch.ok()) return std::move(launch).error();
  options.launch = std::move(*launch);
  if (sandbox.contains("terminate")) {
    Result<std::vector<std::string>> terminate = parse_command(sandbox, "terminate", base);
    if (!terminate.ok()) return std::move(terminate).error();
    options.terminate = std::move(*terminate);
  }
  Result<std::vector<std::string>> env = parse_env(sandbox);
  if (!env.ok()) return std::move(env).error();
  options.environment = std::move(*env);
  Result<IsolationProfile> isolation = parse_isolation(sandbox);
  if (!isolation.ok()) return std::move(isolation).error();
  options.isolation = *isolation;
  Result<EngineProfile> engine = parse_engine(sandbox);
  if (!engine.ok()) return std::move(engine).error();
  options.engine = *engine;
  // The protocol adapter's own rules (lengths, names), checked now so a bad config fails at
  // start with the field named.
  Result<std::shared_ptr<SandboxAdapter>> checked = make_protocol_adapter(options);
  if (!checked.ok()) return sandbox_error("sandbox: " + checked.error().message);
  return options;
}

Result<std::string> string_member(const Json& sandbox, const char* name, bool required) {
  if (!sandbox.contains(name)) {
    if (required) return sandbox_error(std::string("sandbox.") + name + " is required.");
    return std::string();
  }
  if (!sandbox.at(name).is_string()) {
    return sandbox_error(std::string("sandbox.") + name + " must be a string.");
  }
  return sandbox.at(name).get<std::string>();
}

// The CI's public key the promotion must be signed by: a PEM file, relative to the config.
Result<std::string> read_public_key(const Json& sandbox, const std::string& base) {
  Result<std::string> name = string_member(sandbox, "promotionPublicKeyFile", true);
  if (!name.ok()) return std::move(name).error();
  std::filesystem::path path(*name);
  if (path.is_relative()) path = std::filesystem::path(base) / path;
  std::ifstream file(path, std::ios::binary);
  std::string key(kMaxPublicKeyFileBytes + 1, '\0');
  file.read(key.data(), static_cast<std::streamsize>(key.size()));
  if (file.bad() || file.gcount() == 0 ||
      static_cast<std::size_t>(file.gcount()) > kMaxPublicKeyFileBytes) {
    return sandbox_error(
        "sandbox.promotionPublicKeyFile must name a readable PEM file of at most "
        "4096 bytes.");
  }
  key.resize(static_cast<std::size_t>(file.gcount()));
  return key;
}

Result<DockerAdapterOptions> parse_docker(const Json& sandbox, const std::string& base) {
  if (!only_keys(sandbox, {"type", "dockerPath", "image", "provenance", "host", "runtime",
                           "seccomp", "promotion", "promotionPublicKeyFile", "maxScanAgeMs"})) {
    return sandbox_error(
        "sandbox of type \"docker\" takes only type, dockerPath, image, provenance, host, "
        "runtime, seccomp, promotion, promotionPublicKeyFile and maxScanAgeMs.");
  }
  DockerAdapterOptions options;
  for (auto [name, field, required] :
       {std::tuple{"dockerPath", &options.docker_path, true},
        std::tuple{"image", &options.image, true},
        std::tuple{"provenance", &options.provenance, true},
        std::tuple{"host", &options.host, false}, std::tuple{"runtime", &options.runtime, false}}) {
    Result<std::string> value = string_member(sandbox, name, required);
    if (!value.ok()) return std::move(value).error();
    *field = std::move(*value);
  }
  Result<DockerSeccomp> seccomp =
      parse_choice(sandbox, "seccomp", kSeccompNames, DockerSeccomp::kBuiltin,
                   "\"builtin\" or \"daemon_default\"");
  if (!seccomp.ok()) return std::move(seccomp).error();
  options.seccomp = *seccomp;
  if (sandbox.contains("maxScanAgeMs")) {
    const Json& age = sandbox.at("maxScanAgeMs");
    if (!age.is_number_integer()) return sandbox_error("sandbox.maxScanAgeMs must be an integer.");
    options.max_scan_age = std::chrono::milliseconds(age.get<std::int64_t>());
  }
  if (sandbox.contains("promotion")) {
    Result<std::string> text = serialize_json(sandbox.at("promotion"));
    if (!text.ok()) return sandbox_error("sandbox.promotion must be a promotion proof object.");
    Result<DockerPromotion> promotion = parse_docker_promotion(*text);
    if (!promotion.ok()) return sandbox_error("sandbox.promotion: " + promotion.error().message);
    options.promotion = std::move(*promotion);
    Result<std::string> key = read_public_key(sandbox, base);
    if (!key.ok()) return std::move(key).error();
    options.promotion_public_key = std::move(*key);
  } else if (sandbox.contains("promotionPublicKeyFile")) {
    return sandbox_error("sandbox.promotionPublicKeyFile goes with a promotion.");
  }
  // The adapter's own rules, checked now so a bad config fails at start with the field named
  // (the promotion's signature and age are checked when the adapter is made).
  if (Status valid = internal::check_docker_adapter_options(options); !valid.ok()) {
    return sandbox_error("sandbox: " + valid.error().message);
  }
  return options;
}

}  // namespace

Result<SandboxConfig> parse_sandbox_config(const Json& sandbox, const std::string& base_directory,
                                           IsolationProfile process_isolation) {
  if (!sandbox.is_object() || !sandbox.contains("type") || !sandbox.at("type").is_string()) {
    return sandbox_error(
        "sandbox must be an object whose type is \"process\", \"protocol\" or \"docker\".");
  }
  const std::string& type = sandbox.at("type").get_ref<const std::string&>();
  if (type == "process") {
    Result<ProcessAdapterOptions> process = parse_process(sandbox, process_isolation);
    if (!process.ok()) return std::move(process).error();
    return SandboxConfig{.adapter = std::move(*process)};
  }
  if (type == "protocol") {
    Result<ProtocolAdapterOptions> protocol = parse_protocol(sandbox, base_directory);
    if (!protocol.ok()) return std::move(protocol).error();
    return SandboxConfig{.adapter = std::move(*protocol)};
  }
  if (type == "docker") {
    Result<DockerAdapterOptions> docker = parse_docker(sandbox, base_directory);
    if (!docker.ok()) return std::move(docker).error();
    return SandboxConfig{.adapter = std::move(*docker)};
  }
  return sandbox_error("sandbox.type must be \"process\", \"protocol\" or \"docker\".");
}

Result<std::shared_ptr<SandboxAdapter>> make_sandbox_adapter(SandboxConfig config,
                                                             std::string worker_path,
                                                             std::int64_t stack_bytes) {
  if (auto* process = std::get_if<ProcessAdapterOptions>(&config.adapter)) {
    process->worker_path = std::move(worker_path);
    process->stack_bytes = stack_bytes;
    return make_process_adapter(std::move(*process));
  }
  if (auto* docker = std::get_if<DockerAdapterOptions>(&config.adapter)) {
    docker->stack_bytes = stack_bytes;
    if (docker->promotion) return make_promoted_docker_adapter(std::move(*docker));
    return make_docker_adapter(std::move(*docker));
  }
  auto& protocol = std::get<ProtocolAdapterOptions>(config.adapter);
  protocol.stack_bytes = stack_bytes;
  return make_protocol_adapter(std::move(protocol));
}

}  // namespace codemode
