// The rule registry itself (include/codemode/rules.h): well-formed rows, lookups, and one named
// constant in the header for every row. rules_sources_test.cc holds src/ and docs/limits.md
// against it.
#include "codemode/rules.h"

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "core/text/identifiers.h"

namespace codemode {
namespace {

std::string read_source(const std::string& relative) {
  std::ifstream in(std::string(CODEMODE_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// "max_tool_calls" -> "kMaxToolCalls": the header's spelling of each rule's constant.
std::string constant_name(std::string_view rule) {
  std::string name = "k";
  bool upper = true;
  for (char c : rule) {
    if (c == '_') {
      upper = true;
    } else {
      name += upper ? static_cast<char>(c - 'a' + 'A') : c;
      upper = false;
    }
  }
  return name;
}

TEST(RulesTest, EveryRuleIsARuleNameWithAMeaningListedOnce) {
  std::set<std::string_view> seen;
  for (const RuleInfo& rule : all_rules()) {
    EXPECT_TRUE(internal::is_rule_name(rule.name)) << rule.name;
    EXPECT_FALSE(rule.meaning.empty()) << rule.name;
    EXPECT_TRUE(seen.insert(rule.name).second) << rule.name << " is listed twice";
    EXPECT_TRUE(rule.reported_with(rule.code)) << rule.name;
  }
  EXPECT_GT(all_rules().size(), 150u);
}

TEST(RulesTest, FindRuleFindsEveryRuleAndNothingElse) {
  for (const RuleInfo& rule : all_rules()) {
    const RuleInfo* found = find_rule(rule.name);
    ASSERT_NE(found, nullptr) << rule.name;
    EXPECT_EQ(found, &rule);
  }
  EXPECT_EQ(find_rule(""), nullptr);
  EXPECT_EQ(find_rule("no_such_rule"), nullptr);
  EXPECT_EQ(find_rule("MAX_TOOL_CALLS"), nullptr);  // names are exact
  EXPECT_EQ(find_rule(std::string(rules::kMaxToolCalls) + " "), nullptr);
}

TEST(RulesTest, ARowSaysItsCodesAndWhetherAnExecutionEndsWithIt) {
  const RuleInfo* cpu = find_rule(rules::kCpuLimit);
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->code, ErrorCode::kLimitExceeded);
  EXPECT_TRUE(cpu->ends_execution);
  EXPECT_FALSE(cpu->reported_with(ErrorCode::kTimeout));

  // Reported with TOOL_FAILED to a host, and INTEGRITY_VIOLATION by the frame codec itself.
  const RuleInfo* protocol = find_rule(rules::kWorkerProtocolError);
  ASSERT_NE(protocol, nullptr);
  EXPECT_EQ(protocol->code, ErrorCode::kToolFailed);
  EXPECT_TRUE(protocol->reported_with(ErrorCode::kIntegrityViolation));
  EXPECT_FALSE(protocol->reported_with(ErrorCode::kInvalidConfig));

  const RuleInfo* calls = find_rule(rules::kMaxToolCalls);
  ASSERT_NE(calls, nullptr);
  EXPECT_FALSE(calls->ends_execution);  // the program sees it; the execution goes on
}

TEST(RulesTest, TheHeaderNamesEveryRuleOnceAsItsConstant) {
  const std::string header = read_source("include/codemode/rules.h");
  ASSERT_FALSE(header.empty());
  const std::regex constant(R"re(inline constexpr char (k\w+)\[\] = "([a-z0-9_]+)";)re");
  std::set<std::string> in_header;
  for (auto match = std::sregex_iterator(header.begin(), header.end(), constant);
       match != std::sregex_iterator(); ++match) {
    const std::string identifier = (*match)[1];
    const std::string name = (*match)[2];
    EXPECT_EQ(identifier, constant_name(name)) << "the constant of \"" << name << "\"";
    EXPECT_TRUE(in_header.insert(name).second) << name << " has two constants";
    EXPECT_NE(find_rule(name), nullptr)
        << name << " has a constant but no row in src/core/rules.cc";
  }
  EXPECT_EQ(in_header.size(), all_rules().size()) << "a row without a constant in rules.h";
}

}  // namespace
}  // namespace codemode
