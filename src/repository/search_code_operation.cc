// searchCode: the lines of a snapshot's files that match, a page at a time, within the page's
// byte budget and the tools' scan time (docs/repositories.md).
#include <chrono>
#include <vector>

#include "repository/code_search.h"
#include "repository/operations.h"
#include "repository/page_budget.h"
#include "repository/repository_paths.h"
#include "repository/snapshot_reader.h"
#include "repository/text_lines.h"

namespace codemode::repository {
namespace {

constexpr std::string_view kName = "searchCode";

constexpr std::string_view kSchema = R"({"type": "object", "additionalProperties": false,
  "required": ["snapshot_id", "queries"],
  "properties": {
    "snapshot_id": {"type": "string", "minLength": 1, "maxLength": 1100},
    "queries": {"type": "array", "minItems": 1, "maxItems": 16, "items": {"type": "string", "minLength": 1, "maxLength": 1024}, "description": "A line matches when any query matches it."},
    "regex": {"type": "boolean", "description": "Queries are RE2 regular expressions (default false: literal text)."},
    "case_sensitive": {"type": "boolean", "description": "Default true."},
    "path_prefix": {"type": "string", "maxLength": 4096, "description": "Only this file or the files below this directory."},
    "glob": {"type": "string", "minLength": 1, "maxLength": 256},
    "globs": {"type": "array", "maxItems": 32, "items": {"type": "string", "minLength": 1, "maxLength": 256}},
    "exclude": {"type": "array", "maxItems": 32, "items": {"type": "string", "minLength": 1, "maxLength": 256}},
    "context_lines": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Lines shown before and after each match (default 0)."},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 100."},
    @PAGING@}})";

// `starts` is line_starts(content), made once per file.
std::vector<std::string> lines_around(std::string_view content,
                                      const std::vector<std::size_t>& starts,
                                      std::size_t line_number, std::size_t context, bool after) {
  std::vector<std::string> shown;
  if (context == 0) return shown;
  const std::size_t index = line_number - 1;
  const std::size_t from = after ? index + 1 : (index >= context ? index - context : 0);
  const std::size_t to = after ? std::min(starts.size(), index + 1 + context) : index;
  for (std::size_t i = from; i < to; ++i) {
    bool cut = false;
    shown.push_back(shown_line(line_at(content, starts, i), cut));
  }
  return shown;
}

Result<Json> search_code(RepositoryState& state, const Json& input, const ToolContext& context) {
  const auto began = std::chrono::steady_clock::now();
  const std::string snapshot_id = string_of(input, "snapshot_id");
  Result<Json> start = page_start(state, kName, snapshot_id, input);
  if (!start.ok()) return std::move(start).error();
  Result<SearchRequest> request = open_search(state, input, context.stop_token);
  if (!request.ok()) return std::move(request).error();
  const Matcher* matcher = &request->matcher;
  const SnapshotReader* reader = &request->reader;
  const SearchFiles* files = &request->files;

  std::size_t file_at = 0;
  std::size_t after_line = 0;  // in files[file_at], only matches past this line
  if (start->is_object()) {
    file_at = (*start)["file"].get<std::size_t>();
    after_line = (*start)["line"].get<std::size_t>();
  }
  const std::size_t context_lines = static_cast<std::size_t>(integer_of(input, "context_lines", 0));
  const std::size_t max_results = static_cast<std::size_t>(integer_of(input, "max_results", 100));
  const std::size_t max_bytes = max_bytes_of(input);
  ScanCounts counts;
  Json page = reader->provenance();
  page["items"] = Json::array();
  page["returned_items"] = 0;
  page["walk_truncated"] = (*files)->truncated;
  page["scan"] = counts.to_json();
  page["scan"]["files_scanned"] = (*files)->files.size();  // the widest the counts can be
  page["scan"]["bytes_scanned"] = kMaxSearchBlobBytes * (*files)->files.size();
  page["stopped"] = "time_budget";
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();

  Json items = Json::array();
  bool full = false;
  bool out_of_time = false;
  std::optional<Json> resume;
  bool scanned_any = false;
  std::vector<std::size_t> starts;  // of the file being scanned, made once when context needs it
  for (; file_at < (*files)->files.size() && !full; ++file_at, after_line = 0) {
    if (context.stop_token.stop_requested()) return Error::cancelled("cancelled", "Cancelled.");
    // At least one file a page, so that a page always moves on; then the clock.
    if (scanned_any && std::chrono::steady_clock::now() - began > state.options.search_time) {
      out_of_time = true;
      resume = Json{{"file", file_at}, {"line", after_line}};
      break;
    }
    scanned_any = true;
    const SearchFile& file = (*files)->files[file_at];
    Result<std::optional<LoadedFile>> loaded = load_searchable(*reader, file, counts);
    if (!loaded.ok()) return std::move(loaded).error();
    if (!loaded->has_value()) continue;
    const std::string_view content = (*loaded)->content;
    const std::string blob_sha = oid_hex(file.blob);
    // An item's size without serializing it: {"blob_sha":"<40>","line_number":N,"path":P,
    // "text":T} is 86 bytes beside the number, the path and the text (checked by the tests,
    // which compare every page's size with its budget).
    const std::size_t path_bytes = json_string_size(file.path);
    starts.clear();
    matcher->each_matching_line(content, [&](std::size_t line_number, std::string_view line) {
      if (line_number <= after_line) return true;
      if (items.size() >= max_results) {
        full = true;
        resume = Json{{"file", file_at}, {"line", line_number - 1}};
        return false;
      }
      bool cut = false;
      Json item{{"path", file.path},
                {"blob_sha", blob_sha},
                {"line_number", line_number},
                {"text", shown_line(line, cut)}};
      if (cut) item["cut"] = true;
      if (context_lines > 0) {
        if (starts.empty()) starts = line_starts(content);
        item["before"] = lines_around(content, starts, line_number, context_lines, false);
        item["after"] = lines_around(content, starts, line_number, context_lines, true);
      }
      const std::size_t item_bytes =
          context_lines > 0 || cut
              ? json_size(item)
              : 86 + std::to_string(line_number).size() + path_bytes +
                    json_string_size(item["text"].get_ref<const std::string&>());
      if (!budget.fits(item_bytes + 1) && items.empty()) {
        // A first match larger than the page: its line alone, cut to fit, so every page moves on.
        item.erase("before");
        item.erase("after");
        item["cut"] = true;  // measured with the mark it will carry
        const std::size_t frame =
            json_size(item) - json_string_size(item["text"].get<std::string>()) + 1;
        if (budget.room() > frame + 16) {
          item["text"] = cut_to_fit(item["text"].get<std::string>(), budget.room() - frame);
        }
      }
      if (!budget.take((items.empty() ? json_size(item) : item_bytes) + 1)) {
        full = true;
        resume = Json{{"file", file_at}, {"line", line_number - 1}};
        return false;
      }
      items.push_back(std::move(item));
      return true;
    });
    if (full) break;
  }
  if (items.empty() && full) return page_too_small();
  page["returned_items"] = items.size();
  page["items"] = std::move(items);
  page["scan"] = counts.to_json();
  if (out_of_time) {
    page["stopped"] = "time_budget";
  } else {
    page.erase("stopped");
  }
  std::optional<std::string> cursor;
  if (resume) cursor = next_cursor(state, kName, snapshot_id, input, *resume);
  return finish_page(std::move(page), max_bytes, cursor);
}

}  // namespace

OperationSpec search_code_operation() {
  return OperationSpec{
      .name = kName,
      .description =
          "Search a snapshot's text files for lines matching any of queries (literal, "
          "or RE2 with regex: true), filtered by path_prefix, globs and exclude. "
          "Returns {snapshot_id, repo, commit_sha, items: [{path, blob_sha, "
          "line_number, text, before?, after?}], scan: {files_scanned, bytes_scanned, "
          "skipped_binary, skipped_large}, stopped?: 'time_budget', has_more, "
          "next_cursor, budget}. Binary files and files over 8 MiB are skipped.",
      .input_schema = kSchema,
      .timeout = std::chrono::milliseconds(30'000),
      .run = search_code};
}

}  // namespace codemode::repository
