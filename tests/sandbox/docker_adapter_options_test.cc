// The Docker adapter's options, exact command lines and availability answers, without a daemon:
// unit cases 1 to 3 of docs/docker.md ("Tests") and the image check's parsing.
#include "sandbox/docker/docker_adapter_options.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codemode/docker_adapter.h"

#include "sandbox/docker/docker_image_check.h"

namespace codemode {
namespace {

const std::string kImage = "sha256:" + std::string(64, 'a');
const std::string kProvenance = "sha256:" + std::string(64, 'b');

DockerAdapterOptions valid_options() {
  return {.docker_path = "/usr/bin/docker", .image = kImage, .provenance = kProvenance};
}

template <typename Change>
ErrorCode made_with(Change change) {
  DockerAdapterOptions options = valid_options();
  change(options);
  Result<std::shared_ptr<SandboxAdapter>> adapter = make_docker_adapter(options);
  if (adapter.ok()) return ErrorCode::kIntegrityViolation;  // never expected: a distinct marker
  EXPECT_EQ(adapter.error().rule, "docker_adapter_options");
  return adapter.error().code;
}

// Case 1: production metadata, pinned to an absolute CLI and an immutable image id.
TEST(DockerAdapterOptionsTest, ProductionMetadataPinnedToAnAbsoluteCliAndAnImageId) {
  Result<std::shared_ptr<SandboxAdapter>> adapter = make_docker_adapter(valid_options());
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  EXPECT_EQ((*adapter)->id(), "codemode.docker");
  EXPECT_EQ((*adapter)->version(), "1.0.0");
  EXPECT_EQ((*adapter)->qualification(), AdapterQualification::kProduction);

  const ErrorCode invalid = ErrorCode::kInvalidConfig;
  EXPECT_EQ(made_with([](auto& o) { o.docker_path = "docker"; }), invalid);
  EXPECT_EQ(made_with([](auto& o) { o.docker_path = ""; }), invalid);
  EXPECT_EQ(made_with([](auto& o) { o.image = "node:latest"; }), invalid);
  EXPECT_EQ(made_with([](auto& o) { o.image = "sha256:" + std::string(64, 'A'); }), invalid);
  EXPECT_EQ(made_with([](auto& o) { o.image = "sha256:" + std::string(63, 'a'); }), invalid);
  EXPECT_EQ(made_with([](auto& o) { o.provenance = "sha256:bad"; }), invalid);
  EXPECT_EQ(made_with([](auto& o) { o.stack_bytes = 1; }), invalid);
  EXPECT_EQ(made_with([](auto& o) { o.max_scan_age = std::chrono::milliseconds(0); }), invalid);
  EXPECT_EQ(made_with([](auto& o) { o.seccomp = static_cast<DockerSeccomp>(7); }), invalid);
}

// Case 2: a local daemon socket and an OCI runtime, and nothing that could smuggle flags.
TEST(DockerAdapterOptionsTest, AcceptsALocalSocketAndARuntimeAndNothingThatSmugglesFlags) {
  DockerAdapterOptions options = valid_options();
  options.host = "unix:///run/user/1000/docker.sock";
  options.runtime = "runsc";
  EXPECT_TRUE(make_docker_adapter(options).ok());
  options.host = "npipe:////./pipe/docker_engine";
  EXPECT_TRUE(make_docker_adapter(options).ok());

  for (const char* host :
       {"tcp://10.0.0.1:2375", "unix://relative.sock", "unix:///run/docker.sock --privileged",
        "ssh://host", "unix:///run/docker.sock,tcp://x", "unix:///"}) {
    EXPECT_EQ(made_with([&](auto& o) { o.host = host; }), ErrorCode::kInvalidConfig) << host;
  }
  for (const char* runtime : {"--privileged", "runc --cap-add=ALL", "-runc"}) {
    EXPECT_EQ(made_with([&](auto& o) { o.runtime = runtime; }), ErrorCode::kInvalidConfig)
        << runtime;
  }
  // An empty runtime means none (docs/architecture.md, "Where codemode differs"), so it is not
  // refused; one of 65 characters is.
  EXPECT_EQ(made_with([](auto& o) { o.runtime = std::string(65, 'r'); }),
            ErrorCode::kInvalidConfig);
}

// Case 3: every container runs with the documented confinement flags, exactly.
TEST(DockerAdapterOptionsTest, RunsEveryContainerWithTheDocumentedFlags) {
  CodeLimits limits{.memory_bytes = 32ll << 20, .scratch_bytes = 4096};
  const std::string memory = std::to_string((32ll << 20) + 268'435'456) + "b";
  const std::vector<std::string> expected{"run",
                                          "--rm",
                                          "--interactive",
                                          "--pull=never",
                                          "--name",
                                          "codemode-0123",
                                          "--network=none",
                                          "--read-only",
                                          "--cap-drop=ALL",
                                          "--security-opt=no-new-privileges=true",
                                          "--security-opt=seccomp=builtin",
                                          "--pids-limit=16",
                                          "--ulimit=nofile=64:64",
                                          "--cpus=1",
                                          "--memory",
                                          memory,
                                          "--memory-swap",
                                          memory,
                                          "--user=65532:65532",
                                          "--ipc=none",
                                          "--log-driver=none",
                                          "--tmpfs",
                                          "/tmp:rw,noexec,nosuid,nodev,size=4096",
                                          kImage};
  DockerAdapterOptions options = valid_options();
  EXPECT_EQ(internal::docker_run_arguments(options, "codemode-0123", limits), expected);

  options.host = "unix:///run/user/1000/docker.sock";
  options.runtime = "runsc";
  const std::vector<std::string> placed =
      internal::docker_run_arguments(options, "codemode-0123", limits);
  ASSERT_GE(placed.size(), 4u);
  EXPECT_EQ(std::vector<std::string>(placed.begin(), placed.begin() + 3),
            (std::vector<std::string>{"--host", options.host, "run"}));
  EXPECT_EQ(std::vector<std::string>(placed.end() - 2, placed.end()),
            (std::vector<std::string>{"--runtime=runsc", kImage}));
  for (const std::string& argument : placed) {
    EXPECT_EQ(argument.find("--privileged"), std::string::npos);
    EXPECT_FALSE(argument == "-v" || argument == "--volume" || argument == "--mount" ||
                 argument == "-e" || argument == "--env");
  }

  // Engines before 23.0 do not know "builtin": the flag is left out and the daemon's default
  // profile applies (the availability check requires the daemon to say so).
  options = valid_options();
  options.seccomp = DockerSeccomp::kDaemonDefault;
  std::vector<std::string> without = expected;
  std::erase(without, "--security-opt=seccomp=builtin");
  EXPECT_EQ(internal::docker_run_arguments(options, "codemode-0123", limits), without);
}

TEST(DockerAdapterOptionsTest, MemoryIsTheProgramsPlus256MiBCappedAt2Point25GiB) {
  EXPECT_EQ(internal::container_memory_bytes(1), 268'435'457);
  EXPECT_EQ(internal::container_memory_bytes(2ll << 30), 2'415'919'104);
  EXPECT_EQ(internal::container_memory_bytes(2'415'919'104 - 268'435'456), 2'415'919'104);
}

TEST(DockerAdapterOptionsTest, RemovalAndChecksNameTheSameDaemon) {
  DockerAdapterOptions options = valid_options();
  EXPECT_EQ(internal::docker_remove_arguments(options, "codemode-1"),
            (std::vector<std::string>{"rm", "--force", "codemode-1"}));
  EXPECT_EQ(internal::docker_inspect_arguments(options),
            (std::vector<std::string>{"image", "inspect", "--format", "{{json .}}", kImage}));
  options.host = "unix:///d.sock";
  EXPECT_EQ(internal::docker_remove_arguments(options, "codemode-1"),
            (std::vector<std::string>{"--host", "unix:///d.sock", "rm", "--force", "codemode-1"}));
  EXPECT_EQ(internal::docker_info_arguments(options),
            (std::vector<std::string>{"--host", "unix:///d.sock", "info", "--format",
                                      "{{json .SecurityOptions}}"}));
}

TEST(DockerAdapterOptionsTest, ContainerNames) {
  EXPECT_TRUE(internal::is_container_name("codemode-" + std::string(32, 'f')));
  EXPECT_TRUE(internal::is_container_name(std::string(128, 'a')));
  EXPECT_FALSE(internal::is_container_name(std::string(129, 'a')));
  EXPECT_FALSE(internal::is_container_name("-rm"));
  EXPECT_FALSE(internal::is_container_name("a b"));
}

TEST(DockerImageCheckTest, TheImageMustBeThePinnedIdWithThePinnedProvenance) {
  const DockerAdapterOptions options = valid_options();
  const auto inspected = [](const std::string& id, const std::string& provenance) {
    return R"({"Id":")" + id + R"(","Config":{"Labels":{"dev.codemode.sandbox.provenance":")" +
           provenance + R"("}}})";
  };
  EXPECT_TRUE(internal::image_matches(inspected(kImage, kProvenance), options));
  EXPECT_FALSE(
      internal::image_matches(inspected(kImage, "sha256:" + std::string(64, '0')), options));
  EXPECT_FALSE(
      internal::image_matches(inspected("sha256:" + std::string(64, 'c'), kProvenance), options));
  EXPECT_FALSE(
      internal::image_matches(R"({"Id":")" + kImage + R"(","Config":{"Labels":null}})", options));
  EXPECT_FALSE(internal::image_matches("[]", options));
  EXPECT_FALSE(internal::image_matches("", options));
}

TEST(DockerImageCheckTest, TheDaemonMustApplyItsDefaultSeccompProfile) {
  EXPECT_TRUE(internal::daemon_applies_default_seccomp(R"(["name=seccomp,profile=default"])"));
  EXPECT_TRUE(internal::daemon_applies_default_seccomp(
      R"(["name=apparmor","name=seccomp,profile=builtin","name=cgroupns"])"));
  EXPECT_FALSE(internal::daemon_applies_default_seccomp(R"(["name=seccomp,profile=unconfined"])"));
  EXPECT_FALSE(internal::daemon_applies_default_seccomp(R"(["name=apparmor"])"));
  EXPECT_FALSE(internal::daemon_applies_default_seccomp("null"));
}

TEST(DockerImageCheckTest, AMissingCliIsUnavailableNotAnError) {
  DockerAdapterOptions options = valid_options();
  options.docker_path = "/nonexistent/docker";
  std::shared_ptr<SandboxAdapter> adapter = make_docker_adapter(options).value();
  EXPECT_FALSE(adapter->is_available());
}

}  // namespace
}  // namespace codemode
