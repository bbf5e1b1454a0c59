// Runs the JSON-Schema-Test-Suite (Debian's json-schema-test-suite, draft 7) through
// Schema::compile and Schema::validate. The exact pass count is asserted so that a regression
// fails, and the groups that fail must be exactly the ones listed as knowingly unsupported. Every
// refusal must be explained: the walk that names the first failure agrees with valijson.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/json.h"
#include "codemode/schema.h"

namespace codemode {
namespace {

namespace fs = std::filesystem;

// "file / group description" -> why codemode does not pass it.
const std::map<std::string, std::string>& unsupported_groups() {
  static const std::map<std::string, std::string> kGroups = {
      {"definitions.json / valid definition",
       "validates against the draft 7 meta-schema, a remote $ref"},
      {"definitions.json / invalid definition",
       "validates against the draft 7 meta-schema, a remote $ref"},
      {"optional/bignum.json / integer",
       "integers beyond 2^53 - 1 are refused by the JSON boundary"},
      {"optional/bignum.json / number",
       "integers beyond 2^53 - 1 are refused by the JSON boundary"},
      {"optional/bignum.json / integer comparison", "the schema holds an integer beyond 2^53 - 1"},
      {"optional/bignum.json / float comparison with high precision",
       "the schema holds an integer beyond 2^53 - 1"},
      {"optional/bignum.json / float comparison with high precision on negative numbers",
       "the schema holds an integer beyond 2^53 - 1"},
      {"optional/content.json / validation of string-encoded content based on media type",
       "contentMediaType is an annotation only"},
      {"optional/content.json / validation of binary string-encoding",
       "contentEncoding is an annotation only"},
      {"optional/content.json / validation of binary-encoded media type documents",
       "contentEncoding and contentMediaType are annotations only"},
      {"optional/ecmascript-regex.json / ECMA 262 regex non-compliance",
       "format \"regex\" is an annotation only (a \"pattern\" with \\Z is refused)"},
      {"ref.json / remote ref, containing refs itself",
       "$ref to the draft 7 meta-schema, a remote document"},
      {"ref.json / Recursive references between schemas",
       "relative $ref (\"node\", \"tree\") resolved against $id: not a # reference"},
      {"refRemote.json / remote ref", "remote $ref"},
      {"refRemote.json / fragment within remote ref", "remote $ref"},
      {"refRemote.json / ref within remote ref", "remote $ref"},
      {"refRemote.json / base URI change", "remote $ref"},
      {"refRemote.json / base URI change - change folder", "remote $ref"},
      {"refRemote.json / base URI change - change folder in subschema", "remote $ref"},
      {"refRemote.json / root ref in remote ref", "remote $ref"},
  };
  return kGroups;
}

// Of 444 tests in the top-level and optional/*.json files (optional/format/ is not run: "format"
// is an annotation only). Unchanged by the move from std::regex to RE2 for "pattern" and
// "patternProperties": every pattern in pattern.json, patternProperties.json, properties.json and
// additionalProperties.json translates to RE2 and gives the same answers.
constexpr int kExpectedPasses = 410;

struct Tally {
  int passed = 0;
  int total = 0;
  std::set<std::string> failed_groups;
  // Refusals the explanation walk (tools/schema/schema_failure.h) could not explain: it and
  // valijson disagree.
  std::vector<std::string> unexplained;
};

std::vector<fs::path> suite_files() {
  std::vector<fs::path> files;
  for (const auto& dir :
       {fs::path(CODEMODE_SCHEMA_SUITE_DIR), fs::path(CODEMODE_SCHEMA_SUITE_DIR) / "optional"}) {
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.is_regular_file() && entry.path().extension() == ".json")
        files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

bool is_unsupported(const std::string& name) { return unsupported_groups().contains(name); }

void run_group(const std::string& name, const Json& group, Tally& tally) {
  Result<Schema> schema = Schema::compile(group.at("schema"));
  for (const Json& test : group.at("tests")) {
    ++tally.total;
    const Status status = schema.ok() ? schema->validate(test.at("data")) : Status();
    const bool valid = schema.ok() && status.ok();
    if (schema.ok() && !valid && status.error().message == "(root): does not match the schema") {
      tally.unexplained.push_back(name + " :: " + test.at("description").get<std::string>());
    }
    if (schema.ok() && valid == test.at("valid").get<bool>()) {
      ++tally.passed;
    } else {
      tally.failed_groups.insert(name);
      if (is_unsupported(name)) continue;
      std::cout << "unexpected failure: " << name
                << " :: " << test.at("description").get<std::string>()
                << (schema.ok() ? "" : " (schema refused: " + schema.error().message + ")") << "\n";
    }
  }
}

TEST(SchemaConformance, Draft7SuitePassesExceptKnownUnsupportedGroups) {
  Tally tally;
  const fs::path base(CODEMODE_SCHEMA_SUITE_DIR);
  for (const fs::path& file : suite_files()) {
    std::ifstream in(file);
    const Json groups = Json::parse(in);
    const std::string prefix = fs::relative(file, base).string() + " / ";
    for (const Json& group : groups) {
      run_group(prefix + group.at("description").get<std::string>(), group, tally);
    }
  }
  std::set<std::string> expected_failures;
  for (const auto& [name, reason] : unsupported_groups()) expected_failures.insert(name);
  std::cout << "draft 7 suite: " << tally.passed << " passed / " << tally.total << " total; "
            << expected_failures.size() << " groups knowingly unsupported:\n";
  for (const auto& [name, reason] : unsupported_groups()) {
    std::cout << "  " << name << ": " << reason << "\n";
  }
  EXPECT_EQ(tally.failed_groups, expected_failures);
  EXPECT_EQ(tally.passed, kExpectedPasses);
  EXPECT_EQ(tally.unexplained, std::vector<std::string>());
}

}  // namespace
}  // namespace codemode
