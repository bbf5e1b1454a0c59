#include "workflow/run/signed_decision.h"

#include <algorithm>
#include <utility>

#include "core/crypto/ed25519.h"

namespace codemode {

std::string decision_message(std::string_view run_id, std::string_view phase_id,
                             std::string_view digest, Decision decision,
                             std::string_view person_id) {
  Result<std::string> canonical =
      canonical_json(Json{{"runId", run_id},
                          {"phaseId", phase_id},
                          {"digest", digest},
                          {"decision", decision == Decision::kApprove ? "approve" : "reject"},
                          {"personId", person_id}});
  // Ids and digests are short plain strings; canonical_json refuses only unbounded or invalid
  // text, which the runtime refuses before it asks.
  return canonical.ok() ? "codemode:decision:v1\n" + *canonical : std::string();
}

Result<std::string> sign_decision(std::string_view private_key_pem, std::string_view message) {
  std::optional<std::string> signature = internal::ed25519_sign(private_key_pem, message);
  if (!signature || message.empty()) {
    return Error::invalid_config("approver_key",
                                 "The approver's key is not an unencrypted Ed25519 private key.");
  }
  return internal::encode_signature_text(*signature);
}

}  // namespace codemode

namespace codemode::internal {
namespace {

Error keys_error(std::string message) {
  return Error::invalid_config("workflow_runtime", std::move(message));
}

}  // namespace

Result<ApproverKeys> ApproverKeys::create(const std::map<std::string, std::string>& keys,
                                          const std::vector<std::string>& approvers) {
  ApproverKeys result;
  if (keys.empty()) return result;
  for (const auto& [person, pem] : keys) {
    if (std::find(approvers.begin(), approvers.end(), person) == approvers.end()) {
      return keys_error("approver_keys must name only approvers.");
    }
    if (!ed25519_public_key_der(pem)) {
      return keys_error("approver_keys must be Ed25519 public keys in PEM.");
    }
    result.keys_.emplace(person, pem);
  }
  for (const std::string& approver : approvers) {
    if (!result.keys_.contains(approver)) {
      return keys_error("approver_keys must give every approver a key.");
    }
  }
  return result;
}

Json ApproverKeys::fingerprints() const {
  Json fingerprints = Json::object();
  for (const auto& [person, pem] : keys_) {
    fingerprints[person] = sha256_hex(ed25519_public_key_der(pem).value_or(""));
  }
  return fingerprints;
}

bool ApproverKeys::verifies(std::string_view person_id, std::string_view run_id,
                            std::string_view phase_id, std::string_view digest, Decision decision,
                            std::string_view signature) const {
  auto key = keys_.find(person_id);
  if (key == keys_.end()) return false;
  std::optional<std::string> bytes = decode_signature_text(signature);
  const std::string message = decision_message(run_id, phase_id, digest, decision, person_id);
  return bytes && !message.empty() &&
         ed25519_verify(key->second, message, *bytes) == Ed25519Check::kValid;
}

}  // namespace codemode::internal
