// What `codemode docker promote` (issue_docker_promotion) accepts as a clean scan: a SARIF 2.1.0
// report that shows the scan ran to completion and found nothing. A scanner that failed can still
// write a well-formed report with an empty results array; what it says about its own run decides:
//   - each run names its scanner (tool.driver.name) and holds a results array, which is empty;
//   - each invocation the run reports (SARIF's record of how the scanner ran) says
//     executionSuccessful: true, exited 0 if it gives an exit code, was not ended by a signal, and
//     carries no notification of level "error" (toolExecutionNotifications,
//     toolConfigurationNotifications).
// A run that reports no invocation is taken at its word: Trivy and Grype write none, and write
// their SARIF only after a scan that completed (docs/docker.md).
#ifndef CODEMODE_SANDBOX_DOCKER_SARIF_SCAN_H_
#define CODEMODE_SANDBOX_DOCKER_SARIF_SCAN_H_

#include <string_view>

#include "codemode/error.h"

namespace codemode::internal {

// INVALID_CONFIG when `sarif` is not a bounded SARIF 2.1.0 report (2 bytes .. 16 MiB; only
// version, runs (1 to 16) and $schema at its root); PERMISSION_DENIED, naming the run and the rule
// it breaks, when it reports a finding or a scan that failed or is incomplete. Rule
// "docker_promotion" for both.
Status check_clean_scan(std::string_view sarif);

}  // namespace codemode::internal

#endif  // CODEMODE_SANDBOX_DOCKER_SARIF_SCAN_H_
