// read: a file's lines, as one text (the compact default of code mode), numbered lines, or
// structured items. A binary file is recognised and described, never dumped.
#include <algorithm>
#include <limits>
#include <vector>

#include <git2.h>

#include "core/json/json_text.h"
#include "repository/operations/operations.h"
#include "repository/paging/page_budget.h"
#include "repository/snapshot/snapshot_reader.h"
#include "repository/snapshot/text_lines.h"
#include "repository/walk/repository_paths.h"

namespace codemode::repository {
namespace {

constexpr std::string_view kName = "read";

constexpr std::string_view kSchema = R"({"type": "object", "additionalProperties": false,
  "required": ["snapshot_id", "path"],
  "properties": {
    "snapshot_id": {"type": "string", "minLength": 1, "maxLength": 1100},
    "path": {"type": "string", "minLength": 1, "maxLength": 4096},
    "start_line": {"type": "integer", "minimum": 1, "maximum": 100000000},
    "end_line": {"type": "integer", "minimum": 1, "maximum": 100000000},
    "format": {"enum": ["text", "lines", "structured"], "description": "text: the lines joined by \\n; lines: [{line_number, text}]; structured: items [{path, blob_sha, start_line, end_line, text}]."},
    "max_lines": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 100."},
    @PAGING@}})";

Error not_a_file(const std::string& path, std::string_view what) {
  return Error::tool_failed("not_a_file", "'" + path + "' is " + std::string(what) + ".");
}

Result<Json> read(RepositoryState& state, const Json& input, const ToolContext&) {
  const std::string snapshot_id = string_of(input, "snapshot_id");
  Result<Json> start = page_start(state, kName, snapshot_id, input);
  if (!start.ok()) return std::move(start).error();
  Result<std::string> path = checked_path(string_of(input, "path"));
  if (!path.ok()) return std::move(path).error();
  if (path->empty()) return not_a_file(*path, "the root directory: list it");
  const std::int64_t first = integer_of(input, "start_line", 1);
  const std::int64_t last = integer_of(input, "end_line", std::numeric_limits<std::int64_t>::max());
  if (last < first) {
    return Error::tool_failed("invalid_range", "end_line is before start_line.");
  }
  Result<SnapshotReader> reader = SnapshotReader::open(state, snapshot_id);
  if (!reader.ok()) return std::move(reader).error();
  Result<SnapshotEntry> entry = reader->entry(*path);
  if (!entry.ok()) return std::move(entry).error();
  switch (entry->kind) {
    case EntryKind::kDirectory:
      return not_a_file(*path, "a directory: list it");
    case EntryKind::kSubmodule:
      return not_a_file(*path, "a submodule, another repository's commit");
    case EntryKind::kSymlink:
      return not_a_file(*path, "a symbolic link, which is never followed");
    case EntryKind::kFile:
      break;
  }
  Result<std::uint64_t> size = reader->blob_size(entry->oid);
  if (!size.ok()) return std::move(size).error();
  if (*size > kMaxReadBlobBytes) {
    return Error::tool_failed("file_too_large",
                              "'" + *path +
                                  "' is larger than 64 MiB; searchCode finds lines in "
                                  "files up to 8 MiB.");
  }
  Result<GitBlob> blob = reader->blob(entry->oid);
  if (!blob.ok()) return std::move(blob).error();
  const std::string_view content(static_cast<const char*>(git_blob_rawcontent(blob->get())),
                                 static_cast<std::size_t>(git_blob_rawsize(blob->get())));

  const std::string default_format = state.options.compact_defaults ? "text" : "structured";
  const std::string format = string_of(input, "format", default_format);
  const std::size_t max_bytes = max_bytes_of(input);
  Json page = reader->provenance();
  if (format != "structured") page["format"] = format;
  page["path"] = *path;
  page["blob_sha"] = oid_hex(entry->oid);
  if (looks_binary(content)) {
    page["binary"] = true;
    page["size_bytes"] = content.size();
    page["returned_lines"] = 0;
    if (!PageBudget(max_bytes, page).viable()) return page_too_small();
    return finish_page(std::move(page), max_bytes, std::nullopt);
  }
  const std::int64_t total = static_cast<std::int64_t>(line_count(content));
  std::int64_t from = first;
  if (start->is_number_integer()) from = std::max(from, start->get<std::int64_t>());
  const std::int64_t to = std::min(last, total);
  const std::size_t max_lines = static_cast<std::size_t>(integer_of(input, "max_lines", 100));

  page["total_lines"] = total;
  if (format == "text") page["text"] = "";
  if (format == "lines") page["lines"] = Json::array();
  if (format == "structured") {
    // The one item's members other than its text, so the budget counts them.
    page["items"] = Json::array({Json{{"path", *path},
                                      {"blob_sha", oid_hex(entry->oid)},
                                      {"start_line", from},
                                      {"end_line", to},
                                      {"text", ""}}});
  }
  page["start_line"] = from;
  page["end_line"] = from;
  page["returned_lines"] = max_lines;
  page["cut_lines"] = 0;
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();
  std::string text;
  Json lines = Json::array();
  std::int64_t line = from;
  std::int64_t cut_lines = 0;
  // Walked from `from` on, never indexed whole: a file of newlines would make the index eight
  // times its size.
  std::size_t at = from <= total ? offset_of_line(content, static_cast<std::size_t>(from)) : 0;
  while (line <= to && static_cast<std::size_t>(line - from) < max_lines) {
    bool cut = false;
    std::string shown = shown_line(next_line(content, at), cut);
    // {"line_number":N,"text":} and its comma: 25 bytes beside the number.
    const std::size_t overhead = format == "lines" ? 25 + std::to_string(line).size() : 0;
    std::size_t cost = json_string_size(shown) + overhead;  // quotes pay for "\n" or a comma
    if (!budget.fits(cost) && line == from && budget.room() > overhead + 64) {
      // A first line longer than the page: what fits of it, so every page moves on.
      shown = cut_to_fit(std::move(shown), budget.room() - overhead);
      cut = true;
      cost = json_string_size(shown) + overhead;
    }
    if (!budget.take(cost)) break;
    if (cut) ++cut_lines;
    if (format == "lines") {
      lines.push_back(Json{{"line_number", line}, {"text", std::move(shown)}});
    } else {
      if (line != from) text += '\n';
      text += shown;
    }
    ++line;
  }
  if (line == from && from <= to) return page_too_small();
  const std::int64_t returned = line - from;
  page["returned_lines"] = returned;
  page["end_line"] = returned == 0 ? from : line - 1;
  page["cut_lines"] = cut_lines;
  if (format == "text") {
    page["text"] = std::move(text);
  } else if (format == "lines") {
    page["lines"] = std::move(lines);
  } else {
    page["items"] = Json::array({Json{{"path", *path},
                                      {"blob_sha", oid_hex(entry->oid)},
                                      {"start_line", from},
                                      {"end_line", page["end_line"]},
                                      {"text", std::move(text)}}});
  }
  std::optional<std::string> cursor;
  if (line <= to) cursor = next_cursor(state, kName, snapshot_id, input, Json(line));
  return finish_page(std::move(page), max_bytes, cursor);
}

}  // namespace

OperationSpec read_operation() {
  return OperationSpec{
      .name = kName,
      .description =
          "Read a file of a snapshot, lines start_line..end_line (1-based). Returns "
          "{snapshot_id, repo, commit_sha, path, blob_sha, start_line, end_line, "
          "total_lines, text | lines | items, returned_lines, cut_lines, has_more, "
          "next_cursor, budget}; a binary file gives binary: true and its size_bytes "
          "instead of lines. Lines over 2,048 bytes are cut (counted in cut_lines).",
      .input_schema = kSchema,
      .timeout = std::chrono::milliseconds(10'000),
      .run = read};
}

}  // namespace codemode::repository
