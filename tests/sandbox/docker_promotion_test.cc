// Docker image promotions (include/codemode/docker_promotion.h): unit cases 4 to 6 of
// docs/docker.md ("Tests") with real Ed25519 keys, and the statement's exact text, timestamps and
// signature text.
#include "codemode/docker_promotion.h"

#include <chrono>
#include <ctime>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "codemode/docker_adapter.h"
#include "codemode/json.h"

#include "core/crypto/ed25519.h"
#include "core/time/utc_millis.h"
#include "support/signing_keys.h"

namespace codemode {
namespace {

using namespace std::chrono_literals;

const std::string kSubjectImage = "sha256:" + std::string(64, 'a');
const std::string kSubjectProvenance = "sha256:" + std::string(64, 'b');
constexpr char kCleanSarif[] =
    R"({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Trivy"}},"results":[]}]})";

std::chrono::system_clock::time_point at(const char* text) {
  // 2026-06-01T12:00:00.000Z and neighbours, built without parsing: the tests name instants.
  std::tm tm{};
  strptime(text, "%Y-%m-%dT%H:%M:%S", &tm);
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

const auto kNow = at("2026-06-01T12:00:00");

DockerPromotionRequest clean_request(const testing::PemKeyPair& key) {
  return {.sarif = kCleanSarif,
          .subject = {.image = kSubjectImage, .provenance = kSubjectProvenance},
          .builder_id = "ci.example/builder",
          .scanner_id = "trivy",
          .scanner_version = "0.50.1",
          .completed_at = "2026-06-01T11:00:00.000Z",
          .issued_at = "2026-06-01T11:30:00.000Z",
          .expires_at = "2026-06-02T11:30:00.000Z",
          .private_key = key.private_key};
}

// `promotion` with its statement changed by `change` and signed again with `key`: a valid
// signature over a statement that says something else.
template <typename Change>
DockerPromotion resigned(DockerPromotion promotion, const testing::PemKeyPair& key, Change change) {
  change(promotion.statement);
  const std::string bytes = serialize_docker_promotion(promotion.statement).value();
  promotion.signature =
      internal::encode_signature_text(internal::ed25519_sign(key.private_key, bytes).value());
  return promotion;
}

class DockerPromotionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    key_ = testing::ed25519_key_pair();
    ASSERT_FALSE(key_.private_key.empty());
    Result<DockerPromotion> issued = issue_docker_promotion(clean_request(key_), kNow);
    ASSERT_TRUE(issued.ok()) << issued.error().message;
    promotion_ = *issued;
  }

  Result<DockerPromotionStatement> verify(const DockerPromotion& promotion,
                                          std::chrono::milliseconds age = kDefaultMaxScanAge,
                                          std::chrono::system_clock::time_point now = kNow) {
    return verify_docker_promotion(promotion,
                                   {.image = kSubjectImage, .provenance = kSubjectProvenance},
                                   key_.public_key, age, now);
  }

  testing::PemKeyPair key_;
  DockerPromotion promotion_;
};

void expect_error(const Result<DockerPromotionStatement>& result, ErrorCode code,
                  const std::string& contains = "") {
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, code) << result.error().message;
  EXPECT_EQ(result.error().rule, "docker_promotion");
  EXPECT_NE(result.error().message.find(contains), std::string::npos) << result.error().message;
}

// Case 4: a fresh clean promotion verifies, round-trips, and makes a production adapter.
TEST_F(DockerPromotionTest, AFreshCleanPromotionVerifiesAndRoundTrips) {
  Result<DockerPromotionStatement> statement = verify(promotion_);
  ASSERT_TRUE(statement.ok()) << statement.error().message;
  EXPECT_EQ(*statement, promotion_.statement);
  EXPECT_EQ(statement->scan.report_digest, "sha256:" + sha256_hex(kCleanSarif));
  EXPECT_EQ(statement->scan.critical + statement->scan.high + statement->scan.unknown, 0);
  EXPECT_TRUE(promotion_.signature.starts_with("base64:"));

  Result<DockerPromotion> parsed = parse_docker_promotion(docker_promotion_json(promotion_));
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  EXPECT_EQ(*parsed, promotion_);
  EXPECT_EQ(serialize_docker_promotion(parsed->statement).value(),
            serialize_docker_promotion(promotion_.statement).value());
}

TEST_F(DockerPromotionTest, TheSignedBytesAreTheStatementInItsFixedOrder) {
  EXPECT_EQ(serialize_docker_promotion(promotion_.statement).value(),
            R"({"format":"codemode-docker-promotion-v2","subject":{"image":")" + kSubjectImage +
                R"(","provenance":")" + kSubjectProvenance +
                R"("},"builderId":"ci.example/builder","scan":{"scannerId":"trivy",)"
                R"("scannerVersion":"0.50.1","reportDigest":"sha256:)" +
                sha256_hex(kCleanSarif) +
                R"(","completedAt":"2026-06-01T11:00:00.000Z","succeeded":true,"critical":0,)"
                R"("high":0,)"
                R"("unknown":0},"issuedAt":"2026-06-01T11:30:00.000Z",)"
                R"("expiresAt":"2026-06-02T11:30:00.000Z"})");
}

TEST_F(DockerPromotionTest, ThePromotedAdapterIsProductionAndNeedsItsPromotion) {
  DockerAdapterOptions options{
      .docker_path = "/usr/bin/docker", .image = kSubjectImage, .provenance = kSubjectProvenance};
  Result<std::shared_ptr<SandboxAdapter>> missing = make_promoted_docker_adapter(options);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kInvalidConfig);

  // Issued for a fixed instant: a promotion for now is made the same way.
  DockerPromotionRequest request = clean_request(key_);
  const auto now = std::chrono::system_clock::now();
  const auto text = [](std::chrono::system_clock::time_point instant) {
    return internal::format_utc_millis(std::chrono::floor<std::chrono::milliseconds>(instant));
  };
  request.completed_at = text(now - 1min);
  request.issued_at = text(now - 1min);
  request.expires_at = text(now + 1h);
  options.promotion = issue_docker_promotion(request).value();
  EXPECT_FALSE(make_promoted_docker_adapter(options).ok()) << "the pinned key is required";
  options.promotion_public_key = key_.public_key;
  Result<std::shared_ptr<SandboxAdapter>> adapter = make_promoted_docker_adapter(options);
  ASSERT_TRUE(adapter.ok()) << adapter.error().message;
  EXPECT_EQ((*adapter)->id(), "codemode.docker");
  EXPECT_EQ((*adapter)->version(), "1.0.0");
  EXPECT_EQ((*adapter)->qualification(), AdapterQualification::kProduction);

  // The plain constructor refuses a promotion rather than ignoring it.
  EXPECT_FALSE(make_docker_adapter(options).ok());
}

// Case 5: tampering, findings, stale scans, wrong subjects and ambiguous data.
TEST_F(DockerPromotionTest, AZeroSignatureIsAnIntegrityViolation) {
  DockerPromotion zero = promotion_;
  zero.signature = "base64:" + std::string(86, 'A') + "==";
  expect_error(verify(zero), ErrorCode::kIntegrityViolation, "does not verify");
}

TEST_F(DockerPromotionTest, AnAlteredBuilderIdIsAnIntegrityViolation) {
  DockerPromotion altered = promotion_;
  altered.statement.builder_id = "ci.example/other";
  expect_error(verify(altered), ErrorCode::kIntegrityViolation, "does not verify");
}

TEST_F(DockerPromotionTest, AnotherKeyIsAnIntegrityViolation) {
  DockerPromotion other = promotion_;
  other.public_key = testing::ed25519_key_pair().public_key;
  expect_error(verify(other), ErrorCode::kIntegrityViolation);
}

// A proof that verifies with its own key is worth nothing: anyone can make one. Only the key the
// host pinned counts.
TEST_F(DockerPromotionTest, AProofSignedByAnyOtherKeyIsAnIntegrityViolation) {
  const testing::PemKeyPair attacker = testing::ed25519_key_pair();
  DockerPromotionRequest request = clean_request(attacker);
  Result<DockerPromotion> forged = issue_docker_promotion(request, kNow);
  ASSERT_TRUE(forged.ok()) << forged.error().message;
  expect_error(verify(*forged), ErrorCode::kIntegrityViolation, "other than the pinned");
  // The same proof against its own key verifies: the pin is what makes the difference.
  EXPECT_TRUE(verify_docker_promotion(*forged,
                                      {.image = kSubjectImage, .provenance = kSubjectProvenance},
                                      attacker.public_key, kDefaultMaxScanAge, kNow)
                  .ok());
  // A pinned key that is not an Ed25519 public key is a configuration error.
  Result<DockerPromotionStatement> rsa = verify_docker_promotion(
      promotion_, {.image = kSubjectImage, .provenance = kSubjectProvenance},
      testing::rsa_key_pair().public_key, kDefaultMaxScanAge, kNow);
  ASSERT_FALSE(rsa.ok());
  EXPECT_EQ(rsa.error().code, ErrorCode::kInvalidConfig);
}

TEST_F(DockerPromotionTest, AnotherImageIsAnIntegrityViolation) {
  Result<DockerPromotionStatement> result = verify_docker_promotion(
      promotion_, {.image = "sha256:" + std::string(64, 'c'), .provenance = kSubjectProvenance},
      key_.public_key, kDefaultMaxScanAge, kNow);
  expect_error(result, ErrorCode::kIntegrityViolation, "another image");
  result = verify_docker_promotion(
      promotion_, {.image = kSubjectImage, .provenance = "sha256:" + std::string(64, 'c')},
      key_.public_key, kDefaultMaxScanAge, kNow);
  expect_error(result, ErrorCode::kIntegrityViolation);
}

TEST_F(DockerPromotionTest, AFindingIsPermissionDeniedEvenWhenSigned) {
  const DockerPromotion high = resigned(
      promotion_, key_, [](DockerPromotionStatement& statement) { statement.scan.high = 1; });
  expect_error(verify(high), ErrorCode::kPermissionDenied, "1 high");
  const DockerPromotion unknown = resigned(
      promotion_, key_, [](DockerPromotionStatement& statement) { statement.scan.unknown = 2; });
  expect_error(verify(unknown), ErrorCode::kPermissionDenied, "2 unknown");
  // The signature is checked first: the same finding under a broken signature is an integrity
  // violation.
  DockerPromotion unsigned_high = promotion_;
  unsigned_high.statement.scan.high = 1;
  expect_error(verify(unsigned_high), ErrorCode::kIntegrityViolation);
}

// A statement is only as good as the scan behind it: one that says its scan did not succeed is
// refused even when validly signed, and so is a v1 statement, which does not say (the promote of
// that time signed failed scans as clean).
TEST_F(DockerPromotionTest, AStatementOfAScanThatDidNotSucceedIsPermissionDenied) {
  const DockerPromotion failed =
      resigned(promotion_, key_,
               [](DockerPromotionStatement& statement) { statement.scan.succeeded = false; });
  expect_error(verify(failed), ErrorCode::kPermissionDenied, "scan.succeeded is false");
}

TEST_F(DockerPromotionTest, AVersionOneStatementIsRefused) {
  const std::string v1 =
      R"({"format":"codemode-docker-promotion-v1","subject":{"image":")" + kSubjectImage +
      R"(","provenance":")" + kSubjectProvenance +
      R"("},"builderId":"ci.example/builder","scan":{"scannerId":"trivy",)"
      R"("scannerVersion":"0.50.1","reportDigest":"sha256:)" +
      std::string(64, 'c') +
      R"(","completedAt":"2026-06-01T11:00:00.000Z","critical":0,"high":0,"unknown":0},)"
      R"("issuedAt":"2026-06-01T11:30:00.000Z","expiresAt":"2026-06-02T11:30:00.000Z"})";
  const Json proof{{"statement", Json::parse(v1)},
                   {"signature", internal::encode_signature_text(
                                     internal::ed25519_sign(key_.private_key, v1).value())},
                   {"publicKey", key_.public_key}};
  Result<DockerPromotion> parsed = parse_docker_promotion(proof.dump());
  ASSERT_FALSE(parsed.ok()) << "a v1 statement was accepted";
  EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(parsed.error().rule, "docker_promotion");
  EXPECT_NE(parsed.error().message.find("promote the image again"), std::string::npos)
      << parsed.error().message;
}

TEST_F(DockerPromotionTest, AScanOlderThanMaxScanAgeIsPermissionDenied) {
  expect_error(verify(promotion_, 1ms), ErrorCode::kPermissionDenied, "older than maxScanAgeMs");
}

TEST_F(DockerPromotionTest, AnExpiredStatementIsPermissionDenied) {
  expect_error(verify(promotion_, kDefaultMaxScanAge, at("2026-06-02T11:30:00")),
               ErrorCode::kPermissionDenied, "expired at 2026-06-02T11:30:00.000Z");
}

TEST_F(DockerPromotionTest, AStatementNotYetValidIsPermissionDenied) {
  expect_error(verify(promotion_, kDefaultMaxScanAge, at("2026-06-01T11:29:59")),
               ErrorCode::kPermissionDenied, "not valid until");
}

TEST_F(DockerPromotionTest, AMaxScanAgeOutsideItsRangeIsInvalidConfig) {
  expect_error(verify(promotion_, 0ms), ErrorCode::kInvalidConfig, "maxScanAgeMs");
  expect_error(verify(promotion_, kMaxMaxScanAge + 1ms), ErrorCode::kInvalidConfig);
  EXPECT_TRUE(verify(promotion_, kMaxMaxScanAge).ok());
}

TEST_F(DockerPromotionTest, AnExtraStatementKeyIsInvalidConfig) {
  Json proof = Json::parse(docker_promotion_json(promotion_));
  proof["statement"]["note"] = "trust me";
  Result<DockerPromotion> parsed = parse_docker_promotion(proof.dump());
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidConfig);
  proof = Json::parse(docker_promotion_json(promotion_));
  proof["extra"] = 1;
  EXPECT_EQ(parse_docker_promotion(proof.dump()).error().code, ErrorCode::kInvalidConfig);
}

// JavaScript's "accessor" case: data that reads two ways. In JSON that is a key given twice.
TEST_F(DockerPromotionTest, AmbiguousDataIsInvalidConfig) {
  std::string text = docker_promotion_json(promotion_);
  const std::string builder = R"("builderId":"ci.example/builder")";
  text.replace(text.find(builder), builder.size(), builder + R"(,"builderId":"ci.example/other")");
  Result<DockerPromotion> parsed = parse_docker_promotion(text);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().code, ErrorCode::kInvalidConfig);
}

TEST_F(DockerPromotionTest, MalformedFieldsAreInvalidConfigBeforeTheSignature) {
  const auto refused = [&](auto change) {
    DockerPromotion changed = promotion_;
    change(changed);
    Result<DockerPromotionStatement> result = verify(changed);
    return !result.ok() && result.error().code == ErrorCode::kInvalidConfig;
  };
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.statement.subject.image = "sha256:bad"; }));
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.statement.builder_id = "-flag"; }));
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.statement.scan.high = -1; }));
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.statement.scan.high = kMaxSafeInteger + 1; }));
  EXPECT_TRUE(
      refused([](DockerPromotion& p) { p.statement.issued_at = "2026-02-30T00:00:00.000Z"; }));
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.statement.issued_at = "2026-06-01T11:30:00Z"; }));
  EXPECT_TRUE(
      refused([](DockerPromotion& p) { p.statement.issued_at = "2026-06-01T11:30:00.000+00:00"; }));
  // completedAt <= issuedAt < expiresAt
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.statement.expires_at = p.statement.issued_at; }));
  EXPECT_TRUE(refused(
      [](DockerPromotion& p) { p.statement.scan.completed_at = "2026-06-01T11:30:00.001Z"; }));
  // The signature text: canonical base64 of exactly 64 bytes.
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.signature = "base64:AAAA"; }));
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.signature.erase(0, 7); }));
  EXPECT_TRUE(refused([](DockerPromotion& p) {
    p.signature = "base64:" + std::string(85, 'A') + "B==";  // stray bits in the last character
  }));
  // The key: PEM SubjectPublicKeyInfo, 80..4096 characters, Ed25519 only.
  EXPECT_TRUE(refused([](DockerPromotion& p) { p.public_key = "short"; }));
  EXPECT_TRUE(refused([&](DockerPromotion& p) { p.public_key = key_.private_key; }));
  EXPECT_TRUE(
      refused([](DockerPromotion& p) { p.public_key = testing::rsa_key_pair().public_key; }));
}

// Case 6: issuance only from an empty, bounded SARIF report and an Ed25519 key.
TEST_F(DockerPromotionTest, IssuanceNeedsACleanBoundedSarifReport) {
  DockerPromotionRequest request = clean_request(key_);
  const auto code = [&](const std::string& sarif) {
    request.sarif = sarif;
    Result<DockerPromotion> issued = issue_docker_promotion(request, kNow);
    return issued.ok() ? ErrorCode::kIntegrityViolation : issued.error().code;
  };
  EXPECT_EQ(code("not json"), ErrorCode::kInvalidConfig);
  EXPECT_EQ(code("{"), ErrorCode::kInvalidConfig);
  EXPECT_EQ(code(R"({"version":"2.0.0","runs":[{"results":[]}]})"), ErrorCode::kInvalidConfig);
  EXPECT_EQ(code(R"({"version":"2.1.0","runs":[]})"), ErrorCode::kInvalidConfig);
  EXPECT_EQ(code(R"({"version":"2.1.0","runs":[{"results":[]}],"inlineExternalProperties":[]})"),
            ErrorCode::kInvalidConfig);
  EXPECT_EQ(
      code(R"({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Trivy"}},"results":[{}]}]})"),
      ErrorCode::kPermissionDenied);
  EXPECT_EQ(code(R"({"version":"2.1.0","runs":[{"tool":{}}]})"), ErrorCode::kPermissionDenied);
  std::string seventeen_runs = R"({"version":"2.1.0","runs":[)";
  for (int i = 0; i < 17; ++i) {
    seventeen_runs +=
        std::string(i ? "," : "") + R"({"tool":{"driver":{"name":"Trivy"}},"results":[]})";
  }
  EXPECT_EQ(code(seventeen_runs + "]}"), ErrorCode::kInvalidConfig);
}

// A scanner that failed can still write a well-formed report with empty results: what the report
// says about the scan's own run decides (src/sandbox/docker/sarif_scan.h).
TEST_F(DockerPromotionTest, IssuanceRefusesAFailedOrIncompleteScan) {
  DockerPromotionRequest request = clean_request(key_);
  const auto refusal = [&](const std::string& run) {
    request.sarif =
        R"({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Trivy"}},"results":[]},)" + run +
        "]}";
    Result<DockerPromotion> issued = issue_docker_promotion(request, kNow);
    if (issued.ok()) return std::string("issued");
    EXPECT_EQ(issued.error().code, ErrorCode::kPermissionDenied) << issued.error().message;
    EXPECT_EQ(issued.error().rule, "docker_promotion");
    return issued.error().message;
  };
  const std::string driver = R"("tool":{"driver":{"name":"Trivy"}},"results":[])";
  const auto invocation = [&](const std::string& fields) {
    return "{" + driver + R"(,"invocations":[{"executionSuccessful":true},{)" + fields + "}]}";
  };
  const std::map<std::string, std::string> cases = {
      {invocation(R"("executionSuccessful":false)"),
       "SARIF run 2 invocation 2 is not executionSuccessful: true"},
      {invocation(R"("executionSuccessful":"true")"), "is not executionSuccessful: true"},
      {invocation(""), "is not executionSuccessful: true"},
      {invocation(R"("executionSuccessful":true,"toolExecutionNotifications":[)"
                  R"({"level":"warning","message":{"text":"slow"}},)"
                  R"({"level":"error","message":{"text":"database download failed"}}])"),
       "has an error among its toolExecutionNotifications"},
      {invocation(R"("executionSuccessful":true,"toolConfigurationNotifications":[)"
                  R"({"level":"error","message":{"text":"no such scanner"}}])"),
       "has an error among its toolConfigurationNotifications"},
      {invocation(R"("executionSuccessful":true,"exitCode":2)"), "exitCode other than 0"},
      {invocation(R"("executionSuccessful":true,"exitSignalName":"SIGKILL")"), "ended by a signal"},
      {"{" + driver + R"(,"invocations":{"executionSuccessful":true}})", "not an array"},
      {R"({"tool":{"driver":{}},"results":[]})", "does not name its scanner"},
      {R"({"results":[]})", "does not name its scanner"},
      {R"({"tool":{"driver":{"name":"Trivy"}}})", "has no results array"},
  };
  for (const auto& [run, rule] : cases) {
    const std::string message = refusal(run);
    EXPECT_NE(message.find(rule), std::string::npos) << run << " -> " << message;
    if (message != "issued") {
      EXPECT_NE(message.find("never a clean one"), std::string::npos) << message;
    }
  }
  // What a successful scan may say of itself: warnings, an exit code of 0.
  request.sarif =
      R"({"version":"2.1.0","runs":[{"tool":{"driver":{"name":"Trivy"}},"results":[],)"
      R"("invocations":[{"executionSuccessful":true,"exitCode":0,"toolExecutionNotifications":[)"
      R"({"level":"warning","message":{"text":"the database is a day old"}},)"
      R"({"message":{"text":"no level is a warning"}}]}]}]})";
  Result<DockerPromotion> issued = issue_docker_promotion(request, kNow);
  ASSERT_TRUE(issued.ok()) << issued.error().message;
  EXPECT_TRUE(issued->statement.scan.succeeded);
}

TEST_F(DockerPromotionTest, IssuanceRefusesAnRsaKey) {
  DockerPromotionRequest request = clean_request(key_);
  request.private_key = testing::rsa_key_pair().private_key;
  Result<DockerPromotion> issued = issue_docker_promotion(request, kNow);
  ASSERT_FALSE(issued.ok());
  EXPECT_EQ(issued.error().code, ErrorCode::kInvalidConfig);
  request.private_key = key_.public_key;
  EXPECT_EQ(issue_docker_promotion(request, kNow).error().code, ErrorCode::kInvalidConfig);
}

}  // namespace
}  // namespace codemode
