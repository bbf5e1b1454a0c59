// The Docker adapter's availability check: the local image is exactly the pinned one and carries
// the pinned provenance label. Never pulls; any failure means unavailable.
#ifndef CODEMODE_SANDBOX_DOCKER_DOCKER_IMAGE_CHECK_H_
#define CODEMODE_SANDBOX_DOCKER_DOCKER_IMAGE_CHECK_H_

#include <string_view>

#include "codemode/docker_adapter.h"

namespace codemode::internal {

// Whether `inspected` (`docker image inspect --format {{json .}}` output) shows the id
// options.image and the label kDockerProvenanceLabel equal to options.provenance.
bool image_matches(std::string_view inspected, const DockerAdapterOptions& options);

// Whether `security_options` (`docker info --format {{json .SecurityOptions}}` output) says the
// daemon applies its default seccomp profile to containers that name none.
bool daemon_applies_default_seccomp(std::string_view security_options);

// With DockerSeccomp::kDaemonDefault, first `docker info` and daemon_applies_default_seccomp; then
// runs `docker image inspect` (empty environment, 10 s, 128 KiB of output) and checks its answer
// with image_matches.
bool local_image_matches(const DockerAdapterOptions& options);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_DOCKER_DOCKER_IMAGE_CHECK_H_
