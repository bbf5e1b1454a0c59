#include "repository/search/code_search.h"

#include <algorithm>
#include <utility>

#include <re2/re2.h>

#include "repository/operations/operation_support.h"
#include "repository/snapshot/text_lines.h"

namespace codemode::repository {
namespace {

constexpr int kWholeTree = 1'000;

RE2::Options matcher_options(const SearchOptions& options, std::int64_t max_mem) {
  RE2::Options re2_options;
  re2_options.set_log_errors(false);
  re2_options.set_case_sensitive(options.case_sensitive);
  re2_options.set_never_nl(true);  // a match stays on its line, as git grep's do
  re2_options.set_max_mem(max_mem);
  return re2_options;
}

std::string pattern_text(const std::string& query, bool regex) {
  return "(?m)" + (regex ? query : RE2::QuoteMeta(query));
}

static_assert(kMaxQueryProgramSize == 4'096 && kMaxQueriesProgramSize == 8'192,
              "the messages below name the caps");

Error query_too_large(std::size_t index) {
  return Error::tool_failed("invalid_pattern",
                            "queries[" + std::to_string(index) +
                                "] is too large: its RE2 program passes the cap of 4,096 "
                                "instructions a query. Match a smaller pattern (fewer repetitions, "
                                "narrower classes).");
}

Error queries_too_large() {
  return Error::tool_failed("invalid_pattern",
                            "The queries together are too large: their RE2 programs pass the cap "
                            "of 8,192 instructions for all queries. Use fewer or smaller queries.");
}

// One query's program, within its memory and the cap on its size.
Result<std::unique_ptr<re2::RE2>> compile_query(const SearchOptions& options, std::size_t index) {
  auto one = std::make_unique<re2::RE2>(pattern_text(options.queries[index], options.regex),
                                        matcher_options(options, kQueryRegexMemory));
  if (one->error_code() == RE2::ErrorPatternTooLarge) return query_too_large(index);
  if (!one->ok()) {
    return Error::tool_failed("invalid_pattern", "queries[" + std::to_string(index) +
                                                     "] is not a regular expression RE2 accepts.");
  }
  if (one->ProgramSize() > kMaxQueryProgramSize) return query_too_large(index);
  return one;
}

}  // namespace

SearchOptions search_options_of(const Json& input) {
  SearchOptions options;
  if (const auto queries = input.find("queries"); queries != input.end() && queries->is_array()) {
    for (const Json& query : *queries) options.queries.push_back(query.get<std::string>());
  }
  options.regex = input.value("regex", false);
  options.case_sensitive = input.value("case_sensitive", true);
  return options;
}

Matcher::Matcher(Matcher&&) noexcept = default;
Matcher& Matcher::operator=(Matcher&&) noexcept = default;
Matcher::~Matcher() = default;

Result<Matcher> Matcher::make(const SearchOptions& options) {
  Matcher matcher;
  std::string alternation;
  int together = 0;  // the sum of the queries' program sizes
  for (std::size_t i = 0; i < options.queries.size(); ++i) {
    Result<std::unique_ptr<re2::RE2>> one = compile_query(options, i);
    if (!one.ok()) return std::move(one).error();
    // The alternation is about the sum of its parts: past the cap, no more is compiled.
    together += (*one)->ProgramSize();
    if (together > kMaxQueriesProgramSize) return queries_too_large();
    matcher.each_.push_back(std::move(*one));
    if (!alternation.empty()) alternation += '|';
    alternation += "(?:" + pattern_text(options.queries[i], options.regex) + ")";
  }
  matcher.any_ =
      std::make_unique<re2::RE2>(alternation, matcher_options(options, kAlternationRegexMemory));
  if (!matcher.any_->ok() || matcher.any_->ProgramSize() > kMaxQueriesProgramSize) {
    return queries_too_large();
  }
  // context matches a line with every query's program as well as the alternation's.
  const auto largest = static_cast<std::size_t>(std::max(together, matcher.any_->ProgramSize()));
  matcher.max_line_bytes_ =
      std::min(kMaxMatchBytes, kMatchWork / std::max<std::size_t>(1, largest));
  return matcher;
}

std::optional<std::size_t> Matcher::first_match(std::string_view content, std::size_t begin,
                                                std::size_t end) const {
  re2::StringPiece match;
  if (!any_->Match(re2::StringPiece(content.data(), content.size()), begin, end, RE2::UNANCHORED,
                   &match, 1)) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(match.data() - content.data());
}

unsigned Matcher::queries_matching(std::string_view content, std::size_t begin,
                                   std::size_t end) const {
  unsigned bits = 0;
  for (std::size_t i = 0; i < each_.size(); ++i) {
    if (each_[i]->Match(re2::StringPiece(content.data(), content.size()), begin, end,
                        RE2::UNANCHORED, nullptr, 0)) {
      bits |= 1u << i;
    }
  }
  return bits;
}

namespace {

// Every file of the request, walked from the snapshot's tree.
Result<SearchFileList> list_search_files(const SnapshotReader& reader, const std::string& prefix,
                                         const PathFilter& filter, const std::stop_token& stop) {
  SearchFileList list;
  std::vector<SearchFile>& files = list.files;
  if (!prefix.empty()) {
    Result<SnapshotEntry> start = reader.entry(prefix);
    if (!start.ok()) return list;  // nothing is below a path that is not there
    if (start->kind == EntryKind::kFile) {
      if (filter.passes(start->path)) files.push_back({start->path, start->oid});
      return list;
    }
    if (start->kind != EntryKind::kDirectory) return list;
  }
  bool stopped = false;
  Result<bool> walked = reader.walk(prefix, kWholeTree, [&](const SnapshotEntry& entry) {
    if (stop.stop_requested()) {
      stopped = true;
      return false;
    }
    if (entry.kind == EntryKind::kFile && filter.passes(entry.path)) {
      files.push_back({entry.path, entry.oid});
    }
    return true;
  });
  if (!walked.ok()) return std::move(walked).error();
  if (stopped || stop.stop_requested()) return Error::cancelled("cancelled", "Cancelled.");
  list.truncated = *walked;
  return list;
}

}  // namespace

Result<SearchFiles> search_files(RepositoryState& state, const SnapshotReader& reader,
                                 const std::string& prefix, const PathFilter& filter,
                                 const Json& request, const std::stop_token& stop) {
  Json key_members{{"snapshot", reader.snapshot().id}, {"prefix", prefix}};
  for (const char* member : {"glob", "globs", "exclude"}) {
    if (request.contains(member)) key_members[member] = request[member];
  }
  const std::string key = key_members.dump();
  if (SearchFiles cached = state.search_files.find(key)) return cached;
  Result<SearchFileList> listed = list_search_files(reader, prefix, filter, stop);
  if (!listed.ok()) return std::move(listed).error();
  auto files = std::make_shared<const SearchFileList>(std::move(*listed));
  state.search_files.remember(key, files);
  return SearchFiles(files);
}

Result<SearchRequest> open_search(RepositoryState& state, const Json& input,
                                  const std::stop_token& stop) {
  Result<std::string> prefix = checked_path(string_of(input, "path_prefix"));
  if (!prefix.ok()) return std::move(prefix).error();
  Result<PathFilter> filter = path_filter_of(input);
  if (!filter.ok()) return std::move(filter).error();
  Result<Matcher> matcher = Matcher::make(search_options_of(input));
  if (!matcher.ok()) return std::move(matcher).error();
  Result<SnapshotReader> reader = SnapshotReader::open(state, string_of(input, "snapshot_id"));
  if (!reader.ok()) return std::move(reader).error();
  Result<SearchFiles> files = search_files(state, *reader, *prefix, *filter, input, stop);
  if (!files.ok()) return std::move(files).error();
  return SearchRequest{std::move(*matcher), std::move(*reader), std::move(*files)};
}

Json ScanCounts::to_json() const {
  Json counts{{"files_scanned", files_scanned},
              {"bytes_scanned", bytes_scanned},
              {"skipped_binary", skipped_binary},
              {"skipped_large", skipped_large}};
  if (skipped_long_lines > 0) counts["skipped_long_lines"] = skipped_long_lines;
  return counts;
}

Result<std::optional<LoadedFile>> load_searchable(const SnapshotReader& reader,
                                                  const SearchFile& file, ScanCounts& counts) {
  Result<std::uint64_t> size = reader.blob_size(file.blob);
  if (!size.ok()) return std::move(size).error();
  if (*size > kMaxSearchBlobBytes) {
    ++counts.skipped_large;
    return std::optional<LoadedFile>();
  }
  Result<GitBlob> blob = reader.blob(file.blob);
  if (!blob.ok()) return std::move(blob).error();
  const std::string_view content(static_cast<const char*>(git_blob_rawcontent(blob->get())),
                                 static_cast<std::size_t>(git_blob_rawsize(blob->get())));
  if (looks_binary(content)) {
    ++counts.skipped_binary;
    return std::optional<LoadedFile>();
  }
  ++counts.files_scanned;
  return std::optional<LoadedFile>(LoadedFile{std::move(*blob), content});
}

}  // namespace codemode::repository
