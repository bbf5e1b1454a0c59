// define_code_program: every check of a program definition (include/codemode/program.h), the
// manifest and the digest (golden, and sensitive to every field and every source byte).
#include "codemode/program.h"

#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "support/program_fixture.h"

namespace codemode {
namespace {

using testing::calculate_options;
using testing::double_tool_options;

Error definition_error(CodeProgramOptions options) {
  Result<CodeProgram> program = define_code_program(std::move(options));
  EXPECT_FALSE(program.ok());
  // A program that was defined has no error; this one fails the caller's checks too.
  return program.ok() ? Error::tool_failed("defined", "The program was defined.") : program.error();
}

void expect_config_error(CodeProgramOptions options, const std::string& message) {
  const Error error = definition_error(std::move(options));
  EXPECT_EQ(error.code, ErrorCode::kInvalidConfig) << message;
  EXPECT_EQ(error.message, message);
}

// A fixed program whose digest was computed independently (Python: json.dumps with sorted keys
// and no whitespace, then hashlib.sha256 over canonical + "\n" + source).
// The golden digest was computed with one second of wall time, whatever the build's default.
TEST(ProgramDigest, MatchesTheGoldenDigest) {
  CodeProgramOptions options = testing::calculate_options();
  options.limits.wall_time_millis = 1'000;
  CodeProgram program = define_code_program(options).value();
  EXPECT_EQ(program.digest(), "aad24b3a0d26770510446f1471b258de208733c89bf8c05a77e7b19fd33d9f86");
  EXPECT_TRUE(is_code_program_digest(program.digest()));
  EXPECT_EQ(program.manifest().at("digest"), program.digest());
}

TEST(ProgramDigest, IsStableForTheSameDefinition) {
  EXPECT_EQ(testing::calculate_program().digest(), testing::calculate_program().digest());
}

TEST(ProgramDigest, ChangesWithEveryManifestFieldAndSourceByte) {
  const std::string base = testing::calculate_program().digest();
  const std::vector<std::function<void(CodeProgramOptions&)>> mutations = {
      [](auto& o) { o.id = "calculate2"; },
      [](auto& o) { o.version = "2"; },
      [](auto& o) { o.intent += "!"; },
      [](auto& o) { o.language = ProgramLanguage::kJavaScript; },
      [](auto& o) { o.input_schema_id = "value.v2"; },
      [](auto& o) { o.output_schema_id = "value.v2"; },
      [](auto& o) { o.approved_imports = {"lodash"}; },
      [](auto& o) { o.tools.clear(); },
      [](auto& o) {
        ToolOptions tool = double_tool_options();
        tool.cost_micros = 2;
        o.tools = {define_tool(tool).value()};
      },
      [](auto& o) {
        ToolOptions tool = double_tool_options();
        tool.description = "Doubles.";
        o.tools = {define_tool(tool).value()};
      },
      [](auto& o) { o.limits.cpu_millis += 1; },
      [](auto& o) { o.limits.wall_time_millis += 1; },
      [](auto& o) { o.limits.memory_bytes += 1; },
      [](auto& o) { o.limits.scratch_bytes += 1; },
      [](auto& o) { o.limits.max_input_bytes += 1; },
      [](auto& o) { o.limits.max_output_bytes += 1; },
      [](auto& o) { o.limits.max_tool_input_bytes += 1; },
      [](auto& o) { o.limits.max_tool_calls += 1; },
      [](auto& o) { o.limits.max_tool_concurrency += 1; },
      [](auto& o) { o.source[0] = 'A'; },
      [](auto& o) { o.source += " "; },
  };
  for (std::size_t i = 0; i < mutations.size(); ++i) {
    CodeProgramOptions options = calculate_options();
    mutations[i](options);
    EXPECT_NE(define_code_program(options).value().digest(), base) << "mutation " << i;
  }
}

TEST(ProgramManifest, RecordsEveryFieldButTheSource) {
  CodeProgram program = testing::calculate_program();
  const Json& manifest = program.manifest();
  std::vector<std::string> keys;
  for (const auto& [key, value] : manifest.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"approvedImports", "digest", "format", "id",
                                            "inputSchemaId", "intent", "language", "limits",
                                            "outputSchemaId", "sourceBytes", "tools", "version"}));
  EXPECT_EQ(manifest.at("language"), "typescript");
  EXPECT_EQ(manifest.at("sourceBytes"), program.source().size());
  EXPECT_EQ(manifest.at("limits").at("maxToolConcurrency"), 2);
  EXPECT_EQ(manifest.at("tools").at(0).at("id"), "number.double");
  EXPECT_EQ(manifest.at("tools").at(0).at("costMicros"), 1);
  EXPECT_TRUE(manifest.at("tools").at(0).contains("inputJsonSchema"));
  EXPECT_EQ(program.maximum_cost_micros(), 4);
}

TEST(ProgramDefinition, ExplainsIdAndTextErrors) {
  auto options = calculate_options();
  options.id = "1-bad";
  expect_config_error(options,
                      "Program id must start with a letter and contain at most 128 letters, "
                      "digits, \".\", \"_\", \"/\" or \"-\".");
  options = calculate_options();
  options.version = "  ";
  expect_config_error(options, "version must be a nonempty string of at most 128 characters.");
  options = calculate_options();
  options.intent = std::string(4097, 'x');
  expect_config_error(options, "intent must be a nonempty string of at most 4096 characters.");
  options = calculate_options();
  options.input_schema_id = std::string(257, 'x');
  expect_config_error(options,
                      "inputSchemaId must be a nonempty string of at most 256 characters.");
  options = calculate_options();
  options.output_schema_id = "";
  expect_config_error(options,
                      "outputSchemaId must be a nonempty string of at most 256 characters.");
}

TEST(ProgramDefinition, CountsTextLengthsInUtf16Units) {
  auto options = calculate_options();
  options.version = std::string(64 * 4, 'x');
  options.version.clear();
  for (int i = 0; i < 64; ++i) options.version += "\xF0\x9F\x98\x80";  // 64 emoji = 128 units
  EXPECT_TRUE(define_code_program(options).ok());
  options.version += "a";
  EXPECT_FALSE(define_code_program(options).ok());
}

TEST(ProgramDefinition, RefusesBlankAndOversizedSource) {
  auto options = calculate_options();
  options.source = " \n ";
  expect_config_error(options, "source must be a nonempty string of valid UTF-8.");
  options.source = std::string(kMaxSourceBytes, ' ');
  options.source[0] = 'x';
  EXPECT_TRUE(define_code_program(options).ok());
  options.source += "x";
  const Error error = definition_error(options);
  EXPECT_EQ(error.code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(error.rule, "source_bytes_limit");
  EXPECT_EQ(error.message, "Program source is larger than 1 MiB.");
}

TEST(ProgramDefinition, RequiresEveryLimitAsAPositiveInteger) {
  const std::vector<std::pair<std::string, std::int64_t CodeLimits::*>> fields = {
      {"cpuMillis", &CodeLimits::cpu_millis},
      {"wallTimeMillis", &CodeLimits::wall_time_millis},
      {"memoryBytes", &CodeLimits::memory_bytes},
      {"scratchBytes", &CodeLimits::scratch_bytes},
      {"maxInputBytes", &CodeLimits::max_input_bytes},
      {"maxOutputBytes", &CodeLimits::max_output_bytes},
      {"maxToolInputBytes", &CodeLimits::max_tool_input_bytes},
      {"maxToolCalls", &CodeLimits::max_tool_calls},
      {"maxToolConcurrency", &CodeLimits::max_tool_concurrency},
  };
  for (const auto& [name, member] : fields) {
    for (std::int64_t bad : {std::int64_t{0}, std::int64_t{-1}}) {
      auto options = calculate_options();
      options.limits.*member = bad;
      expect_config_error(options, "limits." + name + " must be a positive safe integer.");
    }
  }
}

// Each limit at its documented maximum (docs/limits.md) is accepted, and one more is refused by
// the limits rule naming it. The maxima are written out here, not read from the library's table.
TEST(ProgramDefinition, EveryLimitAcceptsItsMaximumAndRefusesOneMore) {
  const std::vector<std::tuple<std::string, std::int64_t CodeLimits::*, std::int64_t>> maxima = {
      {"cpuMillis", &CodeLimits::cpu_millis, 3'600'000},
      {"wallTimeMillis", &CodeLimits::wall_time_millis, 3'600'000},
      {"memoryBytes", &CodeLimits::memory_bytes, 2'147'483'648},
      {"scratchBytes", &CodeLimits::scratch_bytes, 2'147'483'648},
      {"maxInputBytes", &CodeLimits::max_input_bytes, 16'777'216},
      {"maxOutputBytes", &CodeLimits::max_output_bytes, 16'777'216},
      {"maxToolInputBytes", &CodeLimits::max_tool_input_bytes, 16'777'216},
      {"maxToolCalls", &CodeLimits::max_tool_calls, 10'000},
      {"maxToolConcurrency", &CodeLimits::max_tool_concurrency, 128},
  };
  for (const auto& [name, member, maximum] : maxima) {
    SCOPED_TRACE(name);
    auto options = calculate_options();
    options.limits.max_tool_calls = 10'000;  // room for every maxToolConcurrency tried
    options.limits.*member = maximum;
    EXPECT_TRUE(define_code_program(options).ok());
    options.limits.*member = maximum + 1;
    const Error error = definition_error(options);
    EXPECT_EQ(error.code, ErrorCode::kInvalidConfig);
    EXPECT_EQ(error.rule, "limits");
    EXPECT_EQ(error.message, "limits." + name + " exceeds the supported maximum of " +
                                 std::to_string(maximum) + ".");
  }
}

TEST(ProgramDefinition, RefusesMoreConcurrencyThanCalls) {
  auto options = calculate_options();
  options.limits.max_tool_calls = 4;
  options.limits.max_tool_concurrency = 5;
  expect_config_error(options,
                      "limits.maxToolConcurrency cannot be greater than limits.maxToolCalls.");
}

TEST(ProgramDefinition, RefusesDuplicateAndTooManyTools) {
  auto options = calculate_options();
  options.tools.push_back(testing::double_tool());
  const Error duplicate = definition_error(options);
  EXPECT_EQ(duplicate.code, ErrorCode::kConflict);
  EXPECT_EQ(duplicate.message,
            "Program tools contain \"number.double\" twice; tool ids must be unique.");
  options.tools.clear();
  for (int i = 0; i < 129; ++i) {
    ToolOptions tool = double_tool_options();
    tool.id = "tool" + std::to_string(i);
    options.tools.push_back(define_tool(tool).value());
  }
  expect_config_error(options, "tools must list at most 128 tools.");
  options.tools.pop_back();
  EXPECT_TRUE(define_code_program(options).ok());
}

TEST(ProgramDefinition, RefusesACostThatCouldOverflow) {
  auto options = calculate_options();
  ToolOptions tool = double_tool_options();
  tool.cost_micros = kMaxSafeInteger;
  options.tools = {define_tool(tool).value()};
  options.limits.max_tool_calls = 2;
  options.limits.max_tool_concurrency = 1;
  const Error error = definition_error(options);
  EXPECT_EQ(error.code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(error.rule, "cost_overflow");
  options.limits.max_tool_calls = 1;
  EXPECT_EQ(define_code_program(options).value().maximum_cost_micros(), kMaxSafeInteger);
}

TEST(ProgramDefinition, ChecksApprovedImports) {
  const std::string message =
      "approvedImports entries must be 1 to 256 characters with no \":\", no \"\\\" and no "
      "leading \"/\".";
  for (const std::string& bad :
       std::vector<std::string>{"", "node:fs", "a\\b", "/abs", std::string(257, 'm')}) {
    auto options = calculate_options();
    options.approved_imports = {bad};
    expect_config_error(options, message);
  }
  auto options = calculate_options();
  options.approved_imports = {"lodash", "lodash"};
  EXPECT_EQ(definition_error(options).code, ErrorCode::kConflict);
  options.approved_imports = std::vector<std::string>(65, "x");
  expect_config_error(options, "approvedImports must list at most 64 modules.");
}

}  // namespace
}  // namespace codemode
