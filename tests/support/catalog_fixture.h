// The catalog example (examples/catalog/): the catalog.price tool, the catalog.total program with
// its limits, and a standard broker granting tool:catalog.price and effect:read with Budget(0, 20).
#ifndef CODEMODE_TESTS_SUPPORT_CATALOG_FIXTURE_H_
#define CODEMODE_TESTS_SUPPORT_CATALOG_FIXTURE_H_

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "codemode/budget.h"
#include "codemode/code_mode.h"
#include "codemode/program.h"
#include "codemode/tool.h"

namespace codemode::testing {

// The shipped example program itself, so the tests run exactly what examples/ documents.
inline std::string catalog_total_source() {
  std::ifstream file(std::string(CODEMODE_SOURCE_DIR) + "/examples/catalog/total.js");
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

inline Tool catalog_price_tool() {
  return define_tool(
             {.id = "catalog.price",
              .version = "1",
              .description = "Price of one product in cents.",
              .input = Schema::compile(Json::parse(R"({"type":"object","properties":{"sku":
                                                      {"type":"string"}},"required":["sku"]})"))
                           .value(),
              .output = Schema::compile(Json::parse(R"({"type":"object","properties":{"cents":
                                                       {"type":"integer"}},"required":["cents"]})"))
                            .value(),
              .effects = ToolEffects::kRead,
              .cost_micros = 0,
              .execute =
                  [](const Json& in, const ToolContext&, ToolResponder respond) {
                    respond.succeed({{"cents", in["sku"].get<std::string>().size() * 100}});
                  }})
      .value();
}

inline CodeLimits catalog_limits() {
  return CodeLimits{.cpu_millis = 200,
                    .wall_time_millis = 5'000,
                    .memory_bytes = 32 * 1024 * 1024,
                    .scratch_bytes = 1'024,
                    .max_input_bytes = 4'096,
                    .max_output_bytes = 4'096,
                    .max_tool_input_bytes = 1'024,
                    .max_tool_calls = 20,
                    .max_tool_concurrency = 1};
}

inline CodeProgram catalog_total_program(std::vector<Tool> tools = {catalog_price_tool()}) {
  return define_code_program(
             {.id = "catalog.total",
              .version = "1",
              .intent = "Add up the prices of several products.",
              .language = ProgramLanguage::kJavaScript,
              .source = catalog_total_source(),
              .input = Schema::compile(Json::parse(R"({"type":"object","properties":{"skus":
                         {"type":"array","items":{"type":"string"},"maxItems":20}},
                         "required":["skus"]})"))
                           .value(),
              .output = Schema::compile(Json::parse(R"({"type":"object","properties":{
                          "totalCents":{"type":"integer"}},"required":["totalCents"]})"))
                            .value(),
              .input_schema_id = "catalog.skus.v1",
              .output_schema_id = "catalog.total.v1",
              .tools = std::move(tools),
              .limits = catalog_limits()})
      .value();
}

inline ToolBroker catalog_broker() {
  auto budget = Budget::create({.max_cost_micros = 0, .max_calls = 20}).value();
  return standard_broker(
      {.permissions = {.allow = {"tool:catalog.price", "effect:read"}}, .budget = budget});
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_CATALOG_FIXTURE_H_
