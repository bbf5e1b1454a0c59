// The Docker adapter ("codemode.docker", production): runs each program in a fresh container of
// an exact local image that holds codemode-worker and nothing else (scripts/docker-image builds
// it, docs/docker.md), speaking codemode's frames over `docker run --interactive`'s stdin and
// stdout. The container adds a second, independent confinement around the worker's own (which
// the worker still applies inside: seccomp, rlimits, no-new-privs):
//
//   docker [--host H] run --rm --interactive --pull=never --name codemode-<32 hex>
//     --network=none --read-only --cap-drop=ALL --security-opt=no-new-privileges=true
//     [--security-opt=seccomp=builtin] --pids-limit=16 --ulimit=nofile=64:64 --cpus=1
//     --memory <M>b --memory-swap <M>b --user=65532:65532 --ipc=none --log-driver=none
//     --tmpfs /tmp:rw,noexec,nosuid,nodev,size=<scratchBytes> [--runtime=R] <image>
//   M = min(2.25 GiB, memoryBytes + 256 MiB)
// (seccomp=builtin unless `seccomp` says kDaemonDefault, for engines before Docker 23.0).
//
// Before every execution (is_available): the promotion, if any, is verified again
// (docker_promotion.h), then `docker [--host H] image inspect` (10 s, 128 KiB of output) must
// show exactly `image` as the id and `provenance` as the label
// "dev.codemode.sandbox.provenance"; with kDaemonDefault, `docker info` must also show that the
// daemon applies its default seccomp profile. Anything else, any failure: unavailable, so the
// execution fails UNSUPPORTED_PROFILE. Images are never pulled. However an execution ends (result,
// failure, timeout, cancellation), the docker CLI's process group is killed and `docker [--host H]
// rm --force <name>` runs (10 s) before execute returns: killing the CLI does not stop the
// container. The docker CLI runs with one variable only, DOCKER_CONFIG=/dev/null/codemode, a
// configuration directory that cannot exist, so no user configuration, context or proxy is read
// (DOCKER_HOST and proxies are never inherited). The worker in the container gets no variable
// of the host's, only Docker's own: PATH (the image sets none), HOSTNAME and HOME=/.
//
// What it reports is the process adapter's (process_adapter.h); a container the daemon kills at
// its memory limit is reported worker_exited.
//
// Ownership and thread-safety: the make functions return a shared adapter; execute may run on
// many threads at once, one container per execution.
#ifndef CODEMODE_DOCKER_ADAPTER_H_
#define CODEMODE_DOCKER_ADAPTER_H_

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "codemode/docker_promotion.h"
#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/process_adapter.h"
#include "codemode/sandbox.h"

namespace codemode {

inline constexpr char kDockerProvenanceLabel[] = "dev.codemode.sandbox.provenance";

// Which seccomp profile the container runs under; Docker's default profile either way.
enum class DockerSeccomp : int {
  // --security-opt=seccomp=builtin: the engine's built-in default profile, whatever the daemon's
  // configuration says. Docker Engine 23.0 and later.
  kBuiltin = 1,
  // No seccomp flag, for engines that do not know "builtin" (Debian 12's docker.io is 20.10):
  // the daemon's default profile, which the availability check requires `docker info` to report
  // as "name=seccomp,profile=default" (or builtin), so a daemon configured unconfined is refused.
  kDaemonDefault,
};

struct DockerAdapterOptions {
  // An absolute path to a trusted docker CLI; there is no PATH lookup.
  std::string docker_path;
  // ^sha256:[a-f0-9]{64}$: the exact local image id (`docker image inspect --format {{.Id}}`).
  std::string image;
  // ^sha256:[a-f0-9]{64}$: the digest of the SPDX document in the image, as its label says.
  std::string provenance;
  // Empty, or a local daemon socket: unix:///<path> (1..4096 characters, no space or comma) or
  // npipe:////./pipe/<name>. Never tcp:// or ssh://.
  std::string host;
  // Empty, or an OCI runtime name the daemon knows (^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$), such as
  // runsc (gVisor).
  std::string runtime;
  DockerSeccomp seccomp = DockerSeccomp::kBuiltin;
  // The promoted adapter's proof (make_promoted_docker_adapter), checked at construction and
  // before every availability check, against promotion_public_key: the PEM of the CI key the host
  // trusts, configured apart from the proof.
  std::optional<DockerPromotion> promotion;
  std::string promotion_public_key;
  // How old the promotion's scan may be: 1 ms .. 7 days.
  std::chrono::milliseconds max_scan_age = kDefaultMaxScanAge;
  // The engine's stack quota, sent in the start frame: kMinEngineStackBytes..kMaxEngineStackBytes.
  std::int64_t stack_bytes = kMaxEngineStackBytes;
};

// The plain Docker adapter: INVALID_CONFIG, rule "docker_adapter_options", naming the field, for
// an option that breaks its rule, or for a promotion (use make_promoted_docker_adapter).
CODEMODE_EXPORT Result<std::shared_ptr<SandboxAdapter>> make_docker_adapter(
    DockerAdapterOptions options);

// The promoted Docker adapter: the same, and the promotion and its pinned key are required and
// verified now (its codes, docker_promotion.h); later verifications make the adapter unavailable.
CODEMODE_EXPORT Result<std::shared_ptr<SandboxAdapter>> make_promoted_docker_adapter(
    DockerAdapterOptions options);

}  // namespace codemode

#endif  // CODEMODE_DOCKER_ADAPTER_H_
