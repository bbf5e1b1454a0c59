// Verifying and issuing Docker promotions (include/codemode/docker_promotion.h). The checks run in
// the order of docs/docker.md's table, the first failure being the error: configuration, shape,
// signature, subject, findings, time (with the scan's success checked before its findings).
#include "codemode/docker_promotion.h"

#include <utility>

#include "codemode/json.h"

#include "core/crypto/ed25519.h"
#include "core/time/utc_millis.h"
#include "sandbox/docker/promotion_statement.h"
#include "sandbox/docker/sarif_scan.h"

namespace codemode {
namespace {

using internal::promotion_config_error;

constexpr std::size_t kMinPrivateKeyChars = 80;
constexpr std::size_t kMaxPrivateKeyChars = 16384;

Error integrity_error(std::string message) {
  return Error::integrity_violation(rules::kDockerPromotion, std::move(message));
}

Error denied(std::string message) {
  return Error::permission_denied(rules::kDockerPromotion,
                                  "Promotion is denied: " + std::move(message));
}

}  // namespace

Result<DockerPromotionStatement> verify_docker_promotion(
    const DockerPromotion& promotion, const DockerImageSubject& subject,
    std::string_view pinned_public_key, std::chrono::milliseconds max_scan_age,
    std::chrono::system_clock::time_point now) {
  using internal::format_utc_millis;
  using internal::parse_utc_millis;
  if (max_scan_age < std::chrono::milliseconds(1) || max_scan_age > kMaxMaxScanAge) {
    return promotion_config_error("maxScanAgeMs must be an integer from 1 to 604800000.");
  }
  if (Status shape = internal::check_promotion_shape(promotion); !shape.ok()) {
    return std::move(shape).error();
  }
  const std::optional<std::string> pinned = internal::ed25519_public_key_der(pinned_public_key);
  if (!pinned) {
    return promotion_config_error(
        "the pinned public key must be a PEM SubjectPublicKeyInfo Ed25519 key.");
  }
  const std::optional<std::string> offered = internal::ed25519_public_key_der(promotion.public_key);
  if (!offered) {
    return promotion_config_error("publicKey must be a PEM SubjectPublicKeyInfo Ed25519 key.");
  }
  if (*offered != *pinned) {
    return integrity_error(
        "The Docker promotion is signed by a key other than the pinned public key.");
  }
  const std::string signature = *internal::decode_signature_text(promotion.signature);
  switch (internal::ed25519_verify(pinned_public_key,
                                   internal::statement_bytes(promotion.statement), signature)) {
    case internal::Ed25519Check::kValid:
      break;
    case internal::Ed25519Check::kKeyRefused:
      return promotion_config_error(
          "the pinned public key must be a PEM SubjectPublicKeyInfo Ed25519 key.");
    case internal::Ed25519Check::kInvalid:
      return integrity_error(
          "The Docker promotion signature does not verify with the pinned public key; the "
          "statement was altered or signed by another key.");
  }
  const DockerPromotionStatement& statement = promotion.statement;
  if (statement.subject != subject) {
    return integrity_error(
        "The Docker promotion names another image or provenance than this adapter runs.");
  }
  const DockerScanSummary& scan = statement.scan;
  if (!scan.succeeded) {
    return denied(
        "the statement says its scan did not succeed (scan.succeeded is false); a failed or "
        "incomplete scan is never a clean one.");
  }
  if (scan.critical > 0 || scan.high > 0 || scan.unknown > 0) {
    return denied("the scan found " + std::to_string(scan.critical) + " critical, " +
                  std::to_string(scan.high) + " high and " + std::to_string(scan.unknown) +
                  " unknown vulnerabilities.");
  }
  const auto at = std::chrono::floor<std::chrono::milliseconds>(now);
  if (at < *parse_utc_millis(statement.issued_at)) {
    return denied("the statement is not valid until " + statement.issued_at + ".");
  }
  if (at >= *parse_utc_millis(statement.expires_at)) {
    return denied("the statement expired at " + statement.expires_at + ".");
  }
  if (at - *parse_utc_millis(scan.completed_at) > max_scan_age) {
    return denied("the scan completed at " + scan.completed_at + " is older than maxScanAgeMs (" +
                  std::to_string(max_scan_age.count()) + ") at " + format_utc_millis(at) + ".");
  }
  return statement;
}

Result<DockerPromotion> issue_docker_promotion(const DockerPromotionRequest& request,
                                               std::chrono::system_clock::time_point now) {
  if (Status sarif = internal::check_clean_scan(request.sarif); !sarif.ok()) {
    return std::move(sarif).error();
  }
  if (request.private_key.size() < kMinPrivateKeyChars ||
      request.private_key.size() > kMaxPrivateKeyChars) {
    return promotion_config_error("privateKey must be a PEM key of 80 to 16384 characters.");
  }
  DockerPromotionStatement statement{
      .subject = request.subject,
      .builder_id = request.builder_id,
      .scan = {.scanner_id = request.scanner_id,
               .scanner_version = request.scanner_version,
               .report_digest = "sha256:" + sha256_hex(request.sarif),
               .completed_at = request.completed_at,
               .succeeded = true},  // check_clean_scan passed
      .issued_at = request.issued_at,
      .expires_at = request.expires_at};
  Result<std::string> bytes = serialize_docker_promotion(statement);
  if (!bytes.ok()) return std::move(bytes).error();
  const std::optional<std::string> signature = internal::ed25519_sign(request.private_key, *bytes);
  if (!signature) {
    return promotion_config_error("privateKey must be an unencrypted PEM PKCS#8 Ed25519 key.");
  }
  std::optional<std::string> public_key = internal::ed25519_public_key_pem(request.private_key);
  if (!public_key) {
    return promotion_config_error("privateKey must be an unencrypted PEM PKCS#8 Ed25519 key.");
  }
  DockerPromotion promotion{.statement = std::move(statement),
                            .signature = internal::encode_signature_text(*signature),
                            .public_key = std::move(*public_key)};
  Result<DockerPromotionStatement> verified = verify_docker_promotion(
      promotion, request.subject, promotion.public_key, kDefaultMaxScanAge, now);
  if (!verified.ok()) return std::move(verified).error();
  return promotion;
}

}  // namespace codemode
