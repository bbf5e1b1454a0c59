// The config's "sandbox" member: each type's options, their defaults, and every refusal naming its
// member (sandbox_config.h).
#include "codemode/sandbox_config.h"

#include <string>

#include <gtest/gtest.h>

namespace codemode {
namespace {

const std::string kBase = std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog";

Result<SandboxConfig> parse(const char* text) {
  return parse_sandbox_config(Json::parse(text), kBase);
}

std::string refusal(const char* text) {
  Result<SandboxConfig> config = parse(text);
  EXPECT_FALSE(config.ok()) << text;
  if (config.ok()) return "";
  EXPECT_EQ(config.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(config.error().rule, "mcp_config");
  return config.error().message;
}

TEST(SandboxConfigTest, ChoosesTheProcessAdaptersProfiles) {
  Result<SandboxConfig> config =
      parse(R"({"type":"process","isolation":"isolated","spawn":"exec","engine":"jit"})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  const auto& process = std::get<ProcessAdapterOptions>(config->adapter);
  EXPECT_EQ(process.spawn, SpawnMode::kExec);
  EXPECT_EQ(process.isolation, IsolationProfile::kIsolated);
  EXPECT_EQ(process.engine, EngineProfile::kJit);

  Result<std::shared_ptr<SandboxAdapter>> adapter =
      make_sandbox_adapter(std::move(*config), "/nonexistent/codemode-worker", 256 << 10);
  ASSERT_TRUE(adapter.ok());
  EXPECT_EQ((*adapter)->id(), "codemode.isolated.jit");
}

// The caller's default profile (code mode's is isolated) applies to a process sandbox that names
// none; a protocol sandbox's profile is what its launch command confines, so it is never implied.
TEST(SandboxConfigTest, AProcessSandboxWithoutAProfileTakesTheCallersDefault) {
  const auto isolation_of = [](const char* text) {
    Result<SandboxConfig> config =
        parse_sandbox_config(Json::parse(text), kBase, IsolationProfile::kIsolated);
    EXPECT_TRUE(config.ok()) << text;
    if (const auto* process = std::get_if<ProcessAdapterOptions>(&config->adapter)) {
      return process->isolation;
    }
    return std::get<ProtocolAdapterOptions>(config->adapter).isolation;
  };
  EXPECT_EQ(isolation_of(R"({"type":"process"})"), IsolationProfile::kIsolated);
  EXPECT_EQ(isolation_of(R"({"type":"process","isolation":"process"})"),
            IsolationProfile::kProcess);
  EXPECT_EQ(isolation_of(R"({"type":"protocol","id":"a","launch":["/bin/sh"]})"),
            IsolationProfile::kProcess);
  EXPECT_EQ(std::get<ProcessAdapterOptions>(parse(R"({"type":"process"})")->adapter).isolation,
            IsolationProfile::kProcess);
}

TEST(SandboxConfigTest, DescribesAProtocolSandbox) {
  Result<SandboxConfig> config = parse(R"({"type":"protocol","id":"acme.bwrap",
      "qualification":"production","launch":["sh","-c","exec worker"],
      "terminate":["/bin/sh","-c","true"],"env":{"REGION":"eu-1"}})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  const auto& protocol = std::get<ProtocolAdapterOptions>(config->adapter);
  EXPECT_EQ(protocol.id, "acme.bwrap");
  EXPECT_EQ(protocol.qualification, AdapterQualification::kProduction);
  EXPECT_TRUE(protocol.launch.at(0).starts_with("/")) << "resolved as a server's command is";
  EXPECT_EQ(protocol.launch.at(2), "exec worker");
  EXPECT_EQ(protocol.terminate.at(0), "/bin/sh");
  EXPECT_EQ(protocol.environment, (std::vector<std::string>{"REGION=eu-1"}));

  Result<std::shared_ptr<SandboxAdapter>> adapter =
      make_sandbox_adapter(std::move(*config), "", 256 << 10);
  ASSERT_TRUE(adapter.ok());
  EXPECT_EQ((*adapter)->id(), "acme.bwrap");
  EXPECT_EQ((*adapter)->qualification(), AdapterQualification::kProduction);
}

TEST(SandboxConfigTest, AProtocolSandboxIsForTestsUnlessItSaysProduction) {
  Result<SandboxConfig> config = parse(R"({"type":"protocol","id":"a","launch":["/bin/sh"]})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(std::get<ProtocolAdapterOptions>(config->adapter).qualification,
            AdapterQualification::kTest);
}

constexpr char kDockerSandbox[] = R"({"type":"docker","dockerPath":"/usr/bin/docker",
    "image":"sha256:1111111111111111111111111111111111111111111111111111111111111111",
    "provenance":"sha256:2222222222222222222222222222222222222222222222222222222222222222")";

Json docker_sandbox(const Json& more) {
  Json sandbox = Json::parse(std::string(kDockerSandbox) + "}");
  sandbox.update(more);
  return sandbox;
}

std::string docker_refusal(const Json& more) {
  Result<SandboxConfig> config = parse_sandbox_config(docker_sandbox(more), kBase);
  EXPECT_FALSE(config.ok()) << more.dump();
  return config.ok() ? "" : config.error().message;
}

TEST(SandboxConfigTest, DescribesADockerSandbox) {
  Result<SandboxConfig> config =
      parse_sandbox_config(docker_sandbox({{"host", "unix:///run/docker.sock"},
                                           {"runtime", "runsc"},
                                           {"seccomp", "daemon_default"},
                                           {"maxScanAgeMs", 60000}}),
                           kBase);
  ASSERT_TRUE(config.ok()) << config.error().message;
  const auto& docker = std::get<DockerAdapterOptions>(config->adapter);
  EXPECT_EQ(docker.docker_path, "/usr/bin/docker");
  EXPECT_EQ(docker.host, "unix:///run/docker.sock");
  EXPECT_EQ(docker.runtime, "runsc");
  EXPECT_EQ(docker.seccomp, DockerSeccomp::kDaemonDefault);
  EXPECT_EQ(docker.max_scan_age, std::chrono::milliseconds(60000));
  EXPECT_FALSE(docker.promotion.has_value());

  Result<std::shared_ptr<SandboxAdapter>> adapter =
      make_sandbox_adapter(std::move(*config), "", 256 << 10);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  EXPECT_EQ((*adapter)->id(), "codemode.docker");
  EXPECT_EQ((*adapter)->qualification(), AdapterQualification::kProduction);
}

TEST(SandboxConfigTest, DockerRefusalsNameTheMember) {
  // `pull` is not an option: images are never pulled (docs/docker.md).
  EXPECT_NE(docker_refusal({{"pull", true}}).find("takes only"), std::string::npos);
  EXPECT_NE(docker_refusal({{"dockerPath", "docker"}}).find("absolute"), std::string::npos);
  EXPECT_NE(docker_refusal({{"image", "node:latest"}}).find("image"), std::string::npos);
  EXPECT_NE(docker_refusal({{"provenance", "sha256:bad"}}).find("provenance"), std::string::npos);
  EXPECT_NE(docker_refusal({{"host", "tcp://10.0.0.1:2375"}}).find("host"), std::string::npos);
  EXPECT_NE(docker_refusal({{"runtime", "--privileged"}}).find("runtime"), std::string::npos);
  EXPECT_NE(docker_refusal({{"seccomp", "unconfined"}}).find("sandbox.seccomp"), std::string::npos);
  EXPECT_NE(docker_refusal({{"maxScanAgeMs", "1d"}}).find("sandbox.maxScanAgeMs"),
            std::string::npos);
  EXPECT_NE(docker_refusal({{"promotion", {{"statement", 1}}}}).find("sandbox.promotion"),
            std::string::npos);
  EXPECT_NE(docker_refusal({{"promotionPublicKeyFile", "ci.pub"}}).find("goes with a promotion"),
            std::string::npos);
  Json missing = docker_sandbox(Json::object());
  missing.erase("image");
  Result<SandboxConfig> config = parse_sandbox_config(missing, kBase);
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.error().message.find("sandbox.image is required"), std::string::npos);
}

TEST(SandboxConfigTest, RefusalsNameTheMember) {
  EXPECT_NE(refusal(R"([])").find("sandbox must be an object"), std::string::npos);
  EXPECT_NE(refusal(R"({"type":"vm"})").find("sandbox.type"), std::string::npos);
  EXPECT_NE(refusal(R"({"type":"process","isolation":"vm"})").find("sandbox.isolation"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"process","spawn":"clone"})").find("sandbox.spawn"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"process","engine":3})").find("sandbox.engine"), std::string::npos);
  EXPECT_NE(refusal(R"({"type":"process","launch":["/bin/sh"]})").find("takes only"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"protocol","launch":["/bin/sh"]})").find("sandbox.id"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"protocol","id":"a"})").find("sandbox.launch is required"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"protocol","id":"a","launch":[]})").find("sandbox.launch"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"protocol","id":"a","launch":["no-such-launcher-here"]})")
                .find("sandbox.launch[0] does not name an executable"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"protocol","id":"a","launch":["/bin/sh"],"env":{"A":1}})")
                .find("sandbox.env"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"type":"protocol","id":"1bad","launch":["/bin/sh"]})").find("id must"),
            std::string::npos);
  EXPECT_NE(
      refusal(R"({"type":"protocol","id":"a","launch":["/bin/sh"],"qualification":"trusted"})")
          .find("sandbox.qualification"),
      std::string::npos);
  EXPECT_NE(refusal(R"({"type":"protocol","id":"a","launch":["/bin/sh"],"env":{"A B":"c"}})")
                .find("NAME=value"),
            std::string::npos);
}

}  // namespace
}  // namespace codemode
