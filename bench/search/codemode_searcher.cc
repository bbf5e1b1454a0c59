#include "search/codemode_searcher.h"

#include <utility>

#include <sys/resource.h>

#include "codemode/broker.h"
#include "codemode/budget.h"
#include "codemode/permissions.h"

namespace codemode::search_bench {
namespace {

double process_cpu_ms() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto ms = [](const timeval& time) {
    return static_cast<double>(time.tv_sec) * 1e3 + static_cast<double>(time.tv_usec) / 1e3;
  };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

std::size_t count_of(const Json& scan, const char* key) {
  const auto found = scan.find(key);
  return found != scan.end() && found->is_number_unsigned() ? found->get<std::size_t>() : 0;
}

}  // namespace

Result<CodemodeSearcher> CodemodeSearcher::make(const CodemodeSearcherOptions& options) {
  Result<RepositoryTools> tools =
      make_repository_tools({.roots = options.roots, .search_time = options.search_time});
  if (!tools.ok()) return std::move(tools).error();
  return CodemodeSearcher(std::move(*tools), options);
}

Result<Json> CodemodeSearcher::call(const std::string& operation, const Json& input) {
  const std::string id = "repo." + operation;
  const Tool* tool = nullptr;
  for (const Tool& candidate : tools_.tools) {
    if (candidate.id() == id) tool = &candidate;
  }
  if (tool == nullptr) return Error::tool_failed("search_bench", "No tool " + id + ".");
  // As a granted, budgeted caller does (tests/repository/repository_fixture.h).
  InvokeOptions invoke{.run_id = "search-bench",
                       .call_id = "call-" + std::to_string(++calls_),
                       .scope = {.principal_id = "bench", .project_id = "bench"}};
  invoke.permissions.allow = required_grants(*tool);
  invoke.budget = Budget::create({.max_cost_micros = 0, .max_calls = 1'000'000}).value();
  invoke.max_output_bytes = 16u << 20;
  ToolOutcome outcome = invoke_tool(*tool, input, invoke);
  if (!outcome.ok() || !outcome.output) {
    return Error::tool_failed(
        "search_bench", id + " failed: " + (outcome.error ? outcome.error->rule : "no output") +
                            " " + outcome.tool_message.value_or(""));
  }
  return std::move(*outcome.output);
}

Result<Json> CodemodeSearcher::open(const std::string& repository) {
  return call("open", Json{{"repo", repository}});
}

Result<CodemodeRun> CodemodeSearcher::search(const std::string& snapshot_id,
                                             const SearchCase& search) {
  Json input{{"snapshot_id", snapshot_id},
             {"queries", Json::array({search.pattern})},
             {"regex", search.regex},
             {"case_sensitive", search.case_sensitive},
             {"max_results", options_.max_results},
             {"max_bytes", options_.max_bytes}};
  CodemodeRun run;
  const double cpu_began = process_cpu_ms();
  const auto began = std::chrono::steady_clock::now();
  for (;;) {
    Result<Json> page = call("searchCode", input);
    if (!page.ok()) return std::move(page).error();
    ++run.pages;
    run.lines += (*page)["items"].size();
    const Json& scan = (*page)["scan"];
    run.files_scanned += count_of(scan, "files_scanned");
    run.bytes_scanned += count_of(scan, "bytes_scanned");
    run.skipped_binary += count_of(scan, "skipped_binary");
    run.skipped_large += count_of(scan, "skipped_large");
    run.skipped_long_lines += count_of(scan, "skipped_long_lines");
    if (page->contains("stopped")) run.stopped_for_time = true;
    if (!page->value("has_more", false)) break;
    input["cursor"] = (*page)["next_cursor"];
  }
  run.wall_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
  run.cpu_ms = process_cpu_ms() - cpu_began;
  return run;
}

}  // namespace codemode::search_bench
