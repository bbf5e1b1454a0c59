#include "codemode/tool.h"

#include <functional>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace codemode {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

ToolOptions valid_options() {
  return ToolOptions{.id = "catalog.price",
                     .version = "1",
                     .description = "Price of one product in cents.",
                     .input = Schema::compile(Json::parse(R"({"type":"object"})")).value(),
                     .output = Schema::any(),
                     .effects = ToolEffects::kRead,
                     .capabilities = {"catalog"},
                     .cost_micros = 25,
                     .timeout = std::chrono::milliseconds(1500),
                     .execute = [](const Json&, const ToolContext&, ToolResponder respond) {
                       respond.succeed(Json::object());
                     }};
}

struct InvalidCase {
  std::string name;
  std::string field;
  std::function<void(ToolOptions&)> spoil;
};

// Names the case in test listings (gtest would otherwise dump its bytes).
void PrintTo(const InvalidCase& c, std::ostream* out) { *out << c.name; }

std::string repeat(std::string_view text, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += text;
  return out;
}

class DefineToolRefusesTest : public ::testing::TestWithParam<InvalidCase> {};

TEST_P(DefineToolRefusesTest, NamesTheFieldUnderRuleToolDefinition) {
  ToolOptions options = valid_options();
  GetParam().spoil(options);
  auto tool = define_tool(std::move(options));
  ASSERT_FALSE(tool.ok());
  EXPECT_EQ(tool.error().code, ErrorCode::kInvalidConfig);
  EXPECT_EQ(tool.error().rule, "tool_definition");
  EXPECT_THAT(tool.error().message, HasSubstr("'" + GetParam().field + "'"));
}

const std::string kAstral = "\xF0\x9F\x98\x80";  // two UTF-16 units

INSTANTIATE_TEST_SUITE_P(
    Fields, DefineToolRefusesTest,
    ::testing::Values(
        InvalidCase{"EmptyId", "id", [](ToolOptions& o) { o.id = ""; }},
        InvalidCase{"IdStartingWithDigit", "id", [](ToolOptions& o) { o.id = "1tool"; }},
        InvalidCase{"IdWithSpace", "id", [](ToolOptions& o) { o.id = "a tool"; }},
        InvalidCase{"IdWithColon", "id", [](ToolOptions& o) { o.id = "a:b"; }},
        InvalidCase{"IdOf129", "id", [](ToolOptions& o) { o.id = "a" + repeat("b", 128); }},
        InvalidCase{"EmptyVersion", "version", [](ToolOptions& o) { o.version = ""; }},
        InvalidCase{"BlankVersion", "version", [](ToolOptions& o) { o.version = " \t"; }},
        InvalidCase{"NoBreakSpaceVersion", "version",
                    [](ToolOptions& o) { o.version = "\xC2\xA0"; }},
        InvalidCase{"VersionOf129", "version",
                    [](ToolOptions& o) { o.version = repeat("v", 129); }},
        InvalidCase{"VersionOf130Utf16Units", "version",
                    [](ToolOptions& o) { o.version = repeat(kAstral, 65); }},
        InvalidCase{"BlankDescription", "description",
                    [](ToolOptions& o) { o.description = "  "; }},
        InvalidCase{"DescriptionOf4097", "description",
                    [](ToolOptions& o) { o.description = repeat("d", 4097); }},
        InvalidCase{"TooManyCapabilities", "capabilities",
                    [](ToolOptions& o) {
                      o.capabilities.clear();
                      for (int i = 0; i < 129; ++i)
                        o.capabilities.push_back("c" + std::to_string(i));
                    }},
        InvalidCase{"DuplicateCapability", "capabilities",
                    [](ToolOptions& o) {
                      o.capabilities = {"a", "b", "a"};
                    }},
        InvalidCase{"EmptyCapability", "capabilities",
                    [](ToolOptions& o) { o.capabilities = {""}; }},
        InvalidCase{"CapabilityOf257", "capabilities",
                    [](ToolOptions& o) { o.capabilities = {repeat("c", 257)}; }},
        InvalidCase{"UnknownEffects", "effects",
                    [](ToolOptions& o) { o.effects = static_cast<ToolEffects>(9); }},
        InvalidCase{"NegativeCost", "cost_micros", [](ToolOptions& o) { o.cost_micros = -1; }},
        InvalidCase{"UnsafeCost", "cost_micros",
                    [](ToolOptions& o) { o.cost_micros = kMaxSafeInteger + 1; }},
        InvalidCase{"ZeroTimeout", "timeout",
                    [](ToolOptions& o) { o.timeout = std::chrono::milliseconds(0); }},
        InvalidCase{"TimeoutPastInt32", "timeout",
                    [](ToolOptions& o) { o.timeout = std::chrono::milliseconds(2'147'483'648); }},
        InvalidCase{"MissingExecute", "execute", [](ToolOptions& o) { o.execute = nullptr; }},
        InvalidCase{"BindingDescriptionNotAnObject", "binding.description",
                    [](ToolOptions& o) { o.binding.description = Json::array(); }},
        InvalidCase{"BindingFileNotAbsolute", "binding.files",
                    [](ToolOptions& o) { o.binding.files = {"relative/price.sh"}; }},
        InvalidCase{"TooManyBindingFiles", "binding.files",
                    [](ToolOptions& o) { o.binding.files.assign(1025, "/usr/bin/true"); }}),
    [](const ::testing::TestParamInfo<InvalidCase>& info) { return info.param.name; });

TEST(DefineToolTest, AcceptsValuesAtEveryLimit) {
  ToolOptions options = valid_options();
  options.id = "A" + repeat("._/-9", 25) + "xx";  // 128 characters
  options.version = repeat(kAstral, 64);          // 128 UTF-16 units
  options.description = repeat("d", 4096);
  options.capabilities.clear();
  for (int i = 0; i < 128; ++i)
    options.capabilities.push_back(repeat("c", 250) + std::to_string(i));
  options.cost_micros = kMaxSafeInteger;
  options.timeout = std::chrono::milliseconds(2'147'483'647);
  ASSERT_EQ(options.id.size(), 128u);
  auto tool = define_tool(std::move(options));
  EXPECT_TRUE(tool.ok()) << tool.error().message;
}

TEST(DefineToolTest, RefusalDoesNotEchoTheValue) {
  ToolOptions options = valid_options();
  options.id = "secret-token value";
  auto tool = define_tool(std::move(options));
  ASSERT_FALSE(tool.ok());
  EXPECT_THAT(tool.error().message, Not(HasSubstr("secret-token")));
}

TEST(DefineToolTest, AccessorsReturnTheDefinition) {
  auto tool = define_tool(valid_options());
  ASSERT_TRUE(tool.ok());
  EXPECT_EQ(tool->id(), "catalog.price");
  EXPECT_EQ(tool->version(), "1");
  EXPECT_EQ(tool->description(), "Price of one product in cents.");
  EXPECT_EQ(tool->effects(), ToolEffects::kRead);
  EXPECT_EQ(tool->capabilities(), std::vector<std::string>{"catalog"});
  EXPECT_EQ(tool->cost_micros(), 25);
  EXPECT_EQ(tool->timeout(), std::chrono::milliseconds(1500));
  EXPECT_EQ(tool->input_schema().document(), Json::parse(R"({"type":"object"})"));
}

TEST(DefineToolTest, ManifestHoldsExactlyTheRecordedFields) {
  auto tool = define_tool(valid_options());
  ASSERT_TRUE(tool.ok());
  EXPECT_EQ(tool->manifest(), Json::parse(R"({
      "id": "catalog.price", "version": "1", "description": "Price of one product in cents.",
      "effects": "read", "capabilities": ["catalog"], "costMicros": 25,
      "inputJsonSchema": {"type": "object"}})"));
}

TEST(DefineToolTest, CopiesShareOneDefinition) {
  auto tool = define_tool(valid_options());
  ASSERT_TRUE(tool.ok());
  Tool copy = *tool;
  EXPECT_EQ(&copy.manifest(), &tool->manifest());
}

TEST(ToolEffectsTest, NamesRoundTrip) {
  for (ToolEffects effects :
       {ToolEffects::kNone, ToolEffects::kRead, ToolEffects::kWrite, ToolEffects::kHost}) {
    EXPECT_EQ(tool_effects_from_string(to_string(effects)), effects);
  }
  EXPECT_EQ(to_string(ToolEffects::kWrite), "write");
  EXPECT_EQ(tool_effects_from_string("Write"), std::nullopt);
}

}  // namespace
}  // namespace codemode
