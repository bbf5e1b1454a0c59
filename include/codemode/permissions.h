// Permissions are exact-string grants. A call to a tool needs "tool:<id>", every one of the tool's
// capabilities, and "effect:<effects>" unless the tool's effects are "none". There are no wildcards
// and no deny list: what is not granted is refused.
//
// Plain values; safe to copy between threads.
#ifndef CODEMODE_PERMISSIONS_H_
#define CODEMODE_PERMISSIONS_H_

#include <string>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/tool.h"

namespace codemode {

struct Permissions {
  // At most 4,096 grants, each 1..384 characters.
  std::vector<std::string> allow;
};

// The grants a call to `tool` needs, in the order they are checked.
CODEMODE_EXPORT std::vector<std::string> required_grants(const Tool& tool);

// OK when every required grant is present. PERMISSION_DENIED (rule "permission") otherwise; the
// message does not say which grant was missing, so probing learns nothing.
CODEMODE_EXPORT Status check_permissions(const Tool& tool, const Permissions& permissions);

}  // namespace codemode

#endif  // CODEMODE_PERMISSIONS_H_
