// Signed decisions: when a runtime has approver keys (WorkflowRuntimeOptions::approver_keys), a
// decision counts only with its person's Ed25519 signature of decision_message, checked when it is
// made and again when the phase is claimed. Whoever can write the store can then change a run's
// document but cannot make a phase approved: they hold no approver's private key.
#ifndef CODEMODE_WORKFLOW_RUN_SIGNED_DECISION_H_
#define CODEMODE_WORKFLOW_RUN_SIGNED_DECISION_H_

#include <map>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/workflow_runtime.h"

namespace codemode::internal {

// The approvers' public keys by person id, each checked to be an Ed25519 PEM public key.
class ApproverKeys {
 public:
  // INVALID_CONFIG (rule "workflow_runtime") naming what is wrong: a key for someone who is not an
  // approver, an approver without a key (once any has one), or a key that is not Ed25519.
  static Result<ApproverKeys> create(const std::map<std::string, std::string>& keys,
                                     const std::vector<std::string>& approvers);

  bool required() const { return !keys_.empty(); }
  // {personId: sha256 of the key's DER}: what the policy hash binds.
  Json fingerprints() const;
  // Whether `signature` ("base64:...") is person_id's signature of the decision.
  bool verifies(std::string_view person_id, std::string_view run_id, std::string_view phase_id,
                std::string_view digest, Decision decision, std::string_view signature) const;

 private:
  std::map<std::string, std::string, std::less<>> keys_;  // person id -> PEM
};

}  // namespace codemode::internal

#endif  // CODEMODE_WORKFLOW_RUN_SIGNED_DECISION_H_
