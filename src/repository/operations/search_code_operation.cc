// searchCode: the lines of a snapshot's files that match, a page at a time, within the page's
// byte budget and the tools' scan time (docs/repositories.md).
#include <chrono>
#include <vector>

#include "repository/operations/operations.h"
#include "repository/operations/search_code_steps.h"
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

}  // namespace

namespace search_code_steps {

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

ResumePoint resume_point_of(const Json& cursor_start) {
  if (!cursor_start.is_object()) return ResumePoint{};
  return ResumePoint{.file = cursor_start["file"].get<std::size_t>(),
                     .position = ScanPosition{cursor_start["offset"].get<std::size_t>(),
                                              cursor_start["line"].get<std::size_t>()}};
}

Json resume_at(std::size_t file, ScanPosition position) {
  return Json{{"file", file}, {"line", position.line}, {"offset", position.offset}};
}

Json search_envelope(Json provenance, std::size_t files, bool walk_truncated) {
  Json page = std::move(provenance);
  page["items"] = Json::array();
  page["returned_items"] = 0;
  page["walk_truncated"] = walk_truncated;
  page["scan"] = ScanCounts{}.to_json();
  // The widest the counts can be.
  page["scan"]["files_scanned"] = files;
  page["scan"]["bytes_scanned"] = kMaxSearchBlobBytes * files;
  page["stopped"] = "time_budget";
  return page;
}

PageItems::PageItems(const Json& input, const Json& envelope, std::size_t files,
                     std::size_t max_line_bytes)
    : context_lines_(static_cast<std::size_t>(integer_of(input, "context_lines", 0))),
      max_results_(static_cast<std::size_t>(integer_of(input, "max_results", 100))),
      budget_(max_bytes_of(input), envelope),
      long_lines_bytes_(
          json_size(Json{
              {"skipped_long_lines", (kMaxSearchBlobBytes / (max_line_bytes + 1) + 1) * files}}) -
          1) {}

void PageItems::start_file(const SearchFile& file, std::string_view content) {
  file_ = &file;
  content_ = content;
  blob_sha_ = oid_hex(file.blob);
  path_bytes_ = json_string_size(file.path);
  starts_.clear();
}

bool PageItems::add(const MatchingLine& line) {
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
      context_lines_ > 0 || cut ? json_size(item)
                                : 86 + std::to_string(line.number).size() + path_bytes_ +
                                      json_string_size(item["text"].get_ref<const std::string&>());
  if (!budget_.fits(item_bytes + 1) && items_.empty()) cut_to_page(item);
  if (!budget_.take((items_.empty() ? json_size(item) : item_bytes) + 1)) return fill();
  items_.push_back(std::move(item));
  return true;
}

bool PageItems::skipping_long_line() {
  if (!long_lines_room_ && !budget_.take(long_lines_bytes_)) return fill();
  long_lines_room_ = true;
  return true;
}

bool PageItems::fill() {
  full_ = true;
  return false;
}

void PageItems::cut_to_page(Json& item) const {
  item.erase("before");
  item.erase("after");
  item["cut"] = true;  // measured with the mark it will carry
  const std::size_t frame = json_size(item) - json_string_size(item["text"].get<std::string>()) + 1;
  if (budget_.room() > frame + 16) {
    item["text"] = cut_to_fit(item["text"].get<std::string>(), budget_.room() - frame);
  }
}

Result<std::optional<ResumePoint>> scan_files(const SearchRequest& request, ResumePoint from,
                                              ScanLimit& limit, ScanCounts& counts,
                                              PageItems& items) {
  const std::vector<SearchFile>& files = request.files->files;
  const ScanSink sink{[&items](const MatchingLine& line) { return items.add(line); },
                      [&items] { return items.skipping_long_line(); }};
  for (std::size_t file_at = from.file; file_at < files.size(); ++file_at) {
    // Only the first file resumes within itself; the next ones start at their first line.
    const ScanPosition position = file_at == from.file ? from.position : ScanPosition{};
    if (!limit.may_go_on()) return std::optional<ResumePoint>(ResumePoint{file_at, position});
    Result<std::optional<LoadedFile>> loaded =
        load_searchable(request.reader, files[file_at], counts);
    if (!loaded.ok()) return std::move(loaded).error();
    if (loaded->has_value()) {
      items.start_file(files[file_at], (*loaded)->content);
      const std::optional<ScanPosition> stopped_at =
          scan_file(request.matcher, (*loaded)->content, position, limit, counts, sink);
      if (stopped_at) return std::optional<ResumePoint>(ResumePoint{file_at, *stopped_at});
    }
    limit.moved_on();  // past a file skipped, empty or done
  }
  return std::optional<ResumePoint>();
}

Json shape_search_page(Json page, Json found, const ScanCounts& counts, bool out_of_time) {
  page["returned_items"] = found.size();
  page["items"] = std::move(found);
  page["scan"] = counts.to_json();
  if (!out_of_time) page.erase("stopped");
  return page;
}

}  // namespace search_code_steps

namespace {

using namespace search_code_steps;

Result<Json> search_code(RepositoryState& state, const Json& input, const ToolContext& context) {
  ScanLimit limit(std::chrono::steady_clock::now() + state.options.search_time, context.stop_token);
  const std::string snapshot_id = string_of(input, "snapshot_id");
  Result<Json> start = page_start(state, kName, snapshot_id, input);
  if (!start.ok()) return std::move(start).error();
  Result<SearchRequest> request = open_search(state, input, context.stop_token);
  if (!request.ok()) return std::move(request).error();

  const std::size_t files = request->files->files.size();
  Json page = search_envelope(request->reader.provenance(), files, request->files->truncated);
  PageItems items(input, page, files, request->matcher.max_line_bytes());
  if (!items.viable()) return page_too_small();
  ScanCounts counts;
  Result<std::optional<ResumePoint>> resume =
      scan_files(*request, resume_point_of(*start), limit, counts, items);
  if (!resume.ok()) return std::move(resume).error();
  if (limit.cancelled()) return Error::cancelled("cancelled", "Cancelled.");
  Json found = items.take();
  if (found.empty() && items.full()) return page_too_small();
  page = shape_search_page(std::move(page), std::move(found), counts, limit.out_of_time());
  std::optional<std::string> cursor;
  if (*resume) {
    const Json offset = resume_at((*resume)->file, (*resume)->position);
    cursor = next_cursor(state, kName, snapshot_id, input, offset);
  }
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
