#include "soak/soak.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>

#include <sys/prctl.h>

#include "soak/plan.h"
#include "soak/process_probes.h"
#include "soak/report.h"
#include "soak/temp_files.h"
#include "soak/tools.h"

namespace codemode::soak {
namespace {

using Clock = std::chrono::steady_clock;

int setup_error(const Error& error) {
  std::cerr << "codemode-soak: " << error.message << " (" << error.rule << ")\n";
  return kExitError;
}

bool write_json(const std::string& path, const Json& report) {
  std::ofstream file(path);
  file << report.dump(2) << "\n";
  return static_cast<bool>(file);
}

// The figures read while the runner still exists: the same state after warm-up and at the end.
void read_live_figures(LeakFigures& leaks, bool end) {
  (end ? leaks.rss_end_kib : leaks.rss_after_warmup_kib) = resident_kib();
  (end ? leaks.fds_end : leaks.fds_after_warmup) = open_fd_count();
}

bool address_sanitizer_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#else
  return false;
#endif
}

// Runs the plan in two parts around the warm-up figures; returns the seconds all of it took.
double run_plan(SoakRunner& runner, const std::vector<std::size_t>& plan,
                const SoakOptions& options, std::size_t warmup, LeakFigures& leaks) {
  const Clock::time_point start = Clock::now();
  runner.run(plan, 0, warmup, options.concurrency);
  read_live_figures(leaks, false);
  runner.run(plan, warmup, plan.size(), options.concurrency);
  read_live_figures(leaks, true);
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// What is left once every CodeMode is gone: children, and temporary files.
void take_census(LeakFigures& leaks, const PrivateTmpdir& tmpdir,
                 std::filesystem::file_time_type since) {
  leaks.processes_left = child_processes();
  leaks.private_tmp_left = tmpdir.entries();
  leaks.shared_tmp_left = stray_temp_files(kSharedTempDirectories, since);
}

int finish(const SoakReport& report, const std::vector<SoakKind>& kinds,
           const SoakOptions& options) {
  print_report(std::cout, report, kinds);
  std::cout.flush();
  if (!options.json_path.empty() && !write_json(options.json_path, report_json(report, kinds))) {
    std::cerr << "codemode-soak: could not write the JSON report\n";
    return kExitError;
  }
  return judge(report).passed() ? kExitPassed : kExitFailed;
}

}  // namespace

int run_soak(const SoakOptions& options) {
  // Orphans of our children (a worker's own child, were one ever born) are reparented here, so
  // the process census below sees them instead of init.
  if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) std::cerr << "codemode-soak: no subreaper\n";
  const std::size_t fds_at_start = open_fd_count();
  Result<PrivateTmpdir> tmpdir = PrivateTmpdir::create();
  if (!tmpdir.ok()) return setup_error(tmpdir.error());
  const auto since = std::filesystem::file_time_type::clock::now() - std::chrono::seconds(1);

  Result<SoakTools> tools = make_soak_tools();
  if (!tools.ok()) return setup_error(tools.error());
  Result<std::vector<SoakKind>> kinds = soak_kinds(*tools);
  if (!kinds.ok()) return setup_error(kinds.error());
  const std::vector<std::size_t> plan = make_plan(*kinds, options.executions, options.seed);
  OutcomeTally tally(*kinds);
  auto runner = SoakRunner::create(options.workers, *kinds, soak_permissions(*tools), tally);
  if (!runner.ok()) return setup_error(runner.error());

  SoakReport report{.settings = {options.executions, options.concurrency, options.seed,
                                 std::min(kWarmupExecutions, options.executions)},
                    .planned_by_kind = planned_counts(plan, kinds->size())};
  report.leaks.rss_judged = !address_sanitizer_build();
  report.leaks.fds_at_start = fds_at_start;
  report.seconds = run_plan(**runner, plan, options, report.settings.warmup, report.leaks);
  runner->reset();  // every CodeMode and worker gone before the census
  report.tally = tally.snapshot();
  take_census(report.leaks, *tmpdir, since);
  return finish(report, *kinds, options);
}

}  // namespace codemode::soak
