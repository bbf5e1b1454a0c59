// The Docker adapter against a real daemon: the integration cases of docs/docker.md ("Tests",
// numbered as there), run against the image scripts/docker-image built from this build's worker.
// Confinement is read back from `docker container inspect` and from a probe run with `docker exec`
// inside a live container, while a tool call holds the execution open.
#include "codemode/docker_adapter.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <sstream>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codemode/budget.h"
#include "codemode/code_mode.h"
#include "codemode/docker_promotion.h"

#include "core/time/utc_millis.h"
#include "docker_fixture.h"
#include "support/executor_fixture.h"
#include "support/scratch_dir.h"
#include "support/signing_keys.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;
using testing::docker_cli;
using testing::docker_limits;
using testing::DockerDaemon;

class DockerAdapterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    daemon_ = testing::docker_daemon();
    ASSERT_FALSE(daemon_.host.empty()) << "the docker fixture did not start a daemon";
    ASSERT_FALSE(daemon_.image.empty()) << "the docker fixture did not build the image";
    ASSERT_THAT(testing::codemode_containers_left(daemon_), ::testing::IsEmpty());
  }

  void TearDown() override {
    EXPECT_THAT(testing::codemode_containers_left(daemon_), ::testing::IsEmpty())
        << "a container outlived its execution";
  }

  std::shared_ptr<SandboxAdapter> adapter(DockerAdapterOptions options) {
    Result<std::shared_ptr<SandboxAdapter>> made = make_docker_adapter(std::move(options));
    EXPECT_TRUE(made.ok()) << made.error().message;
    return made.ok() ? *made : nullptr;
  }

  CodeExecutionOutcome run(std::shared_ptr<SandboxAdapter> sandbox, const std::string& source,
                           CodeLimits limits = docker_limits(),
                           ToolBroker broker = testing::doubling_broker(),
                           std::stop_token stop = {}) {
    auto mode =
        CodeMode::create({.adapter = std::move(sandbox), .invoke_tool = std::move(broker)}).value();
    ExecuteOptions options = testing::execute_options();
    options.stop_token = stop;
    return mode->execute(testing::any_json_program(source, limits), Json{{"value", 5}}, options);
  }

  // The one running codemode container, as `docker container inspect` shows it.
  Json inspect_running_container() {
    const std::vector<std::string> ids = testing::codemode_containers(daemon_);
    if (ids.size() != 1) return Json();
    const testing::DockerRun inspected = docker_cli(daemon_, {"container", "inspect", ids[0]});
    const Json all = Json::parse(inspected.out, nullptr, false);
    return all.is_array() && all.size() == 1 ? all[0] : Json();
  }

  DockerDaemon daemon_;
};

std::string describe(const CodeExecutionOutcome& outcome) { return to_json(outcome).dump(); }

// Case 1: an image whose provenance is not the pinned one never runs.
TEST_F(DockerAdapterTest, AWrongProvenanceIsUnsupportedProfile) {
  DockerAdapterOptions options = testing::docker_options(daemon_);
  options.provenance = "sha256:" + std::string(64, '0');
  const CodeExecutionOutcome outcome = run(adapter(options), "(input) => input");
  EXPECT_EQ(outcome.status, OutcomeStatus::kFailed);
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->code, ErrorCode::kUnsupportedProfile) << describe(outcome);

  // An image id the daemon does not have, the same (nothing is pulled).
  options = testing::docker_options(daemon_);
  options.image = "sha256:" + std::string(64, 'e');
  EXPECT_EQ(run(adapter(options), "(input) => input").error->code, ErrorCode::kUnsupportedProfile);
}

// The fixture image's options with a clean promotion signed by `key` that expires at `expires`.
DockerAdapterOptions promoted_options(const testing::DockerDaemon& daemon,
                                      const testing::PemKeyPair& key,
                                      std::chrono::system_clock::time_point expires) {
  const auto now = std::chrono::system_clock::now();
  const auto text = [](std::chrono::system_clock::time_point instant) {
    return internal::format_utc_millis(std::chrono::floor<std::chrono::milliseconds>(instant));
  };
  DockerAdapterOptions options = testing::docker_options(daemon);
  Result<DockerPromotion> promotion =
      issue_docker_promotion({.sarif = R"({"version":"2.1.0","runs":[{"tool":{"driver":)"
                                       R"({"name":"none"}},"results":[]}]})",
                              .subject = {.image = options.image, .provenance = options.provenance},
                              .builder_id = "codemode.tests/docker",
                              .scanner_id = "none",
                              .scanner_version = "0",
                              .completed_at = text(now - 1s),
                              .issued_at = text(now - 1s),
                              .expires_at = text(expires),
                              .private_key = key.private_key});
  EXPECT_TRUE(promotion.ok()) << promotion.error().message;
  if (promotion.ok()) options.promotion = *promotion;
  options.promotion_public_key = key.public_key;
  return options;
}

// Case 2: a brokered tool call inside the image through the promoted adapter.
TEST_F(DockerAdapterTest, APromotedAdapterRunsABrokeredToolCall) {
  const testing::PemKeyPair key = testing::ed25519_key_pair();
  DockerAdapterOptions options =
      promoted_options(daemon_, key, std::chrono::system_clock::now() + 1h);
  ASSERT_TRUE(options.promotion.has_value());
  Result<std::shared_ptr<SandboxAdapter>> promoted = make_promoted_docker_adapter(options);
  ASSERT_TRUE(promoted.ok()) << promoted.error().message;

  // Cost 1 (one call of number.double) and at most two calls.
  auto budget = Budget::create({.max_cost_micros = 1, .max_calls = 2}).value();
  ToolBroker standard =
      standard_broker({.permissions = {.allow = {"tool:number.double"}}, .budget = budget});
  int calls = 0;
  const CodeExecutionOutcome outcome =
      run(*promoted, "async (input, tools) => (await tools.call('number.double', input)).output",
          docker_limits(), [&](const Tool& tool, const Json& input, const BrokerContext& context) {
            ++calls;
            return standard(tool, input, context);
          });
  ASSERT_TRUE(outcome.ok()) << describe(outcome);
  EXPECT_EQ(outcome.output, (Json{{"value", 10}}));
  EXPECT_EQ(calls, 1);

  // A promotion for another image makes the same adapter refuse to be made.
  options.promotion->statement.subject.image = "sha256:" + std::string(64, 'f');
  Result<std::shared_ptr<SandboxAdapter>> other = make_promoted_docker_adapter(options);
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, ErrorCode::kIntegrityViolation);
}

// Case 3: hostile CPU.
TEST_F(DockerAdapterTest, HostileCpuIsLimitExceeded) {
  CodeLimits limits = docker_limits();
  limits.cpu_millis = 20;
  const CodeExecutionOutcome outcome =
      run(adapter(testing::docker_options(daemon_)), "() => { for (;;) {} }", limits);
  ASSERT_TRUE(outcome.error.has_value()) << describe(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kLimitExceeded) << describe(outcome);
  EXPECT_EQ(outcome.error->rule, "cpu_limit");
}

// Case 4: hostile memory, recursion and output, and the globals probe.
TEST_F(DockerAdapterTest, HostileMemoryRecursionAndOutput) {
  CodeLimits limits = docker_limits();
  limits.cpu_millis = 5'000;
  std::shared_ptr<SandboxAdapter> sandbox = adapter(testing::docker_options(daemon_));

  CodeExecutionOutcome outcome =
      run(sandbox, "() => { const a = []; for (;;) a.push(new Array(1e6).fill(1)); }", limits);
  ASSERT_TRUE(outcome.error.has_value()) << describe(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kLimitExceeded) << describe(outcome);
  EXPECT_THAT(outcome.error->message, ::testing::HasSubstr("memoryBytes"));

  outcome = run(sandbox, "() => { const f = () => f() + 1; return f(); }", limits);
  ASSERT_TRUE(outcome.program_error.has_value()) << describe(outcome);
  EXPECT_EQ(outcome.program_error->name, "InternalError");
  EXPECT_THAT(outcome.program_error->message, ::testing::HasSubstr("recursion"));

  outcome = run(sandbox, "() => 'x'.repeat(100000)", limits);
  ASSERT_TRUE(outcome.error.has_value()) << describe(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kInvalidOutput) << describe(outcome);

  outcome =
      run(sandbox, "() => [typeof process, typeof require, typeof fetch, typeof Deno]", limits);
  ASSERT_TRUE(outcome.ok()) << describe(outcome);
  EXPECT_EQ(outcome.output, Json::parse(R"(["undefined","undefined","undefined","undefined"])"));
  // TearDown: no container is left.
}

// Case 5: the container's confinement, read back from the daemon while a call holds it open.
TEST_F(DockerAdapterTest, TheContainerHasTheDocumentedConfinement) {
  Json container;
  const CodeExecutionOutcome outcome =
      run(adapter(testing::docker_options(daemon_)),
          "async (input, tools) => tools.call('number.double', input)", docker_limits(),
          [&](const Tool& tool, const Json& input, const BrokerContext& context) {
            container = inspect_running_container();
            return testing::doubling_broker()(tool, input, context);
          });
  ASSERT_TRUE(outcome.ok()) << describe(outcome);
  ASSERT_TRUE(container.is_object()) << "no single running codemode container to inspect";
  const Json& host = container.at("HostConfig");
  const Json& config = container.at("Config");
  EXPECT_EQ(config.at("User"), "65532:65532");
  EXPECT_EQ(host.at("NetworkMode"), "none");
  EXPECT_EQ(host.at("ReadonlyRootfs"), true);
  EXPECT_EQ(host.at("CapDrop"), Json::parse(R"(["ALL"])"));
  EXPECT_EQ(host.value("CapAdd", Json()), Json());
  EXPECT_EQ(host.at("Privileged"), false);
  EXPECT_EQ(host.at("PidsLimit"), 16);
  EXPECT_EQ(host.at("Memory"), (32ll << 20) + 268'435'456);
  EXPECT_EQ(host.at("MemorySwap"), host.at("Memory"));
  EXPECT_EQ(host.at("NanoCpus"), 1'000'000'000);
  EXPECT_EQ(host.at("IpcMode"), "none");
  EXPECT_EQ(host.at("Binds"), Json());
  EXPECT_EQ(host.at("Ulimits"), Json::parse(R"([{"Name":"nofile","Hard":64,"Soft":64}])"));
  const std::vector<std::string> security = host.at("SecurityOpt");
  EXPECT_THAT(security, ::testing::Contains("no-new-privileges=true"));
  EXPECT_THAT(security, ::testing::Not(::testing::Contains(::testing::HasSubstr("unconfined"))));
  EXPECT_EQ(host.at("Tmpfs"), (Json{{"/tmp", "rw,noexec,nosuid,nodev,size=1048576"}}));
  for (const Json& mount : container.at("Mounts")) EXPECT_EQ(mount.at("Type"), "tmpfs");
  EXPECT_EQ(host.at("LogConfig").at("Type"), "none");
  EXPECT_EQ(config.at("Entrypoint"), Json::parse(R"(["/codemode/codemode-worker"])"));
  // Nothing but the PATH Docker gives every container whose image sets none (the worker never
  // executes anything, so it is inert); no variable of the host's.
  EXPECT_EQ(
      config.value("Env", Json()),
      Json::parse(R"(["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"])"));
  EXPECT_EQ(config.at("Labels").at(kDockerProvenanceLabel), daemon_.provenance);
}

// Case 6: escape primitives, probed from inside a live container with `docker exec`. The worker
// image has no shell, so the probe runs in an image built FROM it that adds a static busybox
// under /probe (same entrypoint, user, label and run flags; only the extra file differs).
TEST_F(DockerAdapterTest, EscapePrimitivesAreClosedInsideTheContainer) {
  testing::ScratchDir context;
  ASSERT_TRUE(context.ok());
  std::filesystem::copy_file("/bin/busybox", context.file("busybox"));
  {
    std::ofstream dockerfile(context.file("Dockerfile"));
    dockerfile << "FROM " << daemon_.image << "\nCOPY busybox /probe/busybox\n";
  }
  ASSERT_TRUE(docker_cli(daemon_, {"build", "--network=none", "--quiet", "--tag",
                                   "codemode-worker:probe", context.path().string()})
                  .ok);
  const testing::DockerRun id =
      docker_cli(daemon_, {"image", "inspect", "--format", "{{.Id}}", "codemode-worker:probe"});
  ASSERT_TRUE(id.ok);
  DockerAdapterOptions options = testing::docker_options(daemon_);
  options.image = id.out.substr(0, id.out.find('\n'));

  constexpr char kProbe[] = R"probe(B=/probe/busybox
echo "id=$($B id -u):$($B id -g)"
if $B touch /codemode/probe 2>/dev/null; then echo codemode_writable=yes; else echo codemode_writable=no; fi
for f in /var/run/docker.sock /run/docker.sock /root/.aws/credentials \
         /root/.config/gcloud/application_default_credentials.json; do
  if [ -e "$f" ]; then echo "exists=$f"; fi
done
$B env | $B grep -E '^(AWS_|AZURE_|GOOGLE_|GITHUB_|GITLAB_|OPENAI_|ANTHROPIC_|NPM_TOKEN|DOCKER_AUTH_CONFIG|SSH_AUTH_SOCK)' | $B sed 's/^/secret_env=/'
echo "net=$($B ls /sys/class/net | $B tr '\n' ' ')"
$B grep -E '^(CapEff|NoNewPrivs|Seccomp):' /proc/self/status | $B tr -d '\t ' | $B sed 's/:/=/'
$B awk '$2 == "/" { print "root=" $4 }' /proc/mounts
$B awk '$2 == "/tmp" { print "tmp=" $3 "," $4 }' /proc/mounts
printf '#!/probe/busybox sh\necho ran\n' > /tmp/script && $B chmod +x /tmp/script
if /tmp/script 2>/dev/null; then echo tmp_exec=yes; else echo tmp_exec=no; fi
)probe";
  std::map<std::string, std::string> seen;
  std::string probe_output;
  const CodeExecutionOutcome outcome =
      run(adapter(options), "async (input, tools) => tools.call('number.double', input)",
          docker_limits(), [&](const Tool& tool, const Json& input, const BrokerContext& context) {
            const std::vector<std::string> ids = testing::codemode_containers(daemon_);
            if (ids.size() == 1) {
              probe_output =
                  docker_cli(daemon_, {"exec", ids[0], "/probe/busybox", "sh", "-c", kProbe}).out;
            }
            return testing::doubling_broker()(tool, input, context);
          });
  ASSERT_TRUE(outcome.ok()) << describe(outcome);
  std::istringstream lines(probe_output);
  std::vector<std::string> exists;
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find('=');
    if (equals == std::string::npos) continue;
    const std::string key = line.substr(0, equals);
    const std::string value = line.substr(equals + 1);
    if (key == "exists" || key == "secret_env") {
      exists.push_back(line);
    } else {
      seen[key] = value;
    }
  }
  EXPECT_EQ(seen["id"], "65532:65532") << probe_output;
  EXPECT_EQ(seen["codemode_writable"], "no");
  EXPECT_THAT(exists, ::testing::IsEmpty());
  EXPECT_EQ(seen["net"], "lo ");
  EXPECT_EQ(seen["CapEff"], "0000000000000000");
  EXPECT_EQ(seen["NoNewPrivs"], "1");
  EXPECT_EQ(seen["Seccomp"], "2") << "the daemon's default seccomp profile is not applied";
  EXPECT_THAT(seen["root"], ::testing::StartsWith("ro,"));
  EXPECT_THAT(seen["tmp"], ::testing::StartsWith("tmpfs,rw,"));
  EXPECT_THAT(seen["tmp"], ::testing::HasSubstr("nosuid"));
  EXPECT_THAT(seen["tmp"], ::testing::HasSubstr("nodev"));
  EXPECT_THAT(seen["tmp"], ::testing::HasSubstr("noexec"));
  EXPECT_EQ(seen["tmp_exec"], "no");
  docker_cli(daemon_, {"image", "rm", "codemode-worker:probe"});
}

// Case 7: the wall deadline ends the execution and removes its container.
TEST_F(DockerAdapterTest, TheWallDeadlineIsATimeoutAndRemovesTheContainer) {
  CodeLimits limits = docker_limits();
  limits.cpu_millis = 60'000;
  limits.wall_time_millis = 4'000;
  const auto started = std::chrono::steady_clock::now();
  const CodeExecutionOutcome outcome =
      run(adapter(testing::docker_options(daemon_)), "() => { for (;;) {} }", limits);
  ASSERT_TRUE(outcome.error.has_value()) << describe(outcome);
  EXPECT_EQ(outcome.error->code, ErrorCode::kTimeout) << describe(outcome);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 20s);
  EXPECT_THAT(testing::codemode_containers(daemon_), ::testing::IsEmpty());
}

// Case 8: the caller's cancellation ends the execution and removes its container.
TEST_F(DockerAdapterTest, ACallerCancelIsCancelledAndRemovesTheContainer) {
  CodeLimits limits = docker_limits();
  limits.cpu_millis = 60'000;
  limits.wall_time_millis = 60'000;
  std::stop_source cancel;
  std::jthread canceller([&cancel] {
    std::this_thread::sleep_for(1500ms);
    cancel.request_stop();
  });
  const CodeExecutionOutcome outcome =
      run(adapter(testing::docker_options(daemon_)), "() => { for (;;) {} }", limits,
          testing::doubling_broker(), cancel.get_token());
  EXPECT_EQ(outcome.status, OutcomeStatus::kCancelled) << describe(outcome);
  EXPECT_THAT(testing::codemode_containers(daemon_), ::testing::IsEmpty());
}

// Case 9: a promotion that lapses while its adapter is live. The proof is verified before each
// execution, not during one: the execution running when it expires finishes, and the next one
// through the same adapter is refused before any container starts.
TEST_F(DockerAdapterTest, APromotionThatLapsesRefusesTheNextExecution) {
  const testing::PemKeyPair key = testing::ed25519_key_pair();
  const auto expires =
      std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now() + 3s);
  DockerAdapterOptions options = promoted_options(daemon_, key, expires);
  ASSERT_TRUE(options.promotion.has_value());
  Result<std::shared_ptr<SandboxAdapter>> promoted = make_promoted_docker_adapter(options);
  ASSERT_TRUE(promoted.ok()) << promoted.error().message;

  // The tool call holds the first execution open until the proof has expired.
  const CodeExecutionOutcome during =
      run(*promoted, "async (input, tools) => (await tools.call('number.double', input)).output",
          docker_limits(), [&](const Tool& tool, const Json& input, const BrokerContext& context) {
            std::this_thread::sleep_until(expires + 100ms);
            return testing::doubling_broker()(tool, input, context);
          });
  ASSERT_TRUE(during.ok()) << describe(during);
  EXPECT_EQ(during.output, (Json{{"value", 10}}));
  ASSERT_GE(std::chrono::system_clock::now(), expires);

  int calls = 0;
  const CodeExecutionOutcome after =
      run(*promoted, "async (input, tools) => (await tools.call('number.double', input)).output",
          docker_limits(), [&](const Tool& tool, const Json& input, const BrokerContext& context) {
            ++calls;
            return testing::doubling_broker()(tool, input, context);
          });
  EXPECT_EQ(after.status, OutcomeStatus::kFailed);
  ASSERT_TRUE(after.error.has_value()) << describe(after);
  EXPECT_EQ(after.error->code, ErrorCode::kUnsupportedProfile) << describe(after);
  EXPECT_EQ(after.error->rule, "adapter_unavailable");
  EXPECT_EQ(calls, 0);
  EXPECT_FALSE((*promoted)->is_available());
  // TearDown: no container is left.
}

}  // namespace
}  // namespace codemode
