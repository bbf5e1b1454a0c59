#include "codemode/permissions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codemode {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Tool make_tool(ToolEffects effects, std::vector<std::string> capabilities) {
  return define_tool({.id = "files.write",
                      .version = "1",
                      .description = "Writes a file.",
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .effects = effects,
                      .capabilities = std::move(capabilities),
                      .execute = [](const Json&, const ToolContext&, ToolResponder) {}})
      .value();
}

const std::vector<std::string> kAllGrants = {"tool:files.write", "fs.write", "fs.audit",
                                             "effect:write"};

TEST(RequiredGrantsTest, ToolThenCapabilitiesThenEffect) {
  EXPECT_EQ(required_grants(make_tool(ToolEffects::kWrite, {"fs.write", "fs.audit"})), kAllGrants);
}

TEST(RequiredGrantsTest, EffectNoneNeedsNoEffectGrant) {
  EXPECT_EQ(required_grants(make_tool(ToolEffects::kNone, {})),
            std::vector<std::string>{"tool:files.write"});
}

TEST(CheckPermissionsTest, AllGrantsPresentIsAllowed) {
  Tool tool = make_tool(ToolEffects::kWrite, {"fs.write", "fs.audit"});
  EXPECT_TRUE(check_permissions(tool, {.allow = kAllGrants}).ok());
}

TEST(CheckPermissionsTest, EachMissingGrantIsDenied) {
  Tool tool = make_tool(ToolEffects::kWrite, {"fs.write", "fs.audit"});
  for (std::size_t missing = 0; missing < kAllGrants.size(); ++missing) {
    Permissions permissions{.allow = kAllGrants};
    permissions.allow.erase(permissions.allow.begin() + static_cast<std::ptrdiff_t>(missing));
    Status status = check_permissions(tool, permissions);
    ASSERT_FALSE(status.ok()) << kAllGrants[missing];
    EXPECT_EQ(status.error().code, ErrorCode::kPermissionDenied);
    EXPECT_EQ(status.error().rule, "permission");
    EXPECT_THAT(status.error().message, Not(HasSubstr(kAllGrants[missing])));
  }
}

TEST(CheckPermissionsTest, GrantsAreExactStringsWithoutWildcards) {
  Tool tool = make_tool(ToolEffects::kRead, {});
  EXPECT_FALSE(check_permissions(tool, {.allow = {"tool:*", "effect:read"}}).ok());
  EXPECT_FALSE(check_permissions(tool, {.allow = {"tool:files.*", "effect:read"}}).ok());
  EXPECT_FALSE(check_permissions(tool, {.allow = {"TOOL:files.write", "effect:read"}}).ok());
  EXPECT_FALSE(check_permissions(tool, {.allow = {"tool:files.write ", "effect:read"}}).ok());
  // A stronger effect does not imply a weaker one.
  EXPECT_FALSE(check_permissions(tool, {.allow = {"tool:files.write", "effect:write"}}).ok());
  EXPECT_TRUE(check_permissions(tool, {.allow = {"tool:files.write", "effect:read"}}).ok());
}

TEST(CheckPermissionsTest, MalformedGrantListIsInvalidConfig) {
  Tool tool = make_tool(ToolEffects::kNone, {});
  std::vector<Permissions> malformed = {
      {.allow = {"tool:files.write", ""}},
      {.allow = {"tool:files.write", std::string(385, 'g')}},
      {.allow = std::vector<std::string>(4097, "tool:files.write")},
  };
  for (const Permissions& permissions : malformed) {
    Status status = check_permissions(tool, permissions);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.error().code, ErrorCode::kInvalidConfig);
    EXPECT_EQ(status.error().rule, "permissions");
  }
  Permissions at_limits{.allow = std::vector<std::string>(4095, std::string(384, 'g'))};
  at_limits.allow.push_back("tool:files.write");
  EXPECT_TRUE(check_permissions(tool, at_limits).ok());
}

}  // namespace
}  // namespace codemode
