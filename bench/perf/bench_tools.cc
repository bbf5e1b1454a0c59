#include "perf/bench_tools.h"

#include <string>
#include <utility>

namespace codemode::perf {
namespace {

constexpr const char* kSkuSchema =
    R"({"type":"object","properties":{"sku":{"type":"string"}},"required":["sku"]})";
constexpr const char* kCentsSchema =
    R"({"type":"object","properties":{"cents":{"type":"integer"}},"required":["cents"]})";
constexpr const char* kValueSchema =
    R"({"type":"object","properties":{"value":{"type":"number"}},"required":["value"]})";

void price(const Json& input, const ToolContext&, ToolResponder respond) {
  respond.succeed({{"cents", input.at("sku").get<std::string>().size() * 100}});
}

void double_value(const Json& input, const ToolContext&, ToolResponder respond) {
  respond.succeed({{"value", input.at("value").get<double>() * 2}});
}

Result<Tool> make_tool(std::string id, const char* input_schema, const char* output_schema,
                       ToolEffects effects, ToolExecuteFn execute) {
  Result<Schema> input = Schema::compile(Json::parse(input_schema));
  if (!input.ok()) return input.error();
  Result<Schema> output = Schema::compile(Json::parse(output_schema));
  if (!output.ok()) return output.error();
  return define_tool({.id = std::move(id),
                      .version = "1",
                      .description = "A codemode-bench tool that answers at once, never waiting.",
                      .input = std::move(input).value(),
                      .output = std::move(output).value(),
                      .effects = effects,
                      .execute = std::move(execute),
                      .non_blocking = true});
}

}  // namespace

Result<BenchTools> make_bench_tools() {
  Result<Tool> catalog =
      make_tool("catalog.price", kSkuSchema, kCentsSchema, ToolEffects::kRead, price);
  if (!catalog.ok()) return catalog.error();
  Result<Tool> doubled =
      make_tool("number.double", kValueSchema, kValueSchema, ToolEffects::kNone, double_value);
  if (!doubled.ok()) return doubled.error();
  return BenchTools{std::move(catalog).value(), std::move(doubled).value()};
}

std::vector<Tool> all_tools(const BenchTools& tools) {
  return {tools.catalog_price, tools.double_value};
}

Permissions bench_permissions(const BenchTools& tools) {
  Permissions permissions;
  for (const Tool& tool : all_tools(tools)) permissions.allow.push_back("tool:" + tool.id());
  permissions.allow.push_back("effect:read");
  return permissions;
}

}  // namespace codemode::perf
