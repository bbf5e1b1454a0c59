// The JavaScript token scanner behind the code tool's input: depths, literals that hide brackets,
// the regular-expression heuristic, line breaks, and the texts it refuses to read.
#include "mcp/code_tool/js_brace_scanner.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace codemode::mcp {
namespace {

std::vector<JsToken> tokens_of(std::string_view source) {
  JsBraceScanner scanner(source);
  std::vector<JsToken> tokens;
  for (JsToken token = scanner.next();; token = scanner.next()) {
    tokens.push_back(token);
    if (token.kind == JsTokenKind::kEnd || token.kind == JsTokenKind::kUnreadable) return tokens;
  }
}

// "text@depth" for each token, for compact expectations.
std::vector<std::string> described(std::string_view source) {
  std::vector<std::string> out;
  for (const JsToken& token : tokens_of(source)) {
    out.push_back(std::string(token.text) + "@" + std::to_string(token.depth));
  }
  return out;
}

JsTokenKind last_kind(std::string_view source) { return tokens_of(source).back().kind; }

TEST(JsBraceScanner, AnOpenerAndItsCloserShareADepth) {
  EXPECT_EQ(described("f({a: [1]})"),
            (std::vector<std::string>{"f@0", "(@0", "{@1", "a@2", ":@2", "[@2", "1@3", "]@2", "}@1",
                                      ")@0", "@0"}));
}

TEST(JsBraceScanner, StringsCommentsAndRegexesHideBrackets) {
  EXPECT_EQ(described("x = '}' + \"{\\\"\" // }\n/* { */ + /[/}]/g"),
            (std::vector<std::string>{"x@0", "=@0", "'}'@0", "+@0", "\"{\\\"\"@0", "+@0",
                                      "/[/}]/g@0", "@0"}));
}

TEST(JsBraceScanner, TemplateSubstitutionsAreCodeNestedToAnyDepth) {
  EXPECT_EQ(described("`a${ {b: `}${'}'}`} }c`"),
            (std::vector<std::string>{"`a${@0", "{@1", "b@2", ":@2", "`}${@2", "'}'@3", "}`@2",
                                      "}@1", "}c`@0", "@0"}));
}

TEST(JsBraceScanner, ASlashAfterAnOperandIsDivision) {
  for (const char* source : {"a / b / c", "f() / 2 / 3", "x[0] / 2 / 3", "1 / 2 / 3", "'s' / 2 / 3",
                             "a.return / 2 / 3"}) {
    for (const JsToken& token : tokens_of(source)) {
      EXPECT_NE(token.kind, JsTokenKind::kRegex) << source;
    }
    EXPECT_EQ(last_kind(source), JsTokenKind::kEnd) << source;
  }
}

TEST(JsBraceScanner, ASlashWhereAnOperandBelongsStartsARegularExpression) {
  for (const char* source : {"/}/", "return /}/", "typeof /}/", "(/}/)", "x = /}/", "a, /}/",
                             "{} /}/", "`${/}/}`", "await /}/"}) {
    const std::vector<JsToken> tokens = tokens_of(source);
    EXPECT_EQ(tokens.back().kind, JsTokenKind::kEnd) << source;
    bool regex = false;
    for (const JsToken& token : tokens) regex = regex || token.kind == JsTokenKind::kRegex;
    EXPECT_TRUE(regex) << source;
  }
}

TEST(JsBraceScanner, LineBreaksAreNotedEvenInsideBlockComments) {
  const std::vector<JsToken> tokens = tokens_of("a b\nc /*\n*/ d /* */ e // x\nf");
  std::vector<bool> breaks;
  for (const JsToken& token : tokens) breaks.push_back(token.after_line_break);
  EXPECT_EQ(breaks, (std::vector<bool>{false, false, true, true, false, true, false}));
}

TEST(JsBraceScanner, UnfinishedOrUnbalancedTextIsUnreadable) {
  for (const char* source : {"'open", "\"a\nb\"", "`open", "`${ a `", "/* open", "f(", "f)", "(]",
                             "{ `${ ) }` }", "x = /open", "x = /a\nb/"}) {
    EXPECT_EQ(last_kind(source), JsTokenKind::kUnreadable) << source;
  }
}

TEST(JsBraceScanner, TheLastTokenRepeats) {
  JsBraceScanner scanner("'open");
  EXPECT_EQ(scanner.next().kind, JsTokenKind::kUnreadable);
  EXPECT_EQ(scanner.next().kind, JsTokenKind::kUnreadable);
  JsBraceScanner done("a");
  EXPECT_EQ(done.next().kind, JsTokenKind::kIdentifier);
  EXPECT_EQ(done.next().kind, JsTokenKind::kEnd);
  EXPECT_EQ(done.next().kind, JsTokenKind::kEnd);
}

}  // namespace
}  // namespace codemode::mcp
