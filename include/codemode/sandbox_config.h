// A sandbox described as JSON, and the adapter it names: the "sandbox" member of `codemode mcp`'s
// config, and the file of `codemode run --sandbox` and `codemode workflow --sandbox`. Hosts that
// let their operators choose the sandbox in a file use it too (docs/security.md, "Choosing a
// sandbox"; docs/mcp.md, "Choosing the sandbox").
//
//   "sandbox": {"type": "process", "isolation": "isolated", "spawn": "fork_server",
//               "engine": "interpreter"}
//   "sandbox": {"type": "protocol", "id": "acme.bwrap", "qualification": "production",
//               "launch": ["/usr/bin/bwrap", "--unshare-all", ..., "/usr/libexec/codemode-worker"],
//               "terminate": [...], "env": {"NAME": "value"}}
//   "sandbox": {"type": "docker", "dockerPath": "/usr/bin/docker", "image": "sha256:...",
//               "provenance": "sha256:...", "host": "unix:///run/docker.sock",
//               "runtime": "runsc", "seccomp": "builtin" | "daemon_default",
//               "promotion": {"statement": ..., "signature": ..., "publicKey": ...},
//               "promotionPublicKeyFile": "ci-key.pem", "maxScanAgeMs": 86400000}
//
// Absent: the process adapter with its defaults (fork server, process profile, interpreter; code
// mode's default profile is isolated, mcp_config.h). A
// protocol sandbox is qualified "test" unless the config says "production", and code mode refuses
// a test sandbox at start (UNSUPPORTED_PROFILE). Relative launch and terminate commands resolve as
// a server's command does.
//
// Thread-safety: plain values.
#ifndef CODEMODE_SANDBOX_CONFIG_H_
#define CODEMODE_SANDBOX_CONFIG_H_

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "codemode/docker_adapter.h"
#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/process_adapter.h"
#include "codemode/protocol_adapter.h"

namespace codemode {

struct SandboxConfig {
  // The process adapter's options (worker_path and stack_bytes are filled in when the adapter is
  // made), or the protocol or Docker adapter's (stack_bytes likewise). A Docker sandbox with a
  // promotion is the promoted Docker adapter.
  std::variant<ProcessAdapterOptions, ProtocolAdapterOptions, DockerAdapterOptions> adapter;
};

// INVALID_CONFIG, rule "mcp_config", naming the member ("sandbox.isolation must be ...").
// `base_directory` (absolute) resolves relative commands. `process_isolation` is the profile of a
// process sandbox that names none.
CODEMODE_EXPORT Result<SandboxConfig> parse_sandbox_config(
    const Json& sandbox, const std::string& base_directory,
    IsolationProfile process_isolation = IsolationProfile::kProcess);

// The adapter `config` describes, running `worker_path` (process: empty means the default
// worker) with the engine stack quota `stack_bytes` (the policy's stackBytes).
CODEMODE_EXPORT Result<std::shared_ptr<SandboxAdapter>> make_sandbox_adapter(
    SandboxConfig config, std::string worker_path, std::int64_t stack_bytes);

}  // namespace codemode

#endif  // CODEMODE_SANDBOX_CONFIG_H_
