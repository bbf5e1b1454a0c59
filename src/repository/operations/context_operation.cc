// context: where the queries meet. Every matching line opens a window of context_lines around it;
// overlapping windows of a file merge; windows are ranked by how many distinct queries they hold,
// then by how many matching lines, then by path and line. At most kMaxCandidateWindows are
// considered (candidates_truncated past it), and a page holds max_results of them.
#include <algorithm>
#include <bit>
#include <chrono>
#include <vector>

#include "repository/operations/context_steps.h"
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

}  // namespace

namespace context_steps {

LineSpan span_around(std::size_t line_number, std::size_t around) {
  return LineSpan{.first = line_number > around ? line_number - around : 1,
                  .last = line_number + around};
}

bool add_match(Candidates& candidates, std::size_t file, std::size_t line_number, unsigned queries,
               std::size_t around) {
  const LineSpan span = span_around(line_number, around);
  std::vector<Window>& windows = candidates.windows;
  Window* open = windows.empty() ? nullptr : &windows.back();
  if (open != nullptr && open->file == file && span.first <= open->last + 1 &&
      span.last - open->first < kMaxWindowLines) {
    open->last = std::max(open->last, span.last);
    open->queries |= queries;
    open->matched.push_back(line_number);
    return true;
  }
  if (windows.size() >= kMaxCandidateWindows) {
    candidates.truncated = true;
    return false;
  }
  windows.push_back(Window{file, span.first, span.last, queries, {line_number}});
  return true;
}

Result<Candidates> collect_windows(const SearchRequest& request, std::size_t around,
                                   ScanLimit& limit, ScanCounts& counts) {
  Candidates candidates;
  const std::vector<SearchFile>& files = request.files->files;
  for (std::size_t file_at = 0; file_at < files.size() && !candidates.truncated; ++file_at) {
    if (!limit.may_go_on()) break;
    Result<std::optional<LoadedFile>> loaded =
        load_searchable(request.reader, files[file_at], counts);
    if (!loaded.ok()) return std::move(loaded).error();
    if (!loaded->has_value()) {
      limit.moved_on();
      continue;
    }
    const std::string_view content = (*loaded)->content;
    const auto found = [&](const MatchingLine& line) {
      const unsigned which = request.matcher.queries_matching(content, line.begin, line.end);
      return add_match(candidates, file_at, line.number, which, around);
    };
    const std::optional<ScanPosition> stopped_at =
        scan_file(request.matcher, content, ScanPosition{}, limit, counts,
                  ScanSink{found, [] { return true; }});
    if (stopped_at) break;  // the limit ended the scan, or the candidates are full
    limit.moved_on();       // an empty file too
  }
  return candidates;
}

void rank_windows(std::vector<Window>& windows) {
  std::stable_sort(windows.begin(), windows.end(), [](const Window& a, const Window& b) {
    const int a_queries = std::popcount(a.queries);
    const int b_queries = std::popcount(b.queries);
    if (a_queries != b_queries) return a_queries > b_queries;
    return a.matched.size() > b.matched.size();  // stable: then path and line order
  });
}

Json context_envelope(Json provenance, const Candidates& candidates, bool walk_truncated,
                      const ScanCounts& counts, bool out_of_time) {
  Json page = std::move(provenance);
  page["items"] = Json::array();
  page["returned_items"] = 0;
  page["total_windows"] = candidates.windows.size();
  page["candidates_truncated"] = candidates.truncated;
  page["walk_truncated"] = walk_truncated;
  page["scan"] = counts.to_json();
  if (out_of_time) page["stopped"] = "time_budget";
  return page;
}

std::string window_text(std::string_view content, const Window& window, std::size_t& last) {
  // Walked from the window's first line, never indexed whole (at most 100 windows a page).
  std::size_t offset = offset_of_line(content, window.first);
  last = std::min(window.last, line_count(content));
  std::string text;
  for (std::size_t line = window.first; line <= last; ++line) {
    bool cut = false;
    if (line != window.first) text += '\n';
    text += shown_line(next_line(content, offset), cut);
  }
  return text;
}

Json query_indexes(unsigned queries) {
  Json indexes = Json::array();
  for (unsigned i = 0; i < 16; ++i) {
    if ((queries >> i) & 1u) indexes.push_back(i);
  }
  return indexes;
}

Result<Json> window_item(const SnapshotReader& reader, const SearchFile& file,
                         const Window& window) {
  ScanCounts reread;  // the page's counts are the scan's, not these
  Result<std::optional<LoadedFile>> loaded = load_searchable(reader, file, reread);
  if (!loaded.ok()) return std::move(loaded).error();
  // The scan has just read it as text: only an object store changed since says otherwise.
  if (!loaded->has_value()) return unreadable(reader.snapshot().repository);
  std::size_t last = 0;
  std::string text = window_text((*loaded)->content, window, last);
  return Json{{"path", file.path},
              {"blob_sha", oid_hex(file.blob)},
              {"start_line", window.first},
              {"end_line", last},
              {"matched_lines", window.matched},
              {"queries_matched", query_indexes(window.queries)},
              {"text", std::move(text)}};
}

Result<WindowPage> page_windows(const SearchRequest& request, const std::vector<Window>& ranked,
                                std::size_t offset, std::size_t max_results, PageBudget& budget) {
  WindowPage page{.next = std::min(offset, ranked.size())};
  while (page.next < ranked.size() && page.items.size() < max_results) {
    const Window& window = ranked[page.next];
    Result<Json> item = window_item(request.reader, request.files->files[window.file], window);
    if (!item.ok()) return std::move(item).error();
    if (!budget.take(json_size(*item) + 1)) break;
    page.items.push_back(std::move(*item));
    ++page.next;
  }
  return page;
}

}  // namespace context_steps

namespace {

using namespace context_steps;

// A page of the ranked windows from the cursor's offset `start`, within max_results and
// max_bytes; `page` is the context_envelope.
Result<Json> ranked_page(const RepositoryState& state, const Json& input, const Json& start,
                         const SearchRequest& request, Json page,
                         const std::vector<Window>& ranked) {
  const std::size_t max_bytes = max_bytes_of(input);
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();
  const std::size_t offset = start.is_number_unsigned() ? start.get<std::size_t>() : 0;
  const std::size_t max_results = static_cast<std::size_t>(integer_of(input, "max_results", 20));
  Result<WindowPage> shown = page_windows(request, ranked, offset, max_results, budget);
  if (!shown.ok()) return std::move(shown).error();
  if (shown->items.empty() && shown->next < ranked.size()) return page_too_small();
  page["returned_items"] = shown->items.size();
  page["items"] = std::move(shown->items);
  std::optional<std::string> cursor;
  if (shown->next < ranked.size()) {
    cursor = next_cursor(state, kName, string_of(input, "snapshot_id"), input, Json(shown->next));
  }
  return finish_page(std::move(page), max_bytes, cursor);
}

Result<Json> context_windows(RepositoryState& state, const Json& input,
                             const ToolContext& context) {
  ScanLimit limit(std::chrono::steady_clock::now() + state.options.search_time, context.stop_token);
  Result<Json> start = page_start(state, kName, string_of(input, "snapshot_id"), input);
  if (!start.ok()) return std::move(start).error();
  Result<SearchRequest> request = open_search(state, input, context.stop_token);
  if (!request.ok()) return std::move(request).error();
  const std::size_t around = static_cast<std::size_t>(integer_of(input, "context_lines", 4));
  ScanCounts counts;
  Result<Candidates> candidates = collect_windows(*request, around, limit, counts);
  if (!candidates.ok()) return std::move(candidates).error();
  if (limit.cancelled()) return Error::cancelled("cancelled", "Cancelled.");
  rank_windows(candidates->windows);
  Json page = context_envelope(request->reader.provenance(), *candidates, request->files->truncated,
                               counts, limit.out_of_time());
  return ranked_page(state, input, *start, *request, std::move(page), candidates->windows);
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
