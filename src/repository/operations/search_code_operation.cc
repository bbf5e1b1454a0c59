// searchCode: the lines of a snapshot's files that match, a page at a time, within the page's
// byte budget and the tools' scan time (docs/repositories.md).
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

// The items of one page, within max_results and the page's byte budget, and the room for
// scan.skipped_long_lines, which appears only when a line was skipped: its room is taken at the
// first, so that pages that skip none keep theirs.
class PageItems {
 public:
  PageItems(const Json& input, const Json& envelope, std::size_t files, std::size_t max_line_bytes)
      : context_lines_(static_cast<std::size_t>(integer_of(input, "context_lines", 0))),
        max_results_(static_cast<std::size_t>(integer_of(input, "max_results", 100))),
        budget_(max_bytes_of(input), envelope),
        long_lines_bytes_(
            json_size(Json{
                {"skipped_long_lines", (kMaxSearchBlobBytes / (max_line_bytes + 1) + 1) * files}}) -
            1) {}

  bool viable() const { return budget_.viable(); }
  bool full() const { return full_; }
  Json take() { return std::move(items_); }

  // For the lines of `file` that follow.
  void start_file(const SearchFile& file, std::string_view content) {
    file_ = &file;
    content_ = content;
    blob_sha_ = oid_hex(file.blob);
    path_bytes_ = json_string_size(file.path);
    starts_.clear();
  }

  // Whether `line` was added; false when the page is full.
  bool add(const MatchingLine& line) {
    if (items_.size() >= max_results_) return fill();
    bool cut = false;
    Json item{{"path", file_->path},
              {"blob_sha", blob_sha_},
              {"line_number", line.number},
              {"text", shown_line(line.text, cut)}};
    if (cut) item["cut"] = true;
    if (context_lines_ > 0) {
      if (starts_.empty()) starts_ = line_starts(content_);
      item["before"] = lines_around(content_, starts_, line.number, context_lines_, false);
      item["after"] = lines_around(content_, starts_, line.number, context_lines_, true);
    }
    // An item's size without serializing it: {"blob_sha":"<40>","line_number":N,"path":P,
    // "text":T} is 86 bytes beside the number, the path and the text (checked by the tests,
    // which compare every page's size with its budget).
    const std::size_t item_bytes =
        context_lines_ > 0 || cut
            ? json_size(item)
            : 86 + std::to_string(line.number).size() + path_bytes_ +
                  json_string_size(item["text"].get_ref<const std::string&>());
    if (!budget_.fits(item_bytes + 1) && items_.empty()) cut_to_page(item);
    if (!budget_.take((items_.empty() ? json_size(item) : item_bytes) + 1)) return fill();
    items_.push_back(std::move(item));
    return true;
  }

  // Whether a skipped line can be counted in the page; false when it is full.
  bool skipping_long_line() {
    if (!long_lines_room_ && !budget_.take(long_lines_bytes_)) return fill();
    long_lines_room_ = true;
    return true;
  }

 private:
  bool fill() {
    full_ = true;
    return false;
  }

  // A first match larger than the page: its line alone, cut to fit, so every page moves on.
  void cut_to_page(Json& item) const {
    item.erase("before");
    item.erase("after");
    item["cut"] = true;  // measured with the mark it will carry
    const std::size_t frame =
        json_size(item) - json_string_size(item["text"].get<std::string>()) + 1;
    if (budget_.room() > frame + 16) {
      item["text"] = cut_to_fit(item["text"].get<std::string>(), budget_.room() - frame);
    }
  }

  const std::size_t context_lines_;
  const std::size_t max_results_;
  PageBudget budget_;
  const std::size_t long_lines_bytes_;
  bool long_lines_room_ = false;
  bool full_ = false;
  Json items_ = Json::array();
  const SearchFile* file_ = nullptr;
  std::string_view content_;
  std::string blob_sha_;
  std::size_t path_bytes_ = 0;
  std::vector<std::size_t> starts_;  // of the file, made once when context needs it
};

Json resume_at(std::size_t file, ScanPosition position) {
  return Json{{"file", file}, {"line", position.line}, {"offset", position.offset}};
}

Result<Json> search_code(RepositoryState& state, const Json& input, const ToolContext& context) {
  ScanLimit limit(std::chrono::steady_clock::now() + state.options.search_time, context.stop_token);
  const std::string snapshot_id = string_of(input, "snapshot_id");
  Result<Json> start = page_start(state, kName, snapshot_id, input);
  if (!start.ok()) return std::move(start).error();
  Result<SearchRequest> request = open_search(state, input, context.stop_token);
  if (!request.ok()) return std::move(request).error();
  const SnapshotReader& reader = request->reader;
  const std::vector<SearchFile>& files = request->files->files;

  std::size_t file_at = 0;
  ScanPosition from;  // in files[file_at]
  if (start->is_object()) {
    file_at = (*start)["file"].get<std::size_t>();
    from = ScanPosition{(*start)["offset"].get<std::size_t>(), (*start)["line"].get<std::size_t>()};
  }
  ScanCounts counts;
  Json page = reader.provenance();
  page["items"] = Json::array();
  page["returned_items"] = 0;
  page["walk_truncated"] = request->files->truncated;
  page["scan"] = counts.to_json();
  // The widest the counts can be.
  page["scan"]["files_scanned"] = files.size();
  page["scan"]["bytes_scanned"] = kMaxSearchBlobBytes * files.size();
  page["stopped"] = "time_budget";
  PageItems items(input, page, files.size(), request->matcher.max_line_bytes());
  if (!items.viable()) return page_too_small();

  std::optional<Json> resume;
  const ScanSink sink{[&items](const MatchingLine& line) { return items.add(line); },
                      [&items] { return items.skipping_long_line(); }};
  for (; file_at < files.size(); ++file_at, from = ScanPosition{}) {
    if (!limit.may_go_on()) {
      resume = resume_at(file_at, from);
      break;
    }
    Result<std::optional<LoadedFile>> loaded = load_searchable(reader, files[file_at], counts);
    if (!loaded.ok()) return std::move(loaded).error();
    if (loaded->has_value()) {
      items.start_file(files[file_at], (*loaded)->content);
      const std::optional<ScanPosition> stopped_at =
          scan_file(request->matcher, (*loaded)->content, from, limit, counts, sink);
      if (stopped_at) {
        resume = resume_at(file_at, *stopped_at);
        break;
      }
    }
    limit.moved_on();  // past a file skipped, empty or done
  }
  if (limit.cancelled()) return Error::cancelled("cancelled", "Cancelled.");
  Json found = items.take();
  if (found.empty() && items.full()) return page_too_small();
  page["returned_items"] = found.size();
  page["items"] = std::move(found);
  page["scan"] = counts.to_json();
  if (!limit.out_of_time()) page.erase("stopped");
  std::optional<std::string> cursor;
  if (resume) cursor = next_cursor(state, kName, snapshot_id, input, *resume);
  return finish_page(std::move(page), max_bytes_of(input), cursor);
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
          "skipped_binary, skipped_large, skipped_long_lines}, stopped?: 'time_budget', "
          "has_more, next_cursor, budget}. Binary files, files over 8 MiB and lines too long "
          "to match in one bounded step (1 MiB, less for large regular expressions) are "
          "skipped.",
      .input_schema = kSchema,
      .timeout = std::chrono::milliseconds(30'000),
      .run = search_code};
}

}  // namespace codemode::repository
