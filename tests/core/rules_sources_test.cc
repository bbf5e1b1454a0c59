// The rule registry (include/codemode/rules.h) held against what uses it: every rule src/ writes as
// a literal where an Error is made is registered, with the code it is made with; every registered
// rule is made somewhere; and docs/limits.md names registered rules with their codes, and every
// limit rule. A new rule is then a failing test until it has its row.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/rules.h"

namespace codemode {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = CODEMODE_SOURCE_DIR;

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A quote that opens a character literal, not a digit separator (10'000).
bool starts_char_literal(const std::string& text, std::size_t i) {
  return text[i] == '\'' && (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])));
}

// The text with comments and raw strings (the JavaScript the code tool embeds) blanked out, and
// ordinary string literals kept; lines stay where they were.
std::string code_of(const std::string& text) {
  std::string code = text;
  std::size_t i = 0;
  const auto blank = [&code](std::size_t from, std::size_t to) {
    for (std::size_t k = from; k < to && k < code.size(); ++k) {
      if (code[k] != '\n') code[k] = ' ';
    }
  };
  while (i < text.size()) {
    if (text.compare(i, 2, "//") == 0) {
      const std::size_t end = text.find('\n', i);
      blank(i, end == std::string::npos ? text.size() : end);
      i = end == std::string::npos ? text.size() : end;
    } else if (text.compare(i, 2, "/*") == 0) {
      const std::size_t end = text.find("*/", i + 2);
      const std::size_t stop = end == std::string::npos ? text.size() : end + 2;
      blank(i, stop);
      i = stop;
    } else if (text.compare(i, 2, "R\"") == 0 &&
               (i == 0 ||
                !(std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_'))) {
      const std::size_t open = text.find('(', i);
      const std::string close = ")" + text.substr(i + 2, open - i - 2) + "\"";
      const std::size_t end = text.find(close, open);
      const std::size_t stop = end == std::string::npos ? text.size() : end + close.size();
      blank(i, stop);
      i = stop;
    } else if (text[i] == '"' || starts_char_literal(text, i)) {
      const char quote = text[i];
      ++i;
      while (i < text.size() && text[i] != quote) i += text[i] == '\\' ? 2 : 1;
      ++i;
    } else {
      ++i;
    }
  }
  return code;
}

// The top-level arguments of the call whose '(' is at `open`, as written.
std::vector<std::string> arguments_at(const std::string& code, std::size_t open) {
  std::vector<std::string> arguments(1);
  int depth = 0;
  for (std::size_t i = open + 1; i < code.size(); ++i) {
    const char c = code[i];
    if (c == '"' || starts_char_literal(code, i)) {
      const std::size_t start = i++;
      while (i < code.size() && code[i] != c) i += code[i] == '\\' ? 2 : 1;
      arguments.back().append(code, start, i - start + 1);
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (depth == 0) return arguments;
      --depth;
    }
    if (c == ',' && depth == 0) {
      arguments.emplace_back();
    } else {
      arguments.back() += c;
    }
  }
  return {};
}

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \n\t");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \n\t") - first + 1);
}

// "tool_failed" for `"tool_failed"`; nullopt for anything but one plain string literal.
std::optional<std::string> literal_of(const std::string& argument) {
  static const std::regex kLiteral(R"re("([^"\\]*)")re");
  std::smatch match;
  const std::string text = trimmed(argument);
  if (!std::regex_match(text, match, kLiteral)) return std::nullopt;
  return match[1].str();
}

// ErrorCode::kLimitExceeded for `ErrorCode::kLimitExceeded`; nullopt for a code decided at run
// time.
std::optional<ErrorCode> code_of_argument(const std::string& argument) {
  static const std::map<std::string, ErrorCode> kCodes = [] {
    std::map<std::string, ErrorCode> codes;
    for (int value = 1; value <= 64; ++value) {
      const auto code = static_cast<ErrorCode>(value);
      const std::string_view name = to_string(code);
      if (error_code_from_string(name) != code) continue;  // past the last code
      std::string constant = "ErrorCode::k";
      bool upper = true;
      for (char c : name) {
        if (c == '_') {
          upper = true;
        } else {
          constant += upper ? c : static_cast<char>(c - 'A' + 'a');
          upper = false;
        }
      }
      codes.emplace(constant, code);
    }
    return codes;
  }();
  const auto found = kCodes.find(trimmed(argument));
  if (found == kCodes.end()) return std::nullopt;
  return found->second;
}

// A way src/ makes an Error from a rule: the call, where the rule is among its arguments, and
// where its code comes from (a fixed code, or the call's own argument `code_argument`).
struct RuleSite {
  std::string call;
  std::size_t rule_argument;
  std::optional<ErrorCode> code;  // fixed by the call
  std::optional<std::size_t> code_argument;
  std::string only_in;  // the one file whose calls these are, for a name common elsewhere
};

std::vector<RuleSite> rule_sites() {
  std::vector<RuleSite> sites;
  // The named constructors, one per code: Error::invalid_config -> INVALID_CONFIG.
  for (int value = 1; value <= 64; ++value) {
    const auto code = static_cast<ErrorCode>(value);
    const std::string_view name = to_string(code);
    if (error_code_from_string(name) != code) continue;
    std::string factory = "Error::";
    for (char c : name) factory += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    sites.push_back({factory, 0, code, std::nullopt, ""});
  }
  sites.push_back({"Error::with_code", 1, std::nullopt, 0, ""});
  // The helpers that wrap them (each file's own; the names say where).
  sites.push_back({"worker_error", 0, ErrorCode::kToolFailed, std::nullopt, ""});
  sites.push_back({"confinement_failed", 1, ErrorCode::kUnsupportedProfile, std::nullopt, ""});
  sites.push_back(
      {"refusal", 0, ErrorCode::kInvalidJson, std::nullopt, "src/core/json/json_refusals.cc"});
  sites.push_back({"limit_error", 0, ErrorCode::kLimitExceeded, std::nullopt,
                   "src/mcp/code_tool/invocation_budget.cc"});
  sites.push_back({"local_refusal", 1, std::nullopt, 0, "src/worker/tool_calls.cc"});
  sites.push_back({"bridge_refusal", 1, std::nullopt, 0, ""});
  sites.push_back({"phase_failed", 1, std::nullopt, 0, "src/workflow/run/phase_runner.cc"});
  sites.push_back({"CodeToolOutcome::failure", 2, std::nullopt, 1, ""});
  return sites;
}

struct Found {
  std::string where;  // file:line
  std::string call;
  std::string rule;
  std::optional<ErrorCode> code;
};

bool is_identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<Found> rule_literals_in_sources(std::map<std::string, int>& calls_seen) {
  std::vector<Found> found;
  const std::vector<RuleSite> sites = rule_sites();
  for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / "src")) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() || (extension != ".cc" && extension != ".h")) continue;
    const std::string relative = fs::relative(entry.path(), kSourceDir).string();
    const std::string code = code_of(read_text(entry.path()));
    for (const RuleSite& site : sites) {
      if (!site.only_in.empty() && site.only_in != relative) continue;
      for (std::size_t at = code.find(site.call + "("); at != std::string::npos;
           at = code.find(site.call + "(", at + 1)) {
        if (at > 0 && is_identifier_char(code[at - 1])) continue;  // another name's tail
        const std::vector<std::string> arguments = arguments_at(code, at + site.call.size());
        if (arguments.size() <= site.rule_argument) continue;  // a declaration, or a mention
        ++calls_seen[site.call];
        const std::optional<std::string> rule = literal_of(arguments[site.rule_argument]);
        if (!rule) continue;  // a rules:: constant (checked by the compiler), or data
        std::optional<ErrorCode> error_code = site.code;
        if (site.code_argument && arguments.size() > *site.code_argument) {
          error_code = code_of_argument(arguments[*site.code_argument]);
        }
        const auto line = 1 + std::count(code.begin(), code.begin() + at, '\n');
        found.push_back({relative + ":" + std::to_string(line), site.call, *rule, error_code});
      }
    }
  }
  return found;
}

TEST(RulesInSourcesTest, EveryRuleAnErrorIsMadeWithIsRegisteredWithThatCode) {
  std::map<std::string, int> calls_seen;
  const std::vector<Found> found = rule_literals_in_sources(calls_seen);
  for (const Found& site : found) {
    const RuleInfo* rule = find_rule(site.rule);
    if (rule == nullptr) {
      ADD_FAILURE() << site.where << ": " << site.call << "(\"" << site.rule
                    << "\") is not a rule of include/codemode/rules.h: add its row to "
                       "src/core/rules.cc and its constant to the header";
      continue;
    }
    if (site.code && !rule->reported_with(*site.code)) {
      ADD_FAILURE() << site.where << ": \"" << site.rule << "\" is made with "
                    << to_string(*site.code) << ", which its row in src/core/rules.cc does "
                    << "not list (it says " << to_string(rule->code) << ")";
    }
  }
  // The scan itself still finds what it looks for: a helper renamed away would otherwise leave
  // its rules unchecked without a word.
  EXPECT_GT(found.size(), 200u);
  for (const RuleSite& site : rule_sites()) {
    if (site.call.starts_with("Error::") && site.call != "Error::with_code") continue;
    EXPECT_GT(calls_seen[site.call], 0) << "no call of " << site.call << " in src/";
  }
}

// Rules made only from data: a quota class's "<name>_limit", with the repository tools' classes.
const std::set<std::string_view> kMadeFromData = {rules::kPagesLimit, rules::kSnapshotsLimit};

TEST(RulesInSourcesTest, EveryRegisteredRuleIsMadeSomewhere) {
  std::string all_code;
  for (const auto& entry : fs::recursive_directory_iterator(kSourceDir / "src")) {
    const std::string extension = entry.path().extension().string();
    if (!entry.is_regular_file() || (extension != ".cc" && extension != ".h")) continue;
    if (entry.path().filename() == "rules.cc") continue;  // the table
    all_code += code_of(read_text(entry.path()));
  }
  for (const RuleInfo& rule : all_rules()) {
    if (kMadeFromData.contains(rule.name)) continue;
    std::string constant = "rules::k";
    bool upper = true;
    for (char c : rule.name) {
      if (c == '_') {
        upper = true;
      } else {
        constant += upper ? static_cast<char>(c - 'a' + 'A') : c;
        upper = false;
      }
    }
    const std::string literal = "\"" + std::string(rule.name) + "\"";
    EXPECT_TRUE(all_code.find(literal) != std::string::npos ||
                all_code.find(constant) != std::string::npos)
        << rule.name << " is registered but nothing in src/ makes it";
  }
}

struct DocumentedRule {
  std::string code;
  std::string rule;
};

// Every "`CODE` / `rule`" of docs/limits.md (a parenthesis may follow the code: "`TOOL_FAILED`
// (none) / `phase_interrupted`"); `json_*` stands for the JSON boundary's rules.
std::vector<DocumentedRule> documented_rules() {
  const std::string doc = read_text(kSourceDir / "docs/limits.md");
  const std::regex pair(R"re(`([A-Z_]+)`(?: \([^)]*\))? / `([a-z][a-z0-9_]*\*?)`)re");
  std::vector<DocumentedRule> rules_named;
  for (auto match = std::sregex_iterator(doc.begin(), doc.end(), pair);
       match != std::sregex_iterator(); ++match) {
    rules_named.push_back({(*match)[1], (*match)[2]});
  }
  return rules_named;
}

TEST(RulesInLimitsDocTest, EveryRuleTheDocNamesIsRegisteredWithTheDocsCode) {
  const std::vector<DocumentedRule> named = documented_rules();
  ASSERT_GT(named.size(), 30u) << "docs/limits.md no longer reads `CODE` / `rule`";
  for (const DocumentedRule& entry : named) {
    const std::optional<ErrorCode> code = error_code_from_string(entry.code);
    ASSERT_TRUE(code.has_value()) << entry.code << " in docs/limits.md is no error code";
    if (entry.rule.ends_with("*")) {
      const std::string prefix = entry.rule.substr(0, entry.rule.size() - 1);
      const bool any = std::any_of(all_rules().begin(), all_rules().end(), [&](const RuleInfo& r) {
        return r.name.starts_with(prefix) && r.reported_with(*code);
      });
      EXPECT_TRUE(any) << "no " << entry.code << " rule is " << entry.rule;
      continue;
    }
    const RuleInfo* rule = find_rule(entry.rule);
    if (rule == nullptr) {
      ADD_FAILURE() << "docs/limits.md names `" << entry.rule << "`, which is not registered";
      continue;
    }
    EXPECT_TRUE(rule->reported_with(*code))
        << "docs/limits.md gives `" << entry.rule << "` the code " << entry.code
        << "; the registry says " << to_string(rule->code);
  }
}

TEST(RulesInLimitsDocTest, EveryLimitAndBudgetRuleIsInTheDoc) {
  std::set<std::string> named;
  for (const DocumentedRule& entry : documented_rules()) named.insert(entry.rule);
  for (const RuleInfo& rule : all_rules()) {
    if (rule.code != ErrorCode::kLimitExceeded && rule.code != ErrorCode::kBudgetExceeded) continue;
    EXPECT_TRUE(named.contains(std::string(rule.name)))
        << "docs/limits.md does not name `" << to_string(rule.code) << "` / `" << rule.name << "`";
  }
}

}  // namespace
}  // namespace codemode
