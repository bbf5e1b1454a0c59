// read: a file's lines, as one text (the compact default of code mode), numbered lines, or
// structured items. A binary file is recognised and described, never dumped.
#include <algorithm>
#include <limits>
#include <vector>

#include <git2.h>

#include "core/json/json_text.h"
#include "core/text/enum_names.h"
#include "repository/operations/operations.h"
#include "repository/operations/read_steps.h"
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

std::string_view content_of(const GitBlob& blob) {
  return std::string_view(static_cast<const char*>(git_blob_rawcontent(blob.get())),
                          static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

}  // namespace

namespace read_steps {
namespace {

constexpr internal::EnumNames<ReadFormat, 3> kReadFormats{{
    {ReadFormat::kText, "text"},
    {ReadFormat::kLines, "lines"},
    {ReadFormat::kStructured, "structured"},
}};

}  // namespace

Result<LineRequest> line_request_of(const Json& input) {
  Result<std::string> path = checked_path(string_of(input, "path"));
  if (!path.ok()) return std::move(path).error();
  if (path->empty()) return not_a_file(*path, "the root directory: list it");
  LineRequest request{
      .path = std::move(*path),
      .first = integer_of(input, "start_line", 1),
      .last = integer_of(input, "end_line", std::numeric_limits<std::int64_t>::max())};
  if (request.last < request.first) {
    return Error::tool_failed("invalid_range", "end_line is before start_line.");
  }
  return request;
}

Result<SnapshotEntry> file_entry(const SnapshotReader& reader, const std::string& path) {
  Result<SnapshotEntry> entry = reader.entry(path);
  if (!entry.ok()) return std::move(entry).error();
  switch (entry->kind) {
    case EntryKind::kDirectory:
      return not_a_file(path, "a directory: list it");
    case EntryKind::kSubmodule:
      return not_a_file(path, "a submodule, another repository's commit");
    case EntryKind::kSymlink:
      return not_a_file(path, "a symbolic link, which is never followed");
    case EntryKind::kFile:
      break;
  }
  return entry;
}

Result<GitBlob> file_blob(const SnapshotReader& reader, const SnapshotEntry& entry,
                          const std::string& path) {
  // The size is read from the object's header, so a file too large is refused before it is
  // inflated.
  Result<std::uint64_t> size = reader.blob_size(entry.oid);
  if (!size.ok()) return std::move(size).error();
  if (*size > kMaxReadBlobBytes) {
    return Error::tool_failed("file_too_large",
                              "'" + path +
                                  "' is larger than 64 MiB; searchCode finds lines in "
                                  "files up to 8 MiB.");
  }
  return reader.blob(entry.oid);
}

std::string_view format_name(ReadFormat format) { return internal::name_of(kReadFormats, format); }

ReadFormat read_format_of(const Json& input, bool compact_defaults) {
  const ReadFormat fallback = compact_defaults ? ReadFormat::kText : ReadFormat::kStructured;
  return internal::value_of(kReadFormats, string_of(input, "format")).value_or(fallback);
}

Json read_envelope(Json provenance, ReadFormat format, const std::string& path,
                   const std::string& blob_sha) {
  Json page = std::move(provenance);
  if (format != ReadFormat::kStructured) page["format"] = format_name(format);
  page["path"] = path;
  page["blob_sha"] = blob_sha;
  return page;
}

Result<Json> binary_page(Json envelope, std::size_t size_bytes, std::size_t max_bytes) {
  Json page = std::move(envelope);
  page["binary"] = true;
  page["size_bytes"] = size_bytes;
  page["returned_lines"] = 0;
  if (!PageBudget(max_bytes, page).viable()) return page_too_small();
  return finish_page(std::move(page), max_bytes, std::nullopt);
}

LineRange line_range(const LineRequest& request, const Json& cursor_start, std::int64_t total) {
  std::int64_t from = request.first;
  if (cursor_start.is_number_integer()) from = std::max(from, cursor_start.get<std::int64_t>());
  return LineRange{.from = from, .to = std::min(request.last, total), .total = total};
}

bool fit_line(std::string& shown, bool& cut, std::int64_t number, bool first, bool numbered,
              PageBudget& budget) {
  // {"line_number":N,"text":} and its comma: 25 bytes beside the number.
  const std::size_t overhead = numbered ? 25 + std::to_string(number).size() : 0;
  std::size_t cost = json_string_size(shown) + overhead;  // quotes pay for "\n" or a comma
  if (!budget.fits(cost) && first && budget.room() > overhead + 64) {
    // A first line longer than the page: what fits of it, so every page moves on.
    shown = cut_to_fit(std::move(shown), budget.room() - overhead);
    cut = true;
    cost = json_string_size(shown) + overhead;
  }
  return budget.take(cost);
}

ReadLines take_lines(std::string_view content, const LineRange& range, std::size_t max_lines,
                     bool numbered, PageBudget& budget) {
  ReadLines taken{.next = range.from};
  // Walked from `from` on, never indexed whole: a file of newlines would make the index eight
  // times its size.
  std::size_t at =
      range.from <= range.total ? offset_of_line(content, static_cast<std::size_t>(range.from)) : 0;
  while (taken.next <= range.to && static_cast<std::size_t>(taken.next - range.from) < max_lines) {
    bool cut = false;
    std::string shown = shown_line(next_line(content, at), cut);
    if (!fit_line(shown, cut, taken.next, taken.next == range.from, numbered, budget)) break;
    if (cut) ++taken.cut_lines;
    if (numbered) {
      taken.lines.push_back(Json{{"line_number", taken.next}, {"text", std::move(shown)}});
    } else {
      if (taken.next != range.from) taken.text += '\n';
      taken.text += shown;
    }
    ++taken.next;
  }
  return taken;
}

void put_lines(Json& page, ReadFormat format, std::int64_t from, const Json& end_line,
               ReadLines lines) {
  if (format == ReadFormat::kText) {
    page["text"] = std::move(lines.text);
  } else if (format == ReadFormat::kLines) {
    page["lines"] = std::move(lines.lines);
  } else {
    page["items"] = Json::array({Json{{"path", page["path"]},
                                      {"blob_sha", page["blob_sha"]},
                                      {"start_line", from},
                                      {"end_line", end_line},
                                      {"text", std::move(lines.text)}}});
  }
}

Json lines_envelope(Json envelope, ReadFormat format, const LineRange& range,
                    std::size_t max_lines) {
  Json page = std::move(envelope);
  page["total_lines"] = range.total;
  put_lines(page, format, range.from, Json(range.to), ReadLines{});
  page["start_line"] = range.from;
  page["end_line"] = range.from;
  page["returned_lines"] = max_lines;
  page["cut_lines"] = 0;
  return page;
}

Json shape_lines_page(Json page, ReadFormat format, const LineRange& range, ReadLines taken) {
  const std::int64_t returned = taken.next - range.from;
  page["returned_lines"] = returned;
  page["end_line"] = returned == 0 ? range.from : taken.next - 1;
  page["cut_lines"] = taken.cut_lines;
  const Json end_line = page["end_line"];
  put_lines(page, format, range.from, end_line, std::move(taken));
  return page;
}

}  // namespace read_steps

namespace {

using namespace read_steps;

// A page of the file's lines from `range.from`, within max_lines and max_bytes.
Result<Json> lines_page(const RepositoryState& state, const Json& input, Json envelope,
                        std::string_view content, const LineRange& range, ReadFormat format) {
  const std::size_t max_lines = static_cast<std::size_t>(integer_of(input, "max_lines", 100));
  const std::size_t max_bytes = max_bytes_of(input);
  Json page = lines_envelope(std::move(envelope), format, range, max_lines);
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();
  ReadLines taken = take_lines(content, range, max_lines, format == ReadFormat::kLines, budget);
  if (taken.next == range.from && range.from <= range.to) return page_too_small();
  const std::int64_t next = taken.next;
  page = shape_lines_page(std::move(page), format, range, std::move(taken));
  std::optional<std::string> cursor;
  if (next <= range.to) {
    cursor = next_cursor(state, kName, string_of(input, "snapshot_id"), input, Json(next));
  }
  return finish_page(std::move(page), max_bytes, cursor);
}

Result<Json> read(RepositoryState& state, const Json& input, const ToolContext&) {
  const std::string snapshot_id = string_of(input, "snapshot_id");
  Result<Json> start = page_start(state, kName, snapshot_id, input);
  if (!start.ok()) return std::move(start).error();
  Result<LineRequest> request = line_request_of(input);
  if (!request.ok()) return std::move(request).error();
  Result<SnapshotReader> reader = SnapshotReader::open(state, snapshot_id);
  if (!reader.ok()) return std::move(reader).error();
  Result<SnapshotEntry> entry = file_entry(*reader, request->path);
  if (!entry.ok()) return std::move(entry).error();
  Result<GitBlob> blob = file_blob(*reader, *entry, request->path);
  if (!blob.ok()) return std::move(blob).error();
  const std::string_view content = content_of(*blob);

  const ReadFormat format = read_format_of(input, state.options.compact_defaults);
  Json envelope = read_envelope(reader->provenance(), format, request->path, oid_hex(entry->oid));
  if (looks_binary(content)) {
    return binary_page(std::move(envelope), content.size(), max_bytes_of(input));
  }
  const LineRange range =
      line_range(*request, *start, static_cast<std::int64_t>(line_count(content)));
  return lines_page(state, input, std::move(envelope), content, range, format);
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
