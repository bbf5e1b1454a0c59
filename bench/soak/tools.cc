#include "soak/tools.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <utility>

namespace codemode::soak {
namespace {

Result<Schema> object_schema(const char* text) { return Schema::compile(Json::parse(text)); }

constexpr const char* kValueSchema =
    R"({"type":"object","properties":{"value":{"type":"number"}},"required":["value"],
        "additionalProperties":false})";
constexpr const char* kSleepSchema =
    R"({"type":"object","properties":{"ms":{"type":"integer","minimum":1,"maximum":5000}},
        "required":["ms"],"additionalProperties":false})";

void double_value(const Json& input, const ToolContext&, ToolResponder respond) {
  respond.succeed(Json{{"value", input.at("value").get<double>() * 2}});
}

// Waits on the call's stop_token rather than sleeping blindly: a tool must return promptly once
// its call is stopped (tool.h), and the soak's wall-timeout and cancellation kinds rely on it.
void sleep_for_input(const Json& input, const ToolContext& context, ToolResponder respond) {
  const auto duration = std::chrono::milliseconds(input.at("ms").get<std::int64_t>());
  std::mutex mu;
  std::condition_variable_any wake;
  std::unique_lock lock(mu);
  wake.wait_for(lock, context.stop_token, duration, [] { return false; });
  if (!context.stop_token.stop_requested()) respond.succeed(Json{{"slept", duration.count()}});
}

void always_fail(const Json&, const ToolContext&, ToolResponder respond) { respond.fail(); }

Result<Tool> make_tool(std::string id, std::string description, const char* input_schema,
                       std::int64_t cost_micros, ToolExecuteFn execute) {
  Result<Schema> input = object_schema(input_schema);
  if (!input.ok()) return input.error();
  return define_tool({.id = std::move(id),
                      .version = "1",
                      .description = std::move(description),
                      .input = std::move(input).value(),
                      .output = Schema::any(),
                      .effects = ToolEffects::kNone,
                      .cost_micros = cost_micros,
                      .execute = std::move(execute)});
}

}  // namespace

Result<SoakTools> make_soak_tools() {
  Result<Tool> double_tool =
      make_tool("number.double", "Doubles a number.", kValueSchema, 1, double_value);
  Result<Tool> sleep = make_tool("soak.sleep", "Answers after ms milliseconds, unless stopped.",
                                 kSleepSchema, 0, sleep_for_input);
  Result<Tool> fail =
      make_tool("soak.fail", "Always fails.", R"({"type":"object"})", 0, always_fail);
  for (const Result<Tool>* tool : {&double_tool, &sleep, &fail}) {
    if (!tool->ok()) return tool->error();
  }
  return SoakTools{*double_tool, *sleep, *fail};
}

std::vector<Tool> all_tools(const SoakTools& tools) {
  return {tools.double_value, tools.sleep, tools.fail};
}

Permissions soak_permissions(const SoakTools& tools) {
  Permissions permissions;
  for (const Tool& tool : all_tools(tools)) permissions.allow.push_back("tool:" + tool.id());
  return permissions;
}

}  // namespace codemode::soak
