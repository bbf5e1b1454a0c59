// The catalog example (examples/catalog/) in C++: a program sums product prices by calling
// `catalog.price`, a C++ tool, once per SKU. It shows the whole host side — a tool, a program with
// its schemas and limits, a budget shared by the calls, the standard broker, and the production
// process adapter, which runs the program in a fresh confined worker. It leaves out guards,
// capabilities and cancellation (see include/codemode/tool.h and code_mode.h).
//
// Run: ./build/catalog_total   (prints the outcome as JSON; exit 0 when it succeeded)
#include <cstdio>

#include "codemode/code_mode.h"
#include "codemode/process_adapter.h"

using codemode::Json;

int main() {
  using namespace codemode;

  // An example laid out to be read, one field per line.
  // clang-format off
  auto price = define_tool({
      .id = "catalog.price",
      .version = "1",
      .description = "Price of one product in cents.",
      .input = Schema::compile(Json::parse(R"({"type":"object","properties":{"sku":
                 {"type":"string"}},"required":["sku"]})")).value(),
      .output = Schema::compile(Json::parse(R"({"type":"object","properties":{"cents":
                  {"type":"integer"}},"required":["cents"]})")).value(),
      .effects = ToolEffects::kRead,
      .execute = [](const Json& input, const ToolContext&, ToolResponder respond) {
        respond.succeed({{"cents", input.at("sku").get<std::string>().size() * 100}});
      },
      // It answers before returning and never waits, so its calls need no thread of their own.
      .non_blocking = true}).value();

  auto program = define_code_program({
      .id = "catalog.total",
      .version = "1",
      .intent = "Add up the prices of several products.",
      .source = R"js(async (input, tools) => {
        let total = 0;
        for (const sku of input.skus) {
          const result = await tools.call('catalog.price', { sku });
          if (result.status !== 'succeeded') throw new Error('price lookup failed');
          total += result.output.cents;
        }
        return { totalCents: total };
      })js",
      .input = Schema::compile(Json::parse(R"({"type":"object","properties":{"skus":
                 {"type":"array","items":{"type":"string"},"maxItems":20}},"required":["skus"]})"))
                 .value(),
      .output = Schema::compile(Json::parse(R"({"type":"object","properties":{"totalCents":
                  {"type":"integer"}},"required":["totalCents"]})")).value(),
      .input_schema_id = "catalog.skus.v1",
      .output_schema_id = "catalog.total.v1",
      .tools = {price},
      .limits = {.cpu_millis = 200, .wall_time_millis = 5'000, .memory_bytes = 32 << 20,
                 .scratch_bytes = 1'024, .max_input_bytes = 4'096, .max_output_bytes = 4'096,
                 .max_tool_input_bytes = 1'024, .max_tool_calls = 20, .max_tool_concurrency = 1},
  }).value();

  // At most 20 calls in total, none of which may cost anything.
  auto budget = Budget::create({.max_cost_micros = 0, .max_calls = 20}).value();
  auto mode = CodeMode::create({
      .adapter = make_process_adapter(),
      .invoke_tool = standard_broker({
          .permissions = {.allow = {"tool:catalog.price", "effect:read"}}, .budget = budget}),
  }).value();

  CodeExecutionOutcome outcome = mode->execute(program, {{"skus", {"ab", "cde"}}}, {
      .run_id = "run-1",
      .execution_id = "run-1:total",
      .scope = {.principal_id = "local", .project_id = "demo"},
  });
  // clang-format on
  std::printf("%s\n", to_json(outcome).dump().c_str());
  return outcome.ok() ? 0 : 1;
}
