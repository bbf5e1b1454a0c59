#include "sandbox/docker/docker_image_check.h"

#include <chrono>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "codemode/json.h"

#include "core/process/command_runner.h"
#include "core/time/deadline_timer.h"
#include "sandbox/docker/docker_adapter_options.h"

namespace codemode::internal {
namespace {

constexpr auto kInspectTimeout = std::chrono::seconds(10);
constexpr std::size_t kInspectOutputBytes = 128u << 10;

}  // namespace

bool image_matches(std::string_view inspected, const DockerAdapterOptions& options) {
  Result<Json> image = parse_json(inspected, {.max_bytes = kInspectOutputBytes});
  if (!image.ok() || !image->is_object()) return false;
  const Json& id = image->value("Id", Json());
  if (!id.is_string() || id.get_ref<const std::string&>() != options.image) return false;
  const Json& config = image->value("Config", Json());
  if (!config.is_object()) return false;
  const Json& labels = config.value("Labels", Json());
  if (!labels.is_object()) return false;
  const Json& provenance = labels.value(kDockerProvenanceLabel, Json());
  return provenance.is_string() && provenance.get_ref<const std::string&>() == options.provenance;
}

namespace {

// `docker <arguments>` with kDockerEnvironment only; its stdout when it exited 0 in time.
std::optional<std::string> run_docker(const DockerAdapterOptions& options,
                                      std::vector<std::string> arguments) {
  std::vector<std::string> argv{options.docker_path};
  for (std::string& argument : arguments) argv.push_back(std::move(argument));
  std::stop_source expired;
  TimerHandle deadline = DeadlineTimer::schedule(DeadlineTimer::Clock::now() + kInspectTimeout,
                                                 [&expired] { expired.request_stop(); });
  CommandRun run =
      run_command({.path = options.docker_path, .argv = argv, .env = {kDockerEnvironment}}, "",
                  kInspectOutputBytes, expired.get_token());
  if (run.ending != CommandRun::Ending::kExitedZero) return std::nullopt;
  return std::move(run.stdout_text);
}

}  // namespace

bool daemon_applies_default_seccomp(std::string_view security_options) {
  Result<Json> list = parse_json(security_options, {.max_bytes = kInspectOutputBytes});
  if (!list.ok() || !list->is_array()) return false;
  for (const Json& entry : *list) {
    if (!entry.is_string()) continue;
    const std::string& text = entry.get_ref<const std::string&>();
    if (text == "name=seccomp,profile=default" || text == "name=seccomp,profile=builtin") {
      return true;
    }
  }
  return false;
}

bool local_image_matches(const DockerAdapterOptions& options) {
  if (options.seccomp == DockerSeccomp::kDaemonDefault) {
    const std::optional<std::string> security = run_docker(options, docker_info_arguments(options));
    if (!security || !daemon_applies_default_seccomp(*security)) return false;
  }
  const std::optional<std::string> image = run_docker(options, docker_inspect_arguments(options));
  return image && image_matches(*image, options);
}

}  // namespace codemode::internal
