#include "cli/docker_subcommand.h"

#include <chrono>
#include <utility>

#include "codemode/docker_promotion.h"

#include "cli/cli_io.h"
#include "core/time/utc_millis.h"

namespace codemode::cli {
namespace {

constexpr std::size_t kMaxSarifFileBytes = 16u << 20;
constexpr std::size_t kMaxKeyFileBytes = 16u << 10;
constexpr std::size_t kMaxPromotionFileBytes = 64u << 10;

Json statement_json(const DockerPromotionStatement& statement) {
  // The signed bytes are compact JSON in a fixed order; printed here as plain JSON.
  return Json::parse(serialize_docker_promotion(statement).value());
}

int promote(const DockerArguments& arguments) {
  Result<std::string> sarif = read_file(arguments.sarif_path, kMaxSarifFileBytes, "--sarif");
  if (!sarif.ok()) {
    print_usage_error(sarif.error());
    return kExitUsageError;
  }
  Result<std::string> key =
      read_file(arguments.private_key_path, kMaxKeyFileBytes, "--private-key");
  if (!key.ok()) {
    print_usage_error(key.error());
    return kExitUsageError;
  }
  const auto now = std::chrono::floor<std::chrono::milliseconds>(std::chrono::system_clock::now());
  std::string issued_at =
      arguments.issued_at.empty() ? internal::format_utc_millis(now) : arguments.issued_at;
  std::string expires_at = arguments.expires_at;
  if (expires_at.empty()) {
    const std::optional<internal::UtcMillis> issued = internal::parse_utc_millis(issued_at);
    if (!issued) {
      print_usage_error(
          usage_error("--issued-at must be a UTC time like 2026-01-01T00:00:00.000Z."));
      return kExitUsageError;
    }
    expires_at = internal::format_utc_millis(*issued + std::chrono::hours(24));
  }
  Result<DockerPromotion> promotion = issue_docker_promotion(
      {.sarif = std::move(*sarif),
       .subject = {.image = arguments.image, .provenance = arguments.provenance},
       .builder_id = arguments.builder_id,
       .scanner_id = arguments.scanner_id,
       .scanner_version = arguments.scanner_version,
       .completed_at = arguments.completed_at,
       .issued_at = std::move(issued_at),
       .expires_at = std::move(expires_at),
       .private_key = std::move(*key)});
  if (!promotion.ok()) {
    print_usage_error(promotion.error());
    return promotion.error().code == ErrorCode::kInvalidConfig ? kExitUsageError : kExitFailed;
  }
  print_json_line(Json::parse(docker_promotion_json(*promotion)));
  return kExitSucceeded;
}

int verify(const DockerArguments& arguments) {
  Result<std::string> text =
      read_file(arguments.promotion_path, kMaxPromotionFileBytes, "--promotion");
  if (!text.ok()) {
    print_usage_error(text.error());
    return kExitUsageError;
  }
  Result<std::string> key = read_file(arguments.public_key_path, kMaxKeyFileBytes, "--public-key");
  if (!key.ok()) {
    print_usage_error(key.error());
    return kExitUsageError;
  }
  Result<DockerPromotion> promotion = parse_docker_promotion(*text);
  if (!promotion.ok()) {
    print_usage_error(promotion.error());
    return kExitFailed;
  }
  Result<DockerPromotionStatement> statement = verify_docker_promotion(
      *promotion, {.image = arguments.image, .provenance = arguments.provenance}, *key,
      std::chrono::milliseconds(arguments.max_scan_age_ms));
  if (!statement.ok()) {
    print_usage_error(statement.error());
    return kExitFailed;
  }
  print_json_line(statement_json(*statement));
  return kExitSucceeded;
}

}  // namespace

CLI::App* add_docker_subcommand(CLI::App& app, DockerArguments& arguments) {
  CLI::App* docker = app.add_subcommand(
      "docker",
      "Promotions for the promoted Docker adapter (docs/docker.md): sign that an image had a "
      "clean vulnerability scan, or check such a proof.");
  docker->require_subcommand(1);

  CLI::App* promote = docker->add_subcommand(
      "promote",
      "Sign a promotion from a clean SARIF 2.1.0 report (every run's results empty, every "
      "invocation it reports successful) with an Ed25519 key, and print the proof as one JSON "
      "line: {statement, signature, publicKey}. Refused with PERMISSION_DENIED (exit 1) when the "
      "report has findings or shows a failed or incomplete scan.");
  promote
      ->add_option("--sarif", arguments.sarif_path, "The scanner's SARIF report (at most 16 MiB).")
      ->required();
  promote
      ->add_option("--private-key", arguments.private_key_path,
                   "The CI's Ed25519 private key, unencrypted PEM PKCS#8 "
                   "(openssl genpkey -algorithm ed25519).")
      ->required();
  promote->add_option("--image", arguments.image, "The image id: sha256: and 64 hex digits.")
      ->required();
  promote
      ->add_option("--provenance", arguments.provenance,
                   "The image's SPDX digest (scripts/docker-image prints both).")
      ->required();
  promote->add_option("--builder-id", arguments.builder_id, "Who built the image.")->required();
  promote->add_option("--scanner-id", arguments.scanner_id, "The scanner's name.")->required();
  promote->add_option("--scanner-version", arguments.scanner_version, "The scanner's version.")
      ->required();
  promote
      ->add_option("--completed-at", arguments.completed_at,
                   "When the scan finished, UTC with milliseconds: 2026-01-01T00:00:00.000Z.")
      ->required();
  promote->add_option("--issued-at", arguments.issued_at, "Valid from (default: now).");
  promote->add_option("--expires-at", arguments.expires_at,
                      "Valid until, exclusive (default: 24 hours after --issued-at).");
  arguments.promote = promote;

  CLI::App* verify = docker->add_subcommand(
      "verify",
      "Check a proof now, as the promoted adapter does before every execution, and print its "
      "statement. INVALID_CONFIG, INTEGRITY_VIOLATION or PERMISSION_DENIED (exit 1) otherwise.");
  verify->add_option("--promotion", arguments.promotion_path, "The proof's JSON file.")->required();
  verify
      ->add_option("--public-key", arguments.public_key_path,
                   "The CI's public key the proof must be signed by, as the host pins it (PEM; "
                   "openssl pkey -in ci.key -pubout).")
      ->required();
  verify->add_option("--image", arguments.image, "The image id the adapter runs.")->required();
  verify->add_option("--provenance", arguments.provenance, "The image's SPDX digest.")->required();
  verify->add_option("--max-scan-age-ms", arguments.max_scan_age_ms,
                     "How old the scan may be: 1 to 604800000 (default 86400000).");
  arguments.verify = verify;
  return docker;
}

int run_docker_command(const DockerArguments& arguments) {
  if (arguments.promote != nullptr && arguments.promote->parsed()) return promote(arguments);
  if (arguments.verify != nullptr && arguments.verify->parsed()) return verify(arguments);
  return kExitUsageError;
}

}  // namespace codemode::cli
