// The process adapter's construction over any WorkerLauncher: the public make_process_adapter
// (include/codemode/process_adapter.h) passes the launcher of options.spawn (the fork server by
// default, exec on request) and the real availability probe; tests pass launchers of test doubles
// (scripted fake workers) to exercise the protocol checks.
#ifndef CODEMODE_SANDBOX_PROCESS_PROCESS_ADAPTER_IMPL_H_
#define CODEMODE_SANDBOX_PROCESS_PROCESS_ADAPTER_IMPL_H_

#include <functional>
#include <memory>
#include <string>

#include "codemode/process_adapter.h"

#include "sandbox/process/worker_launcher.h"

namespace codemode::internal {

// "codemode.process" (or "codemode.isolated" for that profile; ".jit" appended for the JIT
// engine profile) 1.0.0, production. `is_available` is asked once; its answer is cached. The
// worker's confined frame must name the layers of `isolation` and `engine` (frame_format.h).
// REQUIRES: launcher and is_available are set.
std::shared_ptr<SandboxAdapter> make_process_adapter_with(
    std::unique_ptr<WorkerLauncher> launcher, std::function<bool()> is_available,
    IsolationProfile isolation = IsolationProfile::kProcess,
    EngineProfile engine = EngineProfile::kInterpreter,
    std::int64_t stack_bytes = kMaxEngineStackBytes);

// make_process_adapter with the availability probe replaced (tests: a kernel that refuses the
// namespaces is simulated by a probe that answers false).
std::shared_ptr<SandboxAdapter> make_process_adapter_probed_by(ProcessAdapterOptions options,
                                                               std::function<bool()> is_available);

// The worker make_process_adapter runs for ProcessAdapterOptions::worker_path `requested`: the
// default worker when empty, made absolute against the current directory.
std::string absolute_worker_path(const std::string& requested);

// The real availability probe of make_process_adapter for `options` (worker_path absolute).
bool process_adapter_available(const ProcessAdapterOptions& options);

// Whether the kernel accepts seccomp filters: seccomp(SECCOMP_SET_MODE_FILTER) with a null
// program fails with EFAULT where filters exist and EINVAL where they do not (the probe Chromium's
// sandbox uses). Nothing is installed either way.
bool kernel_supports_seccomp_filters();

// Whether `path` runs: `path --probe` (with --jit for the JIT engine profile) exits 0 within a few
// seconds. It fails when the dynamic loader cannot find SpiderMonkey (libmozjs-102), the binary
// is not a worker, or it does not know the flag.
bool worker_runs(const std::string& path, EngineProfile engine = EngineProfile::kInterpreter);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_PROCESS_ADAPTER_IMPL_H_
