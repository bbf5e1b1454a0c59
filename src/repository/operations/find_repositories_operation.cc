// findRepositories: the repositories under the roots, by name, a page at a time.
#include <algorithm>
#include <cctype>

#include "repository/operations/operations.h"
#include "repository/paging/page_budget.h"
#include "repository/walk/repository_paths.h"

namespace codemode::repository {
namespace {

constexpr std::string_view kName = "findRepositories";

constexpr std::string_view kSchema = R"({"type": "object", "additionalProperties": false,
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "maxLength": 256, "description": "Keep names containing this text (any case), or matching it as a glob when it holds * ? or [."},
    "max_items": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 100."},
    @PAGING@}})";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

Result<Json> find_repositories(RepositoryState& state, const Json& input,
                               const ToolContext& context) {
  Result<Json> start = page_start(state, kName, "", input);
  if (!start.ok()) return std::move(start).error();
  const std::size_t offset = start->is_number_unsigned() ? start->get<std::size_t>() : 0;
  const std::string pattern = string_of(input, "pattern");
  const bool is_glob = pattern.find_first_of("*?[") != std::string::npos;
  Result<PathFilter> name_filter = PathFilter::make(
      is_glob ? std::vector<std::string>{pattern} : std::vector<std::string>{}, {});
  if (!name_filter.ok()) return std::move(name_filter).error();
  const RepositoryWalk walk = state.roots.walk(state.options.walk_depth, context.stop_token);
  if (context.stop_token.stop_requested()) return Error::cancelled("cancelled", "Cancelled.");
  const std::string needle = lower(pattern);
  std::vector<const FoundRepository*> kept;
  for (const FoundRepository& found : walk.found) {
    const bool passes = is_glob ? name_filter->passes(found.name)
                                : lower(found.name).find(needle) != std::string::npos;
    if (passes) kept.push_back(&found);
  }
  const std::size_t max_items = static_cast<std::size_t>(integer_of(input, "max_items", 100));
  const std::size_t max_bytes = max_bytes_of(input);
  Json page{{"items", Json::array()},
            {"returned_items", 0},
            {"total_items", kept.size()},
            {"walk_truncated", walk.truncated}};
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();
  std::size_t at = std::min(offset, kept.size());
  Json items = Json::array();
  while (at < kept.size() && items.size() < max_items) {
    Json item{{"repo", kept[at]->name}, {"bare", kept[at]->bare}};
    if (!budget.take(json_size(item) + 1)) break;
    items.push_back(std::move(item));
    ++at;
  }
  if (items.empty() && at < kept.size()) return page_too_small();
  page["returned_items"] = items.size();
  page["items"] = std::move(items);
  std::optional<std::string> cursor;
  if (at < kept.size()) cursor = next_cursor(state, kName, "", input, Json(at));
  return finish_page(std::move(page), max_bytes, cursor);
}

}  // namespace

OperationSpec find_repositories_operation() {
  return OperationSpec{
      .name = kName,
      .description =
          "Find git repositories under the configured roots (a bounded walk), by name. "
          "Returns {items: [{repo, bare}], total_items, has_more, next_cursor, budget}.",
      .input_schema = kSchema,
      .timeout = std::chrono::milliseconds(10'000),
      .run = find_repositories};
}

}  // namespace codemode::repository
