#include "sandbox/docker/promotion_statement.h"

#include <utility>

#include "codemode/json.h"

#include "core/crypto/ed25519.h"
#include "core/json/json_keys.h"
#include "core/text/identifiers.h"
#include "core/time/utc_millis.h"

namespace codemode {
namespace internal {
namespace {

constexpr std::size_t kMinPublicKeyChars = 80;
constexpr std::size_t kMaxPublicKeyChars = 4096;
constexpr std::size_t kMaxIdChars = 256;
// A proof is a few hundred bytes; this bounds what parse_docker_promotion reads.
constexpr std::size_t kMaxProofBytes = 64u << 10;

// ^[A-Za-z0-9][A-Za-z0-9._:/-]{0,255}$
bool is_promotion_id(std::string_view text) { return is_plain_name(text, kMaxIdChars, "._:/-"); }

Status check_id(std::string_view value, const char* field) {
  if (is_promotion_id(value)) return Status();
  return promotion_config_error(std::string(field) +
                                " must match ^[A-Za-z0-9][A-Za-z0-9._:/-]{0,255}$.");
}

Status check_digest(std::string_view value, const char* field) {
  if (is_sha256_digest(value)) return Status();
  return promotion_config_error(std::string(field) +
                                " must be sha256: and 64 lowercase hex digits.");
}

Status check_count(std::int64_t value, const char* field) {
  if (value >= 0 && value <= kMaxSafeInteger) return Status();
  return promotion_config_error(std::string(field) + " must be a non-negative safe integer.");
}

Status check_time(std::string_view value, const char* field) {
  if (parse_utc_millis(value)) return Status();
  return promotion_config_error(std::string(field) +
                                " must be a UTC time with milliseconds, as "
                                "2026-01-01T00:00:00.000Z.");
}

std::string json_quoted(std::string_view text) { return Json(std::string(text)).dump(); }

// The member `name` of `object` when it is a string; nullopt otherwise.
const std::string* string_member(const Json& object, const char* name) {
  if (!object.contains(name) || !object.at(name).is_string()) return nullptr;
  return &object.at(name).get_ref<const std::string&>();
}

Result<std::int64_t> count_member(const Json& object, const char* name) {
  if (!object.contains(name) || !object.at(name).is_number_integer()) {
    return promotion_config_error(std::string("statement.scan.") + name +
                                  " must be a non-negative safe integer.");
  }
  return object.at(name).get<std::int64_t>();
}

Result<DockerPromotionStatement> statement_from_json(const Json& json) {
  if (!json.is_object() ||
      !only_keys(json, {"format", "subject", "builderId", "scan", "issuedAt", "expiresAt"})) {
    return promotion_config_error(
        "statement must hold exactly format, subject, builderId, scan, issuedAt and expiresAt.");
  }
  const std::string* format = string_member(json, "format");
  if (format == nullptr || *format != kPromotionFormat) {
    return promotion_config_error(
        "statement.format must be \"" + std::string(kPromotionFormat) +
        "\" (a v1 statement does not say whether its scan succeeded: promote the image again).");
  }
  DockerPromotionStatement statement;
  const Json* subject = json.contains("subject") ? &json.at("subject") : nullptr;
  if (subject == nullptr || !subject->is_object() ||
      !only_keys(*subject, {"image", "provenance"}) || !string_member(*subject, "image") ||
      !string_member(*subject, "provenance")) {
    return promotion_config_error("statement.subject must hold exactly image and provenance.");
  }
  statement.subject = {.image = *string_member(*subject, "image"),
                       .provenance = *string_member(*subject, "provenance")};
  const Json* scan = json.contains("scan") ? &json.at("scan") : nullptr;
  if (scan == nullptr || !scan->is_object() ||
      !only_keys(*scan, {"scannerId", "scannerVersion", "reportDigest", "completedAt", "succeeded",
                         "critical", "high", "unknown"}) ||
      !string_member(*scan, "scannerId") || !string_member(*scan, "scannerVersion") ||
      !string_member(*scan, "reportDigest") || !string_member(*scan, "completedAt") ||
      !scan->contains("succeeded") || !scan->at("succeeded").is_boolean()) {
    return promotion_config_error(
        "statement.scan must hold exactly scannerId, scannerVersion, reportDigest, completedAt, "
        "succeeded (a boolean), critical, high and unknown.");
  }
  statement.scan.scanner_id = *string_member(*scan, "scannerId");
  statement.scan.scanner_version = *string_member(*scan, "scannerVersion");
  statement.scan.report_digest = *string_member(*scan, "reportDigest");
  statement.scan.completed_at = *string_member(*scan, "completedAt");
  statement.scan.succeeded = scan->at("succeeded").get<bool>();
  for (auto [name, count] :
       {std::pair{"critical", &statement.scan.critical}, std::pair{"high", &statement.scan.high},
        std::pair{"unknown", &statement.scan.unknown}}) {
    Result<std::int64_t> value = count_member(*scan, name);
    if (!value.ok()) return std::move(value).error();
    *count = *value;
  }
  for (auto [name, field] :
       {std::pair{"builderId", &statement.builder_id}, std::pair{"issuedAt", &statement.issued_at},
        std::pair{"expiresAt", &statement.expires_at}}) {
    const std::string* value = string_member(json, name);
    if (value == nullptr) {
      return promotion_config_error(std::string("statement.") + name + " must be a string.");
    }
    *field = *value;
  }
  return statement;
}

}  // namespace

Error promotion_config_error(std::string message) {
  return Error::invalid_config(rules::kDockerPromotion,
                               "The Docker promotion is malformed: " + std::move(message));
}

bool is_sha256_digest(std::string_view text) {
  constexpr std::string_view kPrefix = "sha256:";
  if (text.size() != kPrefix.size() + 64 || !text.starts_with(kPrefix)) return false;
  for (const char c : text.substr(kPrefix.size())) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

Status check_statement_shape(const DockerPromotionStatement& statement) {
  for (Status status : {check_digest(statement.subject.image, "statement.subject.image"),
                        check_digest(statement.subject.provenance, "statement.subject.provenance"),
                        check_id(statement.builder_id, "statement.builderId"),
                        check_id(statement.scan.scanner_id, "statement.scan.scannerId"),
                        check_id(statement.scan.scanner_version, "statement.scan.scannerVersion"),
                        check_digest(statement.scan.report_digest, "statement.scan.reportDigest"),
                        check_time(statement.scan.completed_at, "statement.scan.completedAt"),
                        check_count(statement.scan.critical, "statement.scan.critical"),
                        check_count(statement.scan.high, "statement.scan.high"),
                        check_count(statement.scan.unknown, "statement.scan.unknown"),
                        check_time(statement.issued_at, "statement.issuedAt"),
                        check_time(statement.expires_at, "statement.expiresAt")}) {
    if (!status.ok()) return status;
  }
  const UtcMillis completed = *parse_utc_millis(statement.scan.completed_at);
  const UtcMillis issued = *parse_utc_millis(statement.issued_at);
  const UtcMillis expires = *parse_utc_millis(statement.expires_at);
  if (!(completed <= issued && issued < expires)) {
    return promotion_config_error("its times must be completedAt <= issuedAt < expiresAt.");
  }
  return Status();
}

Status check_promotion_shape(const DockerPromotion& promotion) {
  if (Status statement = check_statement_shape(promotion.statement); !statement.ok()) {
    return statement;
  }
  if (!decode_signature_text(promotion.signature)) {
    return promotion_config_error(
        "signature must be base64: and the canonical base64 of a 64-byte Ed25519 signature.");
  }
  if (promotion.public_key.size() < kMinPublicKeyChars ||
      promotion.public_key.size() > kMaxPublicKeyChars) {
    return promotion_config_error("publicKey must be a PEM public key of 80 to 4096 characters.");
  }
  return Status();
}

std::string statement_bytes(const DockerPromotionStatement& statement) {
  const DockerScanSummary& scan = statement.scan;
  return R"({"format":)" + json_quoted(kPromotionFormat) + R"(,"subject":{"image":)" +
         json_quoted(statement.subject.image) + R"(,"provenance":)" +
         json_quoted(statement.subject.provenance) + R"(},"builderId":)" +
         json_quoted(statement.builder_id) + R"(,"scan":{"scannerId":)" +
         json_quoted(scan.scanner_id) + R"(,"scannerVersion":)" +
         json_quoted(scan.scanner_version) + R"(,"reportDigest":)" +
         json_quoted(scan.report_digest) + R"(,"completedAt":)" + json_quoted(scan.completed_at) +
         R"(,"succeeded":)" + (scan.succeeded ? "true" : "false") + R"(,"critical":)" +
         std::to_string(scan.critical) + R"(,"high":)" + std::to_string(scan.high) +
         R"(,"unknown":)" + std::to_string(scan.unknown) + R"(},"issuedAt":)" +
         json_quoted(statement.issued_at) + R"(,"expiresAt":)" + json_quoted(statement.expires_at) +
         "}";
}

}  // namespace internal

Result<std::string> serialize_docker_promotion(const DockerPromotionStatement& statement) {
  if (Status shape = internal::check_statement_shape(statement); !shape.ok()) {
    return std::move(shape).error();
  }
  return internal::statement_bytes(statement);
}

Result<DockerPromotion> parse_docker_promotion(std::string_view json_text) {
  using internal::promotion_config_error;
  Result<Json> json = parse_json(json_text, {.max_bytes = internal::kMaxProofBytes});
  if (!json.ok())
    return promotion_config_error("it is not one plain JSON object (" + json.error().message + ")");
  if (!json->is_object() || !internal::only_keys(*json, {"statement", "signature", "publicKey"}) ||
      !json->contains("statement") || !internal::string_member(*json, "signature") ||
      !internal::string_member(*json, "publicKey")) {
    return promotion_config_error("a proof holds exactly statement, signature and publicKey.");
  }
  Result<DockerPromotionStatement> statement = internal::statement_from_json(json->at("statement"));
  if (!statement.ok()) return std::move(statement).error();
  DockerPromotion promotion{.statement = std::move(*statement),
                            .signature = *internal::string_member(*json, "signature"),
                            .public_key = *internal::string_member(*json, "publicKey")};
  if (Status shape = internal::check_promotion_shape(promotion); !shape.ok()) {
    return std::move(shape).error();
  }
  return promotion;
}

std::string docker_promotion_json(const DockerPromotion& promotion) {
  return R"({"statement":)" + internal::statement_bytes(promotion.statement) + R"(,"signature":)" +
         internal::json_quoted(promotion.signature) + R"(,"publicKey":)" +
         internal::json_quoted(promotion.public_key) + "}";
}

}  // namespace codemode
