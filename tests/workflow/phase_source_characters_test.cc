// A durable phase's source holds only characters a reviewer sees where the engine sees them
// (workflow/definition/reviewable_text.h): every other one is refused when the workflow is
// defined, wherever it is, and the error says where without echoing the source.
#include <array>
#include <cstdio>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "codemode/workflow.h"

#include "workflow/definition/reviewable_text.h"
#include "workflow/durable_fixture.h"

namespace codemode::testing {
namespace {

class PhaseSourceCharactersTest : public ::testing::Test {
 protected:
  Result<DurableWorkflow> define_with_source(std::string source) {
    return define_durable_workflow(one_phase_options(write_program(write_, std::move(source))));
  }

  Tool write_ = external_write_tool("/dev/null");
};

// Each kind the rule names, and the ones an attacker reaches for first.
constexpr char32_t kRefused[] = {
    0x000D, 0x2028,  0x2029,  // line breaks a viewer may not draw
    0x202A, 0x202B,  0x202C,  0x202D,  0x202E,  0x2066,  0x2067,  // bidirectional controls
    0x2068, 0x2069,  0x200E,  0x200F,  0x061C,                    //
    0x200B, 0x200C,  0x200D,  0x2060,  0x2064,  0xFEFF,  0x00AD,  // invisible format characters
    0x180E, 0x0600,  0x110BD, 0xE0001, 0xE0041, 0xE007F,          // (Cf), tags among them
    0xFE0F, 0xE0100, 0x3164,  0x034F,                             // default ignorable, not Cf
    0x0000, 0x0007,  0x000B,  0x000C,  0x001B,  0x007F,  0x0085,  // controls
};

std::string utf8(char32_t c) {
  if (c < 0x80) return std::string(1, static_cast<char>(c));
  auto unit = [](char32_t bits) { return static_cast<char>(0x80 | (bits & 0x3F)); };
  if (c < 0x800) return {static_cast<char>(0xC0 | (c >> 6)), unit(c)};
  if (c < 0x10000) return {static_cast<char>(0xE0 | (c >> 12)), unit(c >> 6), unit(c)};
  return {static_cast<char>(0xF0 | (c >> 18)), unit(c >> 12), unit(c >> 6), unit(c)};
}

// How the message names it.
std::string name_of(char32_t c) {
  if (c == U'\r') return "carriage return";
  std::array<char, 16> name{};
  std::snprintf(name.data(), name.size(), "U+%04X", static_cast<unsigned>(c));
  return name.data();
}

TEST_F(PhaseSourceCharactersTest, RefusesEveryCharacterAReviewerCouldMissEvenInAString) {
  for (const char32_t refused : kRefused) {
    // The character sits in a string literal at line 2, column 18, after a CRLF line.
    Result<DurableWorkflow> workflow =
        define_with_source("async (input, tools) => {\r\n  const note = 's" + utf8(refused) +
                           "secret';\n  const r = await tools.call('external.write', input);\n"
                           "  return { value: r.output.value };\n}");
    const std::string name = name_of(refused);
    ASSERT_FALSE(workflow.ok()) << name;
    EXPECT_EQ(workflow.error().code, ErrorCode::kInvalidConfig) << name;
    EXPECT_EQ(workflow.error().rule, "phase_source_characters") << name;
    EXPECT_NE(workflow.error().message.find(name), std::string::npos) << workflow.error().message;
    EXPECT_NE(workflow.error().message.find("at line 2, column 18"), std::string::npos)
        << workflow.error().message;
    EXPECT_NE(workflow.error().message.find("Phase \"update\""), std::string::npos);
    EXPECT_EQ(workflow.error().message.find("secret"), std::string::npos) << "never the source";
  }
}

TEST_F(PhaseSourceCharactersTest, RefusesCodeHiddenAfterACommentAtALoneCarriageReturn) {
  // The console once drew this as one comment line while the engine ran the assignment.
  Result<DurableWorkflow> workflow = define_with_source(
      "async (input, tools) => { // note\rinput.value = 50;\n"
      "  const r = await tools.call('external.write', input); return { value: r.output.value }; }");
  ASSERT_FALSE(workflow.ok());
  EXPECT_EQ(workflow.error().rule, "phase_source_characters");
  EXPECT_NE(workflow.error().message.find("line 1, column 34"), std::string::npos)
      << workflow.error().message;
}

TEST_F(PhaseSourceCharactersTest, CrlfTabsAndVisibleCharactersAreOrdinary) {
  // Line breaks as CRLF, a tab, accented and non-Latin letters, an emoji, a no-break space and a
  // lookalike Cyrillic letter in strings: all visible, all allowed (the console marks the last).
  EXPECT_TRUE(define_with_source(
                  "async (input, tools) => {\r\n\tconst words = ['caf\xC3\xA9', '\xE2\x82\xAC', "
                  "'\xF0\x9F\x98\x80', 'a\xC2\xA0"
                  "b', 'p\xD0\xB0ss'];\r\n"
                  "  const r = await tools.call('external.write', input);\r\n"
                  "  return { value: r.output.value };\r\n}\r\n")
                  .ok());
  // Written as escapes, the refused characters are fine: the escape is what a reviewer reads.
  EXPECT_TRUE(define_with_source("async (input, tools) => { const s = '\\u202E\\u2028\\r'; "
                                 "const r = await tools.call('external.write', input); "
                                 "return { value: r.output.value }; }")
                  .ok());
}

TEST_F(PhaseSourceCharactersTest, PositionsAreCountedAsTheEngineCountsThem) {
  using internal::find_hidden_character;
  // Lines end at LF and CRLF; a column counts code points, as SpiderMonkey's columnNumber does
  // (an emoji, two UTF-16 units, is one column).
  const auto found = find_hidden_character("a\nb\r\n\xF0\x9F\x98\x80x\xE2\x80\xAE");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->code_point, U'\u202E');
  EXPECT_EQ(found->line, 3u);
  EXPECT_EQ(found->column, 3u);
  // A carriage return at the very end is as lone as any.
  EXPECT_EQ(find_hidden_character("x\r")->column, 2u);
  EXPECT_FALSE(find_hidden_character("x\r\n").has_value());
}

TEST_F(PhaseSourceCharactersTest, OnlyDurablePhasesAreHeldToIt) {
  // A program run directly (codemode run, the MCP execute tool) has no reviewer to mislead.
  EXPECT_TRUE(define_code_program({.id = "p",
                                   .version = "1",
                                   .intent = "A separator in a string.",
                                   .source = "async () => ({value: '\xE2\x80\xA8'})",
                                   .input = value_object_schema(),
                                   .output = value_object_schema(),
                                   .input_schema_id = "value.v1",
                                   .output_schema_id = "value.v1",
                                   .limits = durable_limits()})
                  .ok());
}

}  // namespace
}  // namespace codemode::testing
