// A Docker image's promotion: an Ed25519-signed statement that a named image had a clean
// vulnerability scan, which the promoted Docker adapter (docker_adapter.h) checks before it runs
// anything in that image. codemode provides no scanner, key authority, transparency log or
// revocation: the host's CI scans and signs with its own key (issue_docker_promotion, or
// `codemode docker promote`); the host pins the CI's public key in its own configuration, apart
// from the proofs the CI ships, so a proof signed by any other key never verifies.
//
// Statement, serialized as compact JSON in exactly this field order (the bytes that are signed):
//   {"format":"codemode-docker-promotion-v2",
//    "subject":{"image":"sha256:<64 hex>","provenance":"sha256:<64 hex>"},
//    "builderId":ID,
//    "scan":{"scannerId":ID,"scannerVersion":ID,"reportDigest":"sha256:<64 hex>",
//            "completedAt":TIME,"succeeded":BOOL,"critical":N,"high":N,"unknown":N},
//    "issuedAt":TIME,"expiresAt":TIME}
//   ID: ^[A-Za-z0-9][A-Za-z0-9._:/-]{0,255}$; hex lowercase; N: 0..2^53-1; TIME: UTC with
//   milliseconds, "2026-01-01T00:00:00.000Z" exactly; completedAt <= issuedAt < expiresAt.
// Proof, as JSON: {"statement":{...},"signature":"base64:<64-byte Ed25519 signature>",
//                  "publicKey":"<PEM SubjectPublicKeyInfo of an Ed25519 key>"}
//
// Verification, in this order (docs/docker.md has the why of each):
//   max_scan_age outside 1 ms .. 7 days, a malformed statement or proof,
//   a pinned key that is not an Ed25519 SubjectPublicKeyInfo                INVALID_CONFIG
//   a proof whose publicKey is not the pinned key                          INTEGRITY_VIOLATION
//   a signature that does not verify with the pinned key                   INTEGRITY_VIOLATION
//   a subject other than the adapter's image and provenance               INTEGRITY_VIOLATION
//   a scan that did not succeed (scan.succeeded false)                    PERMISSION_DENIED
//   any critical, high or unknown finding                                 PERMISSION_DENIED
//   now < issuedAt ("not valid until"), now >= expiresAt ("expired at"),
//   now - completedAt > max_scan_age ("older than maxScanAgeMs")          PERMISSION_DENIED
// Every error's rule is "docker_promotion".
//
// Thread-safety: plain values and pure functions.
#ifndef CODEMODE_DOCKER_PROMOTION_H_
#define CODEMODE_DOCKER_PROMOTION_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/export.h"

namespace codemode {

struct DockerImageSubject {
  std::string image;       // "sha256:<64 hex>", the local image id
  std::string provenance;  // "sha256:<64 hex>", the digest of the SPDX document in the image
  friend bool operator==(const DockerImageSubject&, const DockerImageSubject&) = default;
};

struct DockerScanSummary {
  std::string scanner_id;
  std::string scanner_version;
  std::string report_digest;  // "sha256:" + hex(SHA-256 of the SARIF report)
  std::string completed_at;
  // Whether the scan ran to completion (its report says so: docs/docker.md). Never true for a
  // failed or incomplete scan, whose statement verify refuses.
  bool succeeded = false;
  std::int64_t critical = 0;
  std::int64_t high = 0;
  std::int64_t unknown = 0;
  friend bool operator==(const DockerScanSummary&, const DockerScanSummary&) = default;
};

struct DockerPromotionStatement {
  DockerImageSubject subject;
  std::string builder_id;
  DockerScanSummary scan;
  std::string issued_at;
  std::string expires_at;
  friend bool operator==(const DockerPromotionStatement&,
                         const DockerPromotionStatement&) = default;
};

struct DockerPromotion {
  DockerPromotionStatement statement;
  std::string signature;   // "base64:" + base64 of the 64-byte signature
  std::string public_key;  // PEM SubjectPublicKeyInfo, 80..4096 characters, Ed25519
  friend bool operator==(const DockerPromotion&, const DockerPromotion&) = default;
};

inline constexpr std::chrono::milliseconds kDefaultMaxScanAge = std::chrono::hours(24);
inline constexpr std::chrono::milliseconds kMaxMaxScanAge = std::chrono::hours(24 * 7);

// The signed bytes of `statement`, after checking its shape (INVALID_CONFIG).
CODEMODE_EXPORT Result<std::string> serialize_docker_promotion(
    const DockerPromotionStatement& statement);

// A proof from its JSON text: exactly the fields above, no others, no duplicate key
// (INVALID_CONFIG). The signature is not checked here.
CODEMODE_EXPORT Result<DockerPromotion> parse_docker_promotion(std::string_view json_text);

// The proof as compact JSON, for parse_docker_promotion.
CODEMODE_EXPORT std::string docker_promotion_json(const DockerPromotion& promotion);

// The statement of `promotion` when every check above passes at `now`. `pinned_public_key` is the
// PEM of the CI's key as the host configured it (never taken from the proof).
CODEMODE_EXPORT Result<DockerPromotionStatement> verify_docker_promotion(
    const DockerPromotion& promotion, const DockerImageSubject& subject,
    std::string_view pinned_public_key, std::chrono::milliseconds max_scan_age = kDefaultMaxScanAge,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

struct DockerPromotionRequest {
  // The scanner's SARIF 2.1.0 report: 2 bytes .. 16 MiB of JSON whose root holds only version,
  // runs and $schema, with 1..16 runs. Each run names its scanner (tool.driver.name), has an own,
  // empty "results" array, and every invocation it reports succeeded (executionSuccessful true,
  // exit code 0 if given, no signal, no notification of level "error").
  std::string sarif;
  DockerImageSubject subject;
  std::string builder_id;
  std::string scanner_id;
  std::string scanner_version;
  std::string completed_at;
  std::string issued_at;
  std::string expires_at;
  std::string private_key;  // PEM PKCS#8 of an Ed25519 key, 80..16,384 characters
};

// A signed proof for a clean report (scan.succeeded true), verified (at `now`, with the key's own
// public half) before it is returned. A report with findings, or one that shows a failed or
// incomplete scan (the rules above): PERMISSION_DENIED, its message naming the run and the rule.
// Anything malformed, or a key that is not Ed25519: INVALID_CONFIG.
CODEMODE_EXPORT Result<DockerPromotion> issue_docker_promotion(
    const DockerPromotionRequest& request,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

}  // namespace codemode

#endif  // CODEMODE_DOCKER_PROMOTION_H_
