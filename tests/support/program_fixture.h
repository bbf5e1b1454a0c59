// Shared fixtures for tests: the `number.double` tool and the `calculate` program that most
// executor and sandbox tests run, under reference_limits(), and a production-qualified adapter
// double for executor tests (a test double of the adapter interface, never a sandbox).
#ifndef CODEMODE_TESTS_SUPPORT_PROGRAM_FIXTURE_H_
#define CODEMODE_TESTS_SUPPORT_PROGRAM_FIXTURE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/program.h"
#include "codemode/test_sandbox.h"
#include "codemode/tool.h"

namespace codemode::testing {

// The wall time of a test that expects to finish: a sanitized worker under the two-lane runs of
// scripts/test (two sanitized suites on two cores, one of them the 1,000-execution stress test)
// took over a second to start twice in CI, so sanitized builds give it five. Tests that expect
// the wall limit to fire set their own.
#ifdef CODEMODE_SANITIZER_BUILD
inline constexpr std::int64_t kReferenceWallMillis = 5'000;
#else
inline constexpr std::int64_t kReferenceWallMillis = 1'000;
#endif

inline CodeLimits reference_limits() {
  return CodeLimits{.cpu_millis = 100,
                    .wall_time_millis = kReferenceWallMillis,
                    .memory_bytes = 32 * 1024 * 1024,
                    .scratch_bytes = 1024,
                    .max_input_bytes = 4096,
                    .max_output_bytes = 4096,
                    .max_tool_input_bytes = 2048,
                    .max_tool_calls = 4,
                    .max_tool_concurrency = 2};
}

inline Schema value_schema() {
  return Schema::compile(Json::parse(R"({"type":"object","properties":{"value":{"type":"number"}},
                                         "required":["value"],"additionalProperties":false})"))
      .value();
}

// number.double: {value} -> {value: 2 * value}, cost 1, effects none.
inline ToolOptions double_tool_options() {
  return ToolOptions{.id = "number.double",
                     .version = "1",
                     .description = "Doubles a number.",
                     .input = value_schema(),
                     .output = value_schema(),
                     .effects = ToolEffects::kNone,
                     .cost_micros = 1,
                     .execute = [](const Json& input, const ToolContext&, ToolResponder respond) {
                       respond.succeed(Json{{"value", input.at("value").get<double>() * 2}});
                     }};
}

inline Tool double_tool() { return define_tool(double_tool_options()).value(); }

inline CodeProgramOptions calculate_options() {
  return CodeProgramOptions{.id = "calculate",
                            .version = "1",
                            .intent = "Double a number with a tool.",
                            .language = ProgramLanguage::kTypeScript,
                            .source = "async (input, tools) => tools.call('number.double', input)",
                            .input = value_schema(),
                            .output = value_schema(),
                            .input_schema_id = "value.v1",
                            .output_schema_id = "value.v1",
                            .tools = {double_tool()},
                            .limits = reference_limits()};
}

inline CodeProgram calculate_program() { return define_code_program(calculate_options()).value(); }

// calculate_program in JavaScript, which the worker runs (TypeScript is unsupported_program).
inline CodeProgram javascript_calculate_program(CodeLimits limits = reference_limits()) {
  CodeProgramOptions options = calculate_options();
  options.language = ProgramLanguage::kJavaScript;
  options.limits = limits;
  return define_code_program(options).value();
}

// A JavaScript program with any input and output, calling `tools` (number.double by default).
inline CodeProgram any_json_program(std::string source, CodeLimits limits = reference_limits(),
                                    std::vector<Tool> tools = {double_tool()}) {
  CodeProgramOptions options = calculate_options();
  options.language = ProgramLanguage::kJavaScript;
  options.source = std::move(source);
  options.input = Schema::any();
  options.output = Schema::any();
  options.limits = limits;
  options.tools = std::move(tools);
  return define_code_program(options).value();
}

// A SandboxAdapter double with a chosen qualification, for executor tests.
class FakeAdapter final : public SandboxAdapter {
 public:
  FakeAdapter(std::string id, AdapterQualification qualification, TestProgramFn run)
      : id_(std::move(id)), qualification_(qualification), run_(std::move(run)) {}

  std::string id() const override { return id_; }
  std::string version() const override { return "1"; }
  AdapterQualification qualification() const override { return qualification_; }
  bool is_available() override { return available_ ? available_() : true; }
  SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                        std::stop_token stop) override {
    ++executions;
    return run_(request, tools, std::move(stop));
  }

  std::function<bool()> available_;
  std::atomic<int> executions{0};

 private:
  std::string id_;
  AdapterQualification qualification_;
  TestProgramFn run_;
};

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_PROGRAM_FIXTURE_H_
