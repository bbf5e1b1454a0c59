// The config's `repositories` member: the tools' options, the page and snapshot budgets as quota
// classes, and every refusal naming its field without the host's path.
#include <string>

#include <gtest/gtest.h>

#include "mcp/policy/mcp_config.h"

namespace codemode::mcp {
namespace {

const std::string kRepositoriesBase = std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog";

Result<McpConfig> load_with_repositories(const std::string& text) {
  return load_mcp_config(Json::parse(text), kRepositoriesBase);
}

std::string repositories_refusal(const std::string& text) {
  Result<McpConfig> config = load_with_repositories(text);
  EXPECT_FALSE(config.ok()) << text;
  if (config.ok()) return "";
  EXPECT_EQ(config.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(config.error().rule, "mcp_config");
  EXPECT_EQ(config.error().message.find(kRepositoriesBase), std::string::npos)
      << config.error().message;
  return config.error().message;
}

TEST(RepositoriesConfigTest, DefaultsAndTheTwoBudgetsAsQuotaClasses) {
  Result<McpConfig> config =
      load_with_repositories(R"({"repositories": {"roots": {"here": "."}}})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  ASSERT_TRUE(config->repositories.has_value());
  EXPECT_EQ(config->repositories->tools.roots.at(0).name, "here");
  EXPECT_EQ(config->repositories->tools.roots.at(0).path,
            kRepositoriesBase);  // relative to the config
  EXPECT_EQ(config->repositories->tools.tool_namespace, "repo");
  ASSERT_EQ(config->policy.quota_classes.size(), 2u);
  const QuotaClass& pages = config->policy.quota_classes[0];
  EXPECT_EQ(pages.name, "pages");
  EXPECT_EQ(pages.cap, 8);
  EXPECT_EQ(pages.tools,
            (std::vector<std::string>{"repo.findRepositories", "repo.refs", "repo.list",
                                      "repo.searchCode", "repo.read", "repo.context"}));
  const QuotaClass& snapshots = config->policy.quota_classes[1];
  EXPECT_EQ(snapshots.name, "snapshots");
  EXPECT_EQ(snapshots.cap, 2);
  EXPECT_EQ(snapshots.tools, (std::vector<std::string>{"repo.open"}));
  EXPECT_EQ(quota_exhausted_message("pages"), "page budget exhausted");
  EXPECT_EQ(quota_exhausted_message("snapshots"), "snapshot budget exhausted");
  EXPECT_EQ(quota_exhausted_message("writes"), "writes budget exhausted");
}

TEST(RepositoriesConfigTest, OptionsWithinTheirRanges) {
  Result<McpConfig> config =
      load_with_repositories(R"({"repositories": {"roots": {"a": "."}, "pages": 16,
      "snapshots": 4, "namespace": "git", "walkDepth": 16, "searchTimeMs": 60000}})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(config->policy.quota_classes[0].cap, 16);
  EXPECT_EQ(config->policy.quota_classes[1].cap, 4);
  EXPECT_EQ(config->policy.quota_classes[1].tools, (std::vector<std::string>{"git.open"}));
  EXPECT_EQ(config->repositories->tools.walk_depth, 16);
  EXPECT_EQ(config->repositories->tools.search_time, std::chrono::milliseconds(60'000));
}

TEST(RepositoriesConfigTest, EachRefusalNamesItsField) {
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {"a": "."}, "pages": 17}})"),
            "repositories.pages must be an integer from 1 to 16.");
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {"a": "."}, "snapshots": 5}})"),
            "repositories.snapshots must be an integer from 1 to 4.");
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {"a": "."}, "walkDepth": 0}})"),
            "repositories.walkDepth must be an integer from 1 to 16.");
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {}}})"),
            "repositories.roots must be an object naming at least one directory.");
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {"a": "no-such-dir"}}})"),
            "repositories.roots.a does not name a directory.");
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {"9a": "."}}})")
                .find("repositories.roots"),
            0u);
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {"a": "."}, "namespace": "a.b"}})")
                .find("repositories.tool_namespace"),
            0u);
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {"a": "."}, "depth": 2}})")
                .find("repositories must be an object with only"),
            0u);
}

TEST(RepositoriesConfigTest, ItsBudgetsCannotBeDeclaredTwiceAndQuotaClassesMayNameItsTools) {
  EXPECT_EQ(repositories_refusal(R"({"repositories": {"roots": {"a": "."}},
      "policy": {"quotaClasses": {"pages": {"cap": 2, "tools": ["repo.read"]}}}})"),
            "policy.quotaClasses.pages is the repositories member's own; set repositories.pages "
            "instead.");
  Result<McpConfig> config = load_with_repositories(R"({"repositories": {"roots": {"a": "."}},
      "policy": {"quotaClasses": {"searches": {"cap": 1, "tools": ["repo.searchCode"]}}}})");
  ASSERT_TRUE(config.ok()) << config.error().message;
  EXPECT_EQ(config->policy.quota_classes.size(), 3u);
  EXPECT_EQ(repositories_refusal(R"({"policy": {"quotaClasses": {"searches": {"cap": 1,
      "tools": ["repo.searchCode"]}}}})"),
            "policy.quotaClasses.searches.tools[0] names a tool the config does not declare.");
}

}  // namespace
}  // namespace codemode::mcp
