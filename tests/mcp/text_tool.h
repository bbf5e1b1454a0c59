// t.text: {n} -> {text: n times "x"}, read effects. The code-tool tests' one tool.
#ifndef CODEMODE_TESTS_MCP_TEXT_TOOL_H_
#define CODEMODE_TESTS_MCP_TEXT_TOOL_H_

#include <string>

#include "codemode/tool.h"

namespace codemode::testing {

inline Tool text_tool() {
  return define_tool({.id = "t.text",
                      .version = "1",
                      .description = "n characters of text.",
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .effects = ToolEffects::kRead,
                      .execute =
                          [](const Json& input, const ToolContext&, ToolResponder respond) {
                            respond.succeed({{"text", std::string(input.value("n", 0), 'x')}});
                          }})
      .value();
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_MCP_TEXT_TOOL_H_
