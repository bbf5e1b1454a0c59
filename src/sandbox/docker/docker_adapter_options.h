// The rules of DockerAdapterOptions (include/codemode/docker_adapter.h), checked once when the
// adapter is made, and the exact docker command lines each execution and availability check runs.
#ifndef CODEMODE_SANDBOX_DOCKER_DOCKER_ADAPTER_OPTIONS_H_
#define CODEMODE_SANDBOX_DOCKER_DOCKER_ADAPTER_OPTIONS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/docker_adapter.h"
#include "codemode/error.h"
#include "codemode/program.h"
#include "codemode/rules.h"

namespace codemode::internal {

// The docker CLI's whole environment. Even with none, the CLI finds the user's home through the
// password database and reads ~/.docker/config.json, whose current context could point it at a
// remote daemon and whose proxies it would pass into every container. A configuration directory
// under /dev/null can never exist, so the CLI always runs with its defaults.
inline constexpr char kDockerEnvironment[] = "DOCKER_CONFIG=/dev/null/codemode";
// 256 MiB for the worker's own memory beyond the program's heap, capped at 2.25 GiB in all.
inline constexpr std::int64_t kContainerMemoryOverheadBytes = 256ll << 20;
inline constexpr std::int64_t kMaxContainerMemoryBytes = 2'415'919'104;

// INVALID_CONFIG, rule "docker_adapter_options", naming the first option that breaks its rule
// (the promotion's own rules are docker_promotion.h's).
Status check_docker_adapter_options(const DockerAdapterOptions& options);

// ^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$
bool is_container_name(std::string_view name);

// min(kMaxContainerMemoryBytes, memory_bytes + kContainerMemoryOverheadBytes).
std::int64_t container_memory_bytes(std::int64_t memory_bytes);

// The arguments after the docker CLI's path for one execution's container `name` (a valid
// container name) under `limits`; the header comment of docker_adapter.h shows them.
std::vector<std::string> docker_run_arguments(const DockerAdapterOptions& options,
                                              std::string_view name, const CodeLimits& limits);

// `docker [--host H] rm --force <name>`, after the CLI's path.
std::vector<std::string> docker_remove_arguments(const DockerAdapterOptions& options,
                                                 std::string_view name);

// `docker [--host H] info --format {{json .SecurityOptions}}`, after the CLI's path.
std::vector<std::string> docker_info_arguments(const DockerAdapterOptions& options);

// `docker [--host H] image inspect --format {{json .}} <image>`, after the CLI's path.
std::vector<std::string> docker_inspect_arguments(const DockerAdapterOptions& options);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_DOCKER_DOCKER_ADAPTER_OPTIONS_H_
