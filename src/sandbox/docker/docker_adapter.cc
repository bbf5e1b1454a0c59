// The Docker adapter (include/codemode/docker_adapter.h): each execution's worker is a container
// started by `docker run`; the session with it is the process adapter's, over the CLI's stdio.
#include "codemode/docker_adapter.h"

#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "protocol/frame_format.h"
#include "sandbox/docker/docker_adapter_options.h"
#include "sandbox/docker/docker_image_check.h"
#include "sandbox/protocol/launched_worker.h"

namespace codemode {
namespace internal {
namespace {

constexpr char kDockerAdapterId[] = "codemode.docker";
constexpr char kDockerAdapterVersion[] = "1.0.0";

class DockerAdapter final : public SandboxAdapter {
 public:
  explicit DockerAdapter(DockerAdapterOptions options) : options_(std::move(options)) {}

  std::string id() const override { return kDockerAdapterId; }
  std::string version() const override { return kDockerAdapterVersion; }
  AdapterQualification qualification() const override { return AdapterQualification::kProduction; }

  bool is_available() override {
    if (options_.promotion &&
        !verify_docker_promotion(*options_.promotion,
                                 {.image = options_.image, .provenance = options_.provenance},
                                 options_.promotion_public_key, options_.max_scan_age)
             .ok()) {
      return false;
    }
    return local_image_matches(options_);
  }

  SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                        std::stop_token stop) override {
    const std::string name = new_sandbox_name();
    if (name.empty() || !is_container_name(name)) {
      return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
    }
    WorkerCommands commands{.launch = {options_.docker_path},
                            .terminate = {options_.docker_path},
                            .environment = {kDockerEnvironment}};
    for (std::string& argument : docker_run_arguments(options_, name, request.program.limits())) {
      commands.launch.push_back(std::move(argument));
    }
    for (std::string& argument : docker_remove_arguments(options_, name)) {
      commands.terminate.push_back(std::move(argument));
    }
    // The image's worker runs the process profile with the interpreter: the container is the
    // outer layer, the worker's own seccomp filter, rlimits and no-new-privs the inner one.
    return execute_launched_worker(
        request, tools, std::move(stop), commands,
        confinement_layers(IsolationProfile::kProcess, EngineProfile::kInterpreter),
        options_.stack_bytes);
  }

 private:
  const DockerAdapterOptions options_;
};

}  // namespace
}  // namespace internal

Result<std::shared_ptr<SandboxAdapter>> make_docker_adapter(DockerAdapterOptions options) {
  if (options.promotion || !options.promotion_public_key.empty()) {
    return Error::invalid_config(rules::kDockerAdapterOptions,
                                 "promotion is for make_promoted_docker_adapter.");
  }
  if (Status valid = internal::check_docker_adapter_options(options); !valid.ok()) {
    return std::move(valid).error();
  }
  return std::shared_ptr<SandboxAdapter>(
      std::make_shared<internal::DockerAdapter>(std::move(options)));
}

Result<std::shared_ptr<SandboxAdapter>> make_promoted_docker_adapter(DockerAdapterOptions options) {
  if (!options.promotion || options.promotion_public_key.empty()) {
    return Error::invalid_config(
        rules::kDockerAdapterOptions,
        "promotion and promotion_public_key are required by the promoted Docker adapter.");
  }
  if (Status valid = internal::check_docker_adapter_options(options); !valid.ok()) {
    return std::move(valid).error();
  }
  Result<DockerPromotionStatement> verified = verify_docker_promotion(
      *options.promotion, {.image = options.image, .provenance = options.provenance},
      options.promotion_public_key, options.max_scan_age);
  if (!verified.ok()) return std::move(verified).error();
  return std::shared_ptr<SandboxAdapter>(
      std::make_shared<internal::DockerAdapter>(std::move(options)));
}

}  // namespace codemode
