// context: where the queries meet. Every matching line opens a window of context_lines around it;
// overlapping windows of a file merge; windows are ranked by how many distinct queries they hold,
// then by how many matching lines, then by path and line. At most kMaxCandidateWindows are
// considered (candidates_truncated past it), and a page holds max_results of them.
#include <algorithm>
#include <bit>
#include <chrono>
#include <vector>

#include "repository/operations/operations.h"
#include "repository/paging/page_budget.h"
#include "repository/search/code_search.h"
#include "repository/snapshot/snapshot_reader.h"
#include "repository/snapshot/text_lines.h"
#include "repository/walk/file_scan.h"
#include "repository/walk/repository_paths.h"

namespace codemode::repository {
namespace {

constexpr std::string_view kName = "context";
constexpr std::size_t kMaxCandidateWindows = 5'000;
constexpr std::size_t kMaxWindowLines = 400;

constexpr std::string_view kSchema = R"({"type": "object", "additionalProperties": false,
  "required": ["snapshot_id", "queries"],
  "properties": {
    "snapshot_id": {"type": "string", "minLength": 1, "maxLength": 1100},
    "queries": {"type": "array", "minItems": 1, "maxItems": 16, "items": {"type": "string", "minLength": 1, "maxLength": 1024}},
    "regex": {"type": "boolean", "description": "Queries are RE2 regular expressions (default false: literal text)."},
    "case_sensitive": {"type": "boolean", "description": "Default true."},
    "path_prefix": {"type": "string", "maxLength": 4096},
    "glob": {"type": "string", "minLength": 1, "maxLength": 256},
    "globs": {"type": "array", "maxItems": 32, "items": {"type": "string", "minLength": 1, "maxLength": 256}},
    "exclude": {"type": "array", "maxItems": 32, "items": {"type": "string", "minLength": 1, "maxLength": 256}},
    "context_lines": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Lines around each match (default 4)."},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Windows per page (default 20)."},
    @PAGING@}})";

struct Window {
  std::size_t file = 0;
  std::size_t first = 0;  // 1-based, inclusive
  std::size_t last = 0;
  unsigned queries = 0;
  std::vector<std::size_t> matched;
};

Result<Json> context_windows(RepositoryState& state, const Json& input,
                             const ToolContext& context) {
  const auto began = std::chrono::steady_clock::now();
  const std::string snapshot_id = string_of(input, "snapshot_id");
  Result<Json> start = page_start(state, kName, snapshot_id, input);
  if (!start.ok()) return std::move(start).error();
  Result<SearchRequest> request = open_search(state, input, context.stop_token);
  if (!request.ok()) return std::move(request).error();
  const Matcher* matcher = &request->matcher;
  const SnapshotReader* reader = &request->reader;
  const SearchFiles* files = &request->files;

  const std::size_t around = static_cast<std::size_t>(integer_of(input, "context_lines", 4));
  ScanCounts counts;
  std::vector<Window> windows;
  bool truncated = false;
  ScanLimit limit(began + state.options.search_time, context.stop_token);
  for (std::size_t file_at = 0; file_at < (*files)->files.size() && !truncated; ++file_at) {
    if (!limit.may_go_on()) break;
    Result<std::optional<LoadedFile>> loaded =
        load_searchable(*reader, (*files)->files[file_at], counts);
    if (!loaded.ok()) return std::move(loaded).error();
    if (!loaded->has_value()) {
      limit.moved_on();
      continue;
    }
    const std::string_view content = (*loaded)->content;
    const auto found = [&](const MatchingLine& line) {
      const std::size_t first = line.number > around ? line.number - around : 1;
      const std::size_t last = line.number + around;
      const unsigned which = matcher->queries_matching(content, line.begin, line.end);
      Window* open = windows.empty() ? nullptr : &windows.back();
      if (open != nullptr && open->file == file_at && first <= open->last + 1 &&
          last - open->first < kMaxWindowLines) {
        open->last = std::max(open->last, last);
        open->queries |= which;
        open->matched.push_back(line.number);
        return true;
      }
      if (windows.size() >= kMaxCandidateWindows) {
        truncated = true;
        return false;
      }
      windows.push_back(Window{file_at, first, last, which, {line.number}});
      return true;
    };
    const std::optional<ScanPosition> stopped_at = scan_file(
        *matcher, content, ScanPosition{}, limit, counts, ScanSink{found, [] { return true; }});
    if (stopped_at) break;  // the limit ended the scan, or the candidates are full
    limit.moved_on();       // an empty file too
  }
  if (limit.cancelled()) return Error::cancelled("cancelled", "Cancelled.");
  const bool out_of_time = limit.out_of_time();
  std::stable_sort(windows.begin(), windows.end(), [](const Window& a, const Window& b) {
    const int a_queries = std::popcount(a.queries);
    const int b_queries = std::popcount(b.queries);
    if (a_queries != b_queries) return a_queries > b_queries;
    return a.matched.size() > b.matched.size();  // stable: then path and line order
  });

  const std::size_t offset = start->is_number_unsigned() ? start->get<std::size_t>() : 0;
  const std::size_t max_results = static_cast<std::size_t>(integer_of(input, "max_results", 20));
  const std::size_t max_bytes = max_bytes_of(input);
  Json page = reader->provenance();
  page["items"] = Json::array();
  page["returned_items"] = 0;
  page["total_windows"] = windows.size();
  page["candidates_truncated"] = truncated;
  page["walk_truncated"] = (*files)->truncated;
  page["scan"] = counts.to_json();
  if (out_of_time) page["stopped"] = "time_budget";
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();
  Json items = Json::array();
  std::size_t at = std::min(offset, windows.size());
  ScanCounts reread;
  while (at < windows.size() && items.size() < max_results) {
    const Window& window = windows[at];
    const SearchFile& file = (*files)->files[window.file];
    Result<std::optional<LoadedFile>> loaded = load_searchable(*reader, file, reread);
    if (!loaded.ok()) return std::move(loaded).error();
    if (!loaded->has_value()) return unreadable(reader->snapshot().repository);
    const std::string_view content = (*loaded)->content;
    // Walked from the window's first line, never indexed whole (at most 100 windows a page).
    std::size_t offset = offset_of_line(content, window.first);
    const std::size_t last = std::min(window.last, line_count(content));
    std::string text;
    for (std::size_t line = window.first; line <= last; ++line) {
      bool cut = false;
      if (line != window.first) text += '\n';
      text += shown_line(next_line(content, offset), cut);
    }
    Json queries = Json::array();
    for (unsigned i = 0; i < 16; ++i) {
      if ((window.queries >> i) & 1u) queries.push_back(i);
    }
    Json item{{"path", file.path},
              {"blob_sha", oid_hex(file.blob)},
              {"start_line", window.first},
              {"end_line", last},
              {"matched_lines", window.matched},
              {"queries_matched", std::move(queries)},
              {"text", std::move(text)}};
    if (!budget.take(json_size(item) + 1)) break;
    items.push_back(std::move(item));
    ++at;
  }
  if (items.empty() && at < windows.size()) return page_too_small();
  page["returned_items"] = items.size();
  page["items"] = std::move(items);
  std::optional<std::string> cursor;
  if (at < windows.size()) cursor = next_cursor(state, kName, snapshot_id, input, Json(at));
  return finish_page(std::move(page), max_bytes, cursor);
}

}  // namespace

OperationSpec context_operation() {
  return OperationSpec{
      .name = kName,
      .description =
          "Find where the queries meet: windows of context_lines around matching "
          "lines, merged per file and ranked by how many distinct queries each holds. "
          "Returns {snapshot_id, repo, commit_sha, items: [{path, blob_sha, start_line, "
          "end_line, matched_lines, queries_matched (indexes), text}], total_windows, "
          "candidates_truncated, scan, has_more, next_cursor, budget}.",
      .input_schema = kSchema,
      .timeout = std::chrono::milliseconds(30'000),
      .run = context_windows};
}

}  // namespace codemode::repository
