#include "sandbox/process/worker_execution.h"

#include <memory>
#include <utility>

#include "sandbox/process/worker_session.h"

namespace codemode::internal {

// The worker runs JavaScript, and TypeScript with its types erased (docs/programs.md); no
// built-in sandbox resolves imports.
bool runs_in_worker(const CodeProgram& program) {
  return program.manifest().at("approvedImports").empty();
}

SandboxResult execute_in_worker(const SandboxRequest& request, ToolBridge& tools,
                                std::stop_token stop,
                                const std::function<Result<WorkerProcess>()>& launch,
                                std::span<const std::string_view> layers,
                                std::int64_t stack_bytes) {
  if (!runs_in_worker(request.program)) {
    return SandboxResult::failure(SandboxFailureReason::kUnsupportedProgram);
  }
  if (stop.stop_requested()) return SandboxResult::failure(SandboxFailureReason::kSandboxError);
  Result<WorkerProcess> worker = launch();
  if (!worker.ok()) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
  std::unique_ptr<WorkerSession> session =
      WorkerSession::create(std::move(*worker), request, tools, layers, stack_bytes);
  if (!session) return SandboxResult::failure(SandboxFault::kWorkerStartFailed);
  return session->run(std::move(stop));
}

}  // namespace codemode::internal
