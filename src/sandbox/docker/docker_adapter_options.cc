#include "sandbox/docker/docker_adapter_options.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "core/text/identifiers.h"
#include "sandbox/docker/promotion_statement.h"

namespace codemode::internal {
namespace {

constexpr std::string_view kUnixPrefix = "unix:///";
constexpr std::string_view kPipePrefix = "npipe:////./pipe/";
constexpr std::size_t kMaxSocketPathChars = 4096;
constexpr std::size_t kMaxPipeNameChars = 256;
constexpr std::size_t kMaxRuntimeChars = 64;
constexpr std::size_t kMaxContainerNameChars = 128;

Error docker_option_error(std::string message) {
  return Error::invalid_config(rules::kDockerAdapterOptions, std::move(message));
}

// ^(?:unix:///[^\s,]{1,4096}|npipe:////\./pipe/[A-Za-z0-9._-]{1,256})$: a local socket, nothing
// that could be read as another flag or a remote daemon.
bool is_local_host(std::string_view host) {
  if (host.starts_with(kUnixPrefix)) {
    const std::string_view path = host.substr(kUnixPrefix.size());
    const auto space_or_comma = [](char c) {
      return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
             c == ',' || c == '\0';
    };
    return !path.empty() && path.size() <= kMaxSocketPathChars &&
           std::none_of(path.begin(), path.end(), space_or_comma);
  }
  if (host.starts_with(kPipePrefix)) {
    const std::string_view name = host.substr(kPipePrefix.size());
    return !name.empty() && name.size() <= kMaxPipeNameChars &&
           std::all_of(name.begin(), name.end(), [](char c) {
             return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' ||
                    c == '-';
           });
  }
  return false;
}

std::vector<std::string> with_host(const DockerAdapterOptions& options) {
  if (options.host.empty()) return {};
  return {"--host", options.host};
}

}  // namespace

Status check_docker_adapter_options(const DockerAdapterOptions& options) {
  if (options.docker_path.empty() || options.docker_path[0] != '/' ||
      options.docker_path.find('\0') != std::string::npos) {
    return docker_option_error("docker_path must be an absolute path to the docker CLI.");
  }
  if (!is_sha256_digest(options.image)) {
    return docker_option_error(
        "image must be an exact local image id: sha256: and 64 lowercase hex digits.");
  }
  if (!is_sha256_digest(options.provenance)) {
    return docker_option_error(
        "provenance must be the SPDX document's digest: sha256: and 64 lowercase hex digits.");
  }
  if (!options.host.empty() && !is_local_host(options.host)) {
    return docker_option_error(
        "host must be a local daemon socket: unix:///<path> or npipe:////./pipe/<name>.");
  }
  if (!options.runtime.empty() && !is_plain_name(options.runtime, kMaxRuntimeChars, "._-")) {
    return docker_option_error("runtime must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$.");
  }
  if (options.seccomp != DockerSeccomp::kBuiltin &&
      options.seccomp != DockerSeccomp::kDaemonDefault) {
    return docker_option_error("seccomp must be kBuiltin or kDaemonDefault.");
  }
  if (options.max_scan_age < std::chrono::milliseconds(1) ||
      options.max_scan_age > kMaxMaxScanAge) {
    return docker_option_error(
        "max_scan_age must be from 1 ms to 7 days (maxScanAgeMs 1..604800000).");
  }
  if (options.stack_bytes < kMinEngineStackBytes || options.stack_bytes > kMaxEngineStackBytes) {
    return docker_option_error("stack_bytes must be from 64 KiB to 6 MiB.");
  }
  return Status();
}

bool is_container_name(std::string_view name) {
  return is_plain_name(name, kMaxContainerNameChars, "_.-");
}

std::int64_t container_memory_bytes(std::int64_t memory_bytes) {
  return std::min(kMaxContainerMemoryBytes, memory_bytes + kContainerMemoryOverheadBytes);
}

std::vector<std::string> docker_run_arguments(const DockerAdapterOptions& options,
                                              std::string_view name, const CodeLimits& limits) {
  const std::string memory = std::to_string(container_memory_bytes(limits.memory_bytes)) + "b";
  const std::string scratch =
      "/tmp:rw,noexec,nosuid,nodev,size=" + std::to_string(limits.scratch_bytes);
  std::vector<std::string> arguments = with_host(options);
  const auto add = [&arguments](std::initializer_list<std::string_view> more) {
    for (std::string_view argument : more) arguments.emplace_back(argument);
  };
  add({"run", "--rm", "--interactive", "--pull=never", "--name", name, "--network=none",
       "--read-only", "--cap-drop=ALL", "--security-opt=no-new-privileges=true"});
  if (options.seccomp == DockerSeccomp::kBuiltin) add({"--security-opt=seccomp=builtin"});
  add({"--pids-limit=16", "--ulimit=nofile=64:64", "--cpus=1", "--memory", memory, "--memory-swap",
       memory, "--user=65532:65532", "--ipc=none", "--log-driver=none", "--tmpfs", scratch});
  if (!options.runtime.empty()) arguments.push_back("--runtime=" + options.runtime);
  arguments.push_back(options.image);
  return arguments;
}

std::vector<std::string> docker_remove_arguments(const DockerAdapterOptions& options,
                                                 std::string_view name) {
  std::vector<std::string> arguments = with_host(options);
  arguments.insert(arguments.end(), {"rm", "--force", std::string(name)});
  return arguments;
}

std::vector<std::string> docker_info_arguments(const DockerAdapterOptions& options) {
  std::vector<std::string> arguments = with_host(options);
  arguments.insert(arguments.end(), {"info", "--format", "{{json .SecurityOptions}}"});
  return arguments;
}

std::vector<std::string> docker_inspect_arguments(const DockerAdapterOptions& options) {
  std::vector<std::string> arguments = with_host(options);
  arguments.insert(arguments.end(), {"image", "inspect", "--format", "{{json .}}", options.image});
  return arguments;
}

}  // namespace codemode::internal
