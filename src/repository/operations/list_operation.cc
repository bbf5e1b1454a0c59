// list: a snapshot's entries below a directory, structured or as bare paths.
#include <vector>

#include "core/text/enum_names.h"
#include "repository/operations/operations.h"
#include "repository/paging/page_budget.h"
#include "repository/snapshot/snapshot_reader.h"
#include "repository/walk/repository_paths.h"

namespace codemode::repository {
namespace {

constexpr std::string_view kName = "list";
constexpr std::size_t kMaxListedEntries = 200'000;

constexpr std::string_view kSchema = R"({"type": "object", "additionalProperties": false,
  "required": ["snapshot_id"],
  "properties": {
    "snapshot_id": {"type": "string", "minLength": 1, "maxLength": 1100},
    "path": {"type": "string", "maxLength": 4096, "description": "A directory of the snapshot; default the root."},
    "depth": {"type": "integer", "minimum": 1, "maximum": 32, "description": "Levels below path (default 2)."},
    "format": {"enum": ["structured", "paths"], "description": "structured (default): items with kind, blob_sha, size_bytes; paths: just the paths."},
    "glob": {"type": "string", "minLength": 1, "maxLength": 256},
    "globs": {"type": "array", "maxItems": 32, "items": {"type": "string", "minLength": 1, "maxLength": 256}},
    "exclude": {"type": "array", "maxItems": 32, "items": {"type": "string", "minLength": 1, "maxLength": 256}},
    "max_items": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 100."},
    @PAGING@}})";

// The `format` the schema allows: entries described, or their paths alone.
enum class ListFormat { kStructured, kPaths };

constexpr internal::EnumNames<ListFormat, 2> kListFormats{{
    {ListFormat::kStructured, "structured"},
    {ListFormat::kPaths, "paths"},
}};

Result<Json> list(RepositoryState& state, const Json& input, const ToolContext& context) {
  const std::string snapshot_id = string_of(input, "snapshot_id");
  Result<Json> start = page_start(state, kName, snapshot_id, input);
  if (!start.ok()) return std::move(start).error();
  Result<std::string> path = checked_path(string_of(input, "path"));
  if (!path.ok()) return std::move(path).error();
  Result<PathFilter> filter = path_filter_of(input);
  if (!filter.ok()) return std::move(filter).error();
  Result<SnapshotReader> reader = SnapshotReader::open(state, snapshot_id);
  if (!reader.ok()) return std::move(reader).error();

  const int depth = static_cast<int>(integer_of(input, "depth", 2));
  std::vector<SnapshotEntry> entries;
  bool truncated = false;
  Result<bool> walked = reader->walk(*path, depth, [&](const SnapshotEntry& entry) {
    if (entries.size() >= kMaxListedEntries || context.stop_token.stop_requested()) {
      truncated = true;
      return false;
    }
    if (filter->passes(entry.path)) entries.push_back(entry);
    return true;
  });
  if (!walked.ok()) return std::move(walked).error();
  truncated = truncated || *walked;
  if (context.stop_token.stop_requested()) return Error::cancelled("cancelled", "Cancelled.");

  const bool paths_only =
      internal::value_of(kListFormats, string_of(input, "format")) == ListFormat::kPaths;
  const std::size_t offset = start->is_number_unsigned() ? start->get<std::size_t>() : 0;
  const std::size_t max_items = static_cast<std::size_t>(integer_of(input, "max_items", 100));
  const std::size_t max_bytes = max_bytes_of(input);
  Json page = reader->provenance();
  if (paths_only) page["format"] = internal::name_of(kListFormats, ListFormat::kPaths);
  page["path"] = *path;
  page[paths_only ? "paths" : "items"] = Json::array();
  page["returned_items"] = 0;
  page["total_items"] = entries.size();
  page["walk_truncated"] = truncated;
  PageBudget budget(max_bytes, page);
  if (!budget.viable()) return page_too_small();
  std::size_t at = std::min(offset, entries.size());
  Json shown = Json::array();
  while (at < entries.size() && shown.size() < max_items) {
    const SnapshotEntry& entry = entries[at];
    Json item;
    if (paths_only) {
      item = entry.path;
    } else {
      item = Json{{"path", entry.path}, {"kind", to_string(entry.kind)}};
      if (entry.kind == EntryKind::kSubmodule) {
        item["commit_sha"] = oid_hex(entry.oid);
      } else if (entry.kind == EntryKind::kDirectory) {
        item["tree_sha"] = oid_hex(entry.oid);
      } else {
        item["blob_sha"] = oid_hex(entry.oid);
        if (Result<std::uint64_t> size = reader->blob_size(entry.oid); size.ok()) {
          item["size_bytes"] = *size;
        }
      }
    }
    if (!budget.take(json_size(item) + 1)) break;
    shown.push_back(std::move(item));
    ++at;
  }
  if (shown.empty() && at < entries.size()) return page_too_small();
  page["returned_items"] = shown.size();
  page[paths_only ? "paths" : "items"] = std::move(shown);
  std::optional<std::string> cursor;
  if (at < entries.size()) cursor = next_cursor(state, kName, snapshot_id, input, Json(at));
  return finish_page(std::move(page), max_bytes, cursor);
}

}  // namespace

OperationSpec list_operation() {
  return OperationSpec{
      .name = kName,
      .description =
          "List a snapshot's files and directories below path, depth levels down. "
          "Returns {snapshot_id, repo, commit_sha, path, items: [{path, kind (file, "
          "directory, symlink, submodule), blob_sha?, size_bytes?, tree_sha?, "
          "commit_sha?}] or, with format 'paths', paths: [string], has_more, "
          "next_cursor, budget}.",
      .input_schema = kSchema,
      .timeout = std::chrono::milliseconds(15'000),
      .run = list};
}

}  // namespace codemode::repository
