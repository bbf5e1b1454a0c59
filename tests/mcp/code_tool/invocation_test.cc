// What one code-tool invocation owns, and the registry that finds it by its execution id while
// its registration lives, and never after.
#include "mcp/code_tool/invocation.h"

#include <gtest/gtest.h>

namespace codemode::mcp {
namespace {

TEST(InvocationRegistryTest, AnInvocationIsFoundWhileItsRegistrationLives) {
  const McpPolicy policy;
  InvocationRegistry registry;
  auto invocation = std::make_shared<Invocation>(policy, "abc");
  {
    InvocationRegistry::Registration registration = registry.add("mcp-code:1", invocation);
    EXPECT_EQ(registry.find("mcp-code:1"), invocation);
    EXPECT_EQ(registry.find("mcp-code:2"), nullptr);
    InvocationRegistry::Registration moved = std::move(registration);
    EXPECT_EQ(registry.find("mcp-code:1"), invocation);
  }
  EXPECT_EQ(registry.find("mcp-code:1"), nullptr);
}

TEST(InvocationTest, ItsContentBoundsAreThePolicys) {
  const McpPolicy policy{.content_blocks = 1};
  Invocation invocation(policy, "abc");
  const Json image =
      Json::parse(R"({"content":[{"type":"image","data":"AA==","mimeType":"a/b"}]})");
  EXPECT_TRUE(invocation.contents.hold(image).ok());
  const Result<Json> second = invocation.contents.hold(image);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.error().rule, "content_blocks_limit");
}

}  // namespace
}  // namespace codemode::mcp
