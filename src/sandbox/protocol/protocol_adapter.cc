// The protocol adapter (include/codemode/protocol_adapter.h): each execution's worker is started
// by the host's own launch command; the session with it is the process adapter's.
#include "codemode/protocol_adapter.h"

#include <stop_token>
#include <string>
#include <utility>

#include "core/process/command_path.h"
#include "protocol/frame_format.h"
#include "sandbox/protocol/launched_worker.h"
#include "sandbox/protocol/protocol_adapter_options.h"

namespace codemode {
namespace internal {
namespace {

class ProtocolAdapter final : public SandboxAdapter {
 public:
  explicit ProtocolAdapter(ProtocolAdapterOptions options) : options_(std::move(options)) {}

  std::string id() const override { return options_.id; }
  std::string version() const override { return options_.version; }
  AdapterQualification qualification() const override { return options_.qualification; }

  bool is_available() override {
    if (options_.is_available) return options_.is_available();
    return is_executable_file(options_.launch[0]);
  }

  SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                        std::stop_token stop) override {
    const std::string sandbox_name = new_sandbox_name();
    if (sandbox_name.empty()) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
    const WorkerCommands commands{.launch = with_sandbox_name(options_.launch, sandbox_name),
                                  .terminate = with_sandbox_name(options_.terminate, sandbox_name),
                                  .environment = options_.environment};
    return execute_launched_worker(request, tools, std::move(stop), commands,
                                   confinement_layers(options_.isolation, options_.engine),
                                   options_.stack_bytes);
  }

 private:
  const ProtocolAdapterOptions options_;
};

}  // namespace
}  // namespace internal

Result<std::shared_ptr<SandboxAdapter>> make_protocol_adapter(ProtocolAdapterOptions options) {
  if (Status valid = internal::check_protocol_adapter_options(options); !valid.ok()) {
    return std::move(valid).error();
  }
  return std::shared_ptr<SandboxAdapter>(
      std::make_shared<internal::ProtocolAdapter>(std::move(options)));
}

}  // namespace codemode
