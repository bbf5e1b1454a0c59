// `codemode docker promote` and `codemode docker verify`: a CI signs a clean SARIF report with
// its Ed25519 key, and the proof verifies for exactly that image; findings, another image or a
// usage error end with their codes and exit statuses.
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/json.h"

#include "support/process_support.h"
#include "support/scratch_dir.h"
#include "support/signing_keys.h"

namespace codemode {
namespace {

const std::string kImage = "sha256:" + std::string(64, '1');
const std::string kOtherImage = "sha256:" + std::string(64, '2');
const std::string kProvenance = "sha256:" + std::string(64, '3');

class DockerSubcommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    const testing::PemKeyPair key = testing::ed25519_key_pair();
    std::ofstream(dir_.file("ci.key")) << key.private_key;
    std::ofstream(dir_.file("ci.pub")) << key.public_key;
    std::ofstream(dir_.file("other.pub")) << testing::ed25519_key_pair().public_key;
    const std::string trivy = R"("tool":{"driver":{"name":"Trivy"}})";
    std::ofstream(dir_.file("clean.sarif"))
        << R"({"version":"2.1.0","runs":[{)" + trivy + R"(,"results":[]}]})";
    std::ofstream(dir_.file("findings.sarif"))
        << R"({"version":"2.1.0","runs":[{)" + trivy +
               R"(,"results":[{"ruleId":"CVE-2026-0001"}]}]})";
    // A scan that failed, reported as such, with nothing found.
    std::ofstream(dir_.file("failed.sarif"))
        << R"({"version":"2.1.0","runs":[{)" + trivy +
               R"(,"results":[],"invocations":[{"executionSuccessful":false,)"
               R"("toolExecutionNotifications":[{"level":"error",)"
               R"("message":{"text":"failed to download the vulnerability database"}}]}]}]})";
  }

  testing::ProcessRun promote(const std::string& sarif, std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{CODEMODE_CLI_BINARY, "docker",         "promote",
                                  "--sarif",           dir_.file(sarif), "--private-key",
                                  dir_.file("ci.key"), "--image",        kImage,
                                  "--provenance",      kProvenance,      "--builder-id",
                                  "ci.example/build",  "--scanner-id",   "trivy",
                                  "--scanner-version", "0.50.1",         "--completed-at",
                                  completed_at_};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return testing::run_process(argv, "");
  }

  testing::ProcessRun verify(const std::string& image, const std::string& key = "ci.pub") {
    return testing::run_process(
        {CODEMODE_CLI_BINARY, "docker", "verify", "--promotion", dir_.file("promotion.json"),
         "--image", image, "--provenance", kProvenance, "--public-key", dir_.file(key)},
        "");
  }

  static std::string code_of(const testing::ProcessRun& run) {
    const Json line = Json::parse(run.err, nullptr, false);
    return line.is_discarded() ? "" : line["error"].value("code", "");
  }

  testing::ScratchDir dir_;
  // A scan that finished a minute ago (the proof is issued now, valid for 24 hours).
  std::string completed_at_ = [] {
    const std::time_t minute_ago = std::time(nullptr) - 60;
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S.000Z", std::gmtime(&minute_ago));
    return std::string(text);
  }();
};

TEST_F(DockerSubcommandTest, APromotionFromACleanReportVerifiesForItsImageOnly) {
  const testing::ProcessRun promoted = promote("clean.sarif");
  ASSERT_EQ(promoted.exit_code, 0) << promoted.err;
  const Json proof = Json::parse(promoted.out);
  EXPECT_EQ(proof["statement"]["subject"]["image"], kImage);
  EXPECT_EQ(proof["statement"]["scan"]["high"], 0);
  EXPECT_TRUE(proof["signature"].get<std::string>().starts_with("base64:"));
  std::ofstream(dir_.file("promotion.json")) << promoted.out;

  const testing::ProcessRun verified = verify(kImage);
  ASSERT_EQ(verified.exit_code, 0) << verified.err;
  EXPECT_EQ(Json::parse(verified.out), proof["statement"]);

  const testing::ProcessRun other = verify(kOtherImage);
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_EQ(code_of(other), "INTEGRITY_VIOLATION");
  const testing::ProcessRun unpinned = verify(kImage, "other.pub");
  EXPECT_EQ(unpinned.exit_code, 1);
  EXPECT_EQ(code_of(unpinned), "INTEGRITY_VIOLATION");
}

TEST_F(DockerSubcommandTest, AReportWithFindingsIsRefused) {
  const testing::ProcessRun refused = promote("findings.sarif");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(code_of(refused), "PERMISSION_DENIED");
  EXPECT_TRUE(refused.out.empty());
}

TEST_F(DockerSubcommandTest, AFailedScanIsRefused) {
  const testing::ProcessRun refused = promote("failed.sarif");
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(code_of(refused), "PERMISSION_DENIED");
  EXPECT_NE(refused.err.find("executionSuccessful"), std::string::npos) << refused.err;
  EXPECT_TRUE(refused.out.empty());
}

// A proof from before scan.succeeded existed (format v1) does not say whether its scan succeeded.
TEST_F(DockerSubcommandTest, AVersionOneProofIsRefused) {
  const testing::ProcessRun promoted = promote("clean.sarif");
  ASSERT_EQ(promoted.exit_code, 0) << promoted.err;
  Json proof = Json::parse(promoted.out);
  proof["statement"]["format"] = "codemode-docker-promotion-v1";
  proof["statement"]["scan"].erase("succeeded");
  std::ofstream(dir_.file("promotion.json")) << proof.dump();
  const testing::ProcessRun verified = verify(kImage);
  EXPECT_EQ(verified.exit_code, 1);
  EXPECT_EQ(code_of(verified), "INVALID_CONFIG");
  EXPECT_NE(verified.err.find("promote the image again"), std::string::npos) << verified.err;
}

TEST_F(DockerSubcommandTest, MalformedArgumentsAreUsageErrors) {
  testing::ProcessRun run = promote("clean.sarif", {"--issued-at", "yesterday"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(code_of(run), "INVALID_CONFIG");
  run = promote("missing.sarif");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.err.find(dir_.path().string()), std::string::npos) << "a host path in: " << run.err;
  run = testing::run_process({CODEMODE_CLI_BINARY, "docker"}, "");
  EXPECT_EQ(run.exit_code, 2);
}

}  // namespace
}  // namespace codemode
