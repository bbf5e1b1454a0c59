// Who may approve from the command line. The host's VerifyPerson for `codemode workflow`: the
// credential is a person's name (--as NAME, or CODEMODE_APPROVER), and it is verified when it is
// the login name of the account running the command (the kernel vouches for the uid, so nobody
// approves as someone else without their account) and the workflow file lists it among its
// approvers. The person's project is the workflow's. A host that verifies people another way
// (single sign-on, signed tokens) passes its own hook to WorkflowRuntime from C++.
#ifndef CODEMODE_CLI_WORKFLOW_WORKFLOW_APPROVER_H_
#define CODEMODE_CLI_WORKFLOW_WORKFLOW_APPROVER_H_

#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/workflow_runtime.h"

namespace codemode::cli {

VerifyPerson local_account_approver(std::vector<std::string> approvers, std::string project_id);

// The login name of the account running this process, or empty.
std::string current_login();

// The approver's private key (PEM) from the file at `path`, which must be readable by its owner
// only, as ssh asks of a private key. INVALID_CONFIG (rule "approver_key") otherwise; the message
// never names the path.
Result<std::string> read_approver_key(const std::string& path);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_WORKFLOW_WORKFLOW_APPROVER_H_
