#include "repository/operations/operation_support.h"

#include <utility>

#include "repository/paging/page_budget.h"
#include "repository/paging/page_cursor.h"

namespace codemode::repository {

Tool define_operation(const std::shared_ptr<RepositoryState>& state, const OperationSpec& spec) {
  std::string schema(spec.input_schema);
  if (const std::size_t at = schema.find("@PAGING@"); at != std::string::npos) {
    schema.replace(at, 8, kPagingProperties);
  }
  Result<Schema> input = Schema::compile(Json::parse(schema));
  Operation run = spec.run;
  Result<Tool> tool = define_tool(ToolOptions{
      .id = state->tool_id(spec.name),
      .version = "1",
      .description = std::string(spec.description),
      .input = std::move(input).value(),
      .output = Schema::any(),
      .effects = ToolEffects::kRead,
      .timeout = spec.timeout,
      .execute = [state, run](const Json& in, const ToolContext& context, ToolResponder respond) {
        Result<Json> answer = run(*state, in, context);
        if (answer.ok()) return respond.succeed(std::move(answer).value());
        const Error& error = answer.error();
        if (error.code == ErrorCode::kCancelled) return;  // the broker reports the stop itself
        respond.fail_as(error.rule, error.message);
      }});
  return std::move(tool).value();
}

std::size_t max_bytes_of(const Json& input) {
  return static_cast<std::size_t>(
      integer_of(input, "max_bytes", static_cast<std::int64_t>(kDefaultPageBytes)));
}

std::int64_t integer_of(const Json& input, std::string_view key, std::int64_t fallback) {
  const auto found = input.find(key);
  if (found == input.end() || !found->is_number_integer()) return fallback;
  return found->get<std::int64_t>();
}

std::vector<std::string> strings_of(const Json& input, std::string_view key) {
  std::vector<std::string> strings;
  const auto found = input.find(key);
  if (found == input.end()) return strings;
  if (found->is_string()) {
    strings.push_back(found->get<std::string>());
  } else if (found->is_array()) {
    for (const Json& item : *found) {
      if (item.is_string()) strings.push_back(item.get<std::string>());
    }
  }
  return strings;
}

std::string string_of(const Json& input, std::string_view key, std::string_view fallback) {
  const auto found = input.find(key);
  if (found == input.end() || !found->is_string()) return std::string(fallback);
  return found->get<std::string>();
}

Result<Json> page_start(const RepositoryState& state, std::string_view operation,
                        std::string_view scope, const Json& input) {
  const auto cursor = input.find("cursor");
  if (cursor == input.end()) return Json(nullptr);
  return state.cursor_key.open(cursor->get<std::string>(), state.tool_id(operation), scope,
                               request_digest(input));
}

std::string next_cursor(const RepositoryState& state, std::string_view operation,
                        std::string_view scope, const Json& input, const Json& offset) {
  return state.cursor_key.seal(state.tool_id(operation), scope, request_digest(input), offset);
}

Result<PathFilter> path_filter_of(const Json& input) {
  std::vector<std::string> includes = strings_of(input, "glob");
  for (std::string& glob : strings_of(input, "globs")) includes.push_back(std::move(glob));
  return PathFilter::make(includes, strings_of(input, "exclude"));
}

Error page_too_small() {
  return Error::tool_failed("page_too_small",
                            "Not even one item fits max_bytes: raise max_bytes or narrow the "
                            "request.");
}

}  // namespace codemode::repository
