// The shape of a Docker promotion (include/codemode/docker_promotion.h): every field's rule, the
// signed serialization, and the proof's JSON form. Signatures are checked in docker_promotion.cc.
#ifndef CODEMODE_SANDBOX_DOCKER_PROMOTION_STATEMENT_H_
#define CODEMODE_SANDBOX_DOCKER_PROMOTION_STATEMENT_H_

#include <string>
#include <string_view>

#include "codemode/docker_promotion.h"
#include "codemode/error.h"
#include "codemode/rules.h"

namespace codemode::internal {

// v2 added scan.succeeded: a v1 statement does not say whether its scan ran to completion (the
// promote of that time signed failed scans too), so it is refused, and the image promoted again.
inline constexpr std::string_view kPromotionFormat = "codemode-docker-promotion-v2";

Error promotion_config_error(std::string message);

// ^sha256:[a-f0-9]{64}$
bool is_sha256_digest(std::string_view text);

// INVALID_CONFIG naming the first statement field that breaks its rule.
Status check_statement_shape(const DockerPromotionStatement& statement);

// check_statement_shape, then the signature text and the public key's form (80..4096
// characters of PEM SubjectPublicKeyInfo; the algorithm is checked when it verifies).
Status check_promotion_shape(const DockerPromotion& promotion);

// The compact JSON of a statement whose shape was checked, fields in the fixed order.
std::string statement_bytes(const DockerPromotionStatement& statement);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_DOCKER_PROMOTION_STATEMENT_H_
