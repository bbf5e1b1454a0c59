// The process adapter's construction over any WorkerLauncher: the public make_process_adapter
// (include/codemode/process_adapter.h) passes the exec launcher and the real availability probe;
// tests pass launchers of test doubles (scripted fake workers) to exercise the protocol checks.
#ifndef CODEMODE_SANDBOX_PROCESS_ADAPTER_H_
#define CODEMODE_SANDBOX_PROCESS_ADAPTER_H_

#include <functional>
#include <memory>
#include <string>

#include "codemode/process_adapter.h"
#include "sandbox/worker_launcher.h"

namespace codemode::internal {

// "codemode.process" 1.0.0, production. `is_available` is asked once; its answer is cached.
// REQUIRES: launcher and is_available are set.
std::shared_ptr<SandboxAdapter> make_process_adapter_with(std::unique_ptr<WorkerLauncher> launcher,
                                                          std::function<bool()> is_available);

// Whether the kernel accepts seccomp filters: seccomp(SECCOMP_SET_MODE_FILTER) with a null
// program fails with EFAULT where filters exist and EINVAL where they do not (the probe Chromium's
// sandbox uses). Nothing is installed either way.
bool kernel_supports_seccomp_filters();

// Whether `path` runs: `path --probe` exits 0 within a few seconds. It fails when the dynamic
// loader cannot find SpiderMonkey (libmozjs-102) or the binary is not a worker.
bool worker_runs(const std::string& path);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_PROCESS_ADAPTER_H_
