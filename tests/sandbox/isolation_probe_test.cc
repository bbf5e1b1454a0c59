// Why the isolated profile cannot run: the verdict over facts no test machine can be put in (a
// sysctl is global, so the tests never change one), each naming what to enable; and the facts of
// this machine agreeing with the adapter's own probe. `mcp_node_sandboxes` makes the profile
// unavailable for real, for one server only (user.max_user_namespaces 0 in a user namespace of
// its own).
#include "sandbox/process/isolation_probe.h"

#include <string>

#include <errno.h>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

#include "support/process_support.h"

namespace codemode::internal {
namespace {

// The message of the verdict over `facts`, which must be a refusal.
std::string refusal(const IsolationFacts& facts) {
  const Status verdict = isolation_verdict(facts);
  EXPECT_FALSE(verdict.ok());
  if (verdict.ok()) return "";
  EXPECT_EQ(verdict.error().code, ErrorCode::kUnsupportedProfile);
  EXPECT_EQ(verdict.error().rule, "sandbox_unavailable");
  EXPECT_NE(verdict.error().message.find("\"Enabling user namespaces\""), std::string::npos);
  return verdict.error().message;
}

bool says(const std::string& message, const char* words) {
  return message.find(words) != std::string::npos;
}

TEST(IsolationVerdict, AWorkingProbeIsAvailableWhateverTheSysctlsSay) {
  EXPECT_TRUE(
      isolation_verdict({.apparmor_restrict_unprivileged_userns = 1, .worker_probe = true}).ok());
}

TEST(IsolationVerdict, NamesTheSysctlThatSwitchesUserNamespacesOff) {
  EXPECT_TRUE(says(refusal({.max_user_namespaces = 0, .user_namespace_errno = ENOSPC}),
                   "user.max_user_namespaces is 0"));
  EXPECT_TRUE(says(refusal({.unprivileged_userns_clone = 0,
                            .max_user_namespaces = 63'000,
                            .user_namespace_errno = EPERM}),
                   "kernel.unprivileged_userns_clone is 0"));
  // Ubuntu 24.04: the namespace is made, but AppArmor takes its privileges away.
  EXPECT_TRUE(says(refusal({.unprivileged_userns_clone = 1,
                            .apparmor_restrict_unprivileged_userns = 1,
                            .namespaces_errno = EPERM}),
                   "kernel.apparmor_restrict_unprivileged_userns is 1"));
}

TEST(IsolationVerdict, NamesWhatCloneRefused) {
  EXPECT_TRUE(says(refusal({.max_user_namespaces = 5, .user_namespace_errno = ENOSPC}),
                   "limit on user namespaces"));
  EXPECT_TRUE(says(refusal({.user_namespace_errno = EINVAL}), "CONFIG_USER_NS"));
  // A container's default seccomp profile: EPERM with every sysctl allowing it.
  EXPECT_TRUE(says(refusal({.unprivileged_userns_clone = 1, .user_namespace_errno = EPERM}),
                   "container runtime's default profile"));
  EXPECT_TRUE(says(refusal({.namespaces_errno = EPERM}), "not the pid, network, mount"));
  EXPECT_TRUE(says(refusal({}), "the worker's probe failed"));
}

// root of the user namespace is allowed what kernel.unprivileged_userns_clone forbids the others:
// with clone succeeding, the sysctl is not blamed.
TEST(IsolationVerdict, ASysctlThatDidNotRefuseIsNotBlamed) {
  const std::string message = refusal({.unprivileged_userns_clone = 0, .namespaces_errno = EPERM});
  EXPECT_FALSE(says(message, "unprivileged_userns_clone")) << message;
}

TEST(IsolationFacts, AgreeWithTheAdaptersProbe) {
  CODEMODE_REQUIRE_WORKER();
  const std::string worker = *testing::worker_binary();
  const bool available =
      make_process_adapter({.worker_path = worker, .isolation = IsolationProfile::kIsolated})
          ->is_available();
  const IsolationFacts facts = gather_isolation_facts(worker);
  EXPECT_EQ(facts.worker_probe, available);
  EXPECT_EQ(check_isolated_profile(worker).ok(), available);
  if (available) {
    EXPECT_EQ(facts.user_namespace_errno, 0);
    EXPECT_EQ(facts.namespaces_errno, 0);
  }
}

}  // namespace
}  // namespace codemode::internal
