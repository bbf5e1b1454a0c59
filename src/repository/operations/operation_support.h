// What every repository operation does the same way: its tool definition (read effects, the
// input schema, the shared state), its answer (a page, or a failure under the operation's own
// rule), its paging arguments and its cursor.
#ifndef CODEMODE_REPOSITORY_OPERATIONS_OPERATION_SUPPORT_H_
#define CODEMODE_REPOSITORY_OPERATIONS_OPERATION_SUPPORT_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/tool.h"

#include "repository/snapshot/repository_state.h"
#include "repository/walk/repository_paths.h"

namespace codemode::repository {

using Operation = std::function<Result<Json>(RepositoryState& state, const Json& input,
                                             const ToolContext& context)>;

struct OperationSpec {
  std::string_view name;          // "searchCode": the tool is "<namespace>.searchCode"
  std::string_view description;   // what a model reads
  std::string_view input_schema;  // JSON Schema draft 7 text
  std::chrono::milliseconds timeout{10'000};
  Operation run;
  // open: its answer is a snapshot, counted against code mode's snapshot budget, not the page one.
  bool opens_snapshot = false;
};

Tool define_operation(const std::shared_ptr<RepositoryState>& state, const OperationSpec& spec);

// The JSON Schema members every paged operation takes.
inline constexpr std::string_view kPagingProperties =
    R"("cursor": {"type": "string", "maxLength": 384, "description": "next_cursor of the previous page, unchanged; every other argument as before."},
       "max_bytes": {"type": "integer", "minimum": 1024, "maximum": 262144, "description": "The most bytes the whole answer may take as compact JSON (default 65536)."})";

std::size_t max_bytes_of(const Json& input);
// An integer member within its schema's range, or its default.
std::int64_t integer_of(const Json& input, std::string_view key, std::int64_t fallback);
std::vector<std::string> strings_of(const Json& input, std::string_view key);
std::string string_of(const Json& input, std::string_view key, std::string_view fallback = "");

// Where this page starts: null without a cursor; cursor_invalid / cursor_mismatch otherwise.
Result<Json> page_start(const RepositoryState& state, std::string_view operation,
                        std::string_view scope, const Json& input);
std::string next_cursor(const RepositoryState& state, std::string_view operation,
                        std::string_view scope, const Json& input, const Json& offset);

Error page_too_small();

// The request's `glob`, `globs` and `exclude` as one filter (invalid_pattern).
Result<PathFilter> path_filter_of(const Json& input);

}  // namespace codemode::repository

#endif  // CODEMODE_REPOSITORY_OPERATIONS_OPERATION_SUPPORT_H_
