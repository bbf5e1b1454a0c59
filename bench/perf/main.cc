// codemode-bench: named workloads through the real process adapter and worker, against
// baselines measured in the same run (docs/performance.md). A measurement tool, run by
// scripts/bench; never a timed test.
#include <csignal>
#include <string>

#include <CLI/CLI.hpp>

#include "perf/bench.h"

int main(int argc, char** argv) {
  // A baseline child that exits before reading its stdin must not kill the bench with SIGPIPE.
  std::signal(SIGPIPE, SIG_IGN);
  codemode::perf::BenchOptions options{.worker_path = CODEMODE_WORKER_BINARY,
                                       .cli_path = CODEMODE_CLI_BINARY,
                                       .quickjs_dir = CODEMODE_QUICKJS_DIR,
                                       .isolated_vm_dir = CODEMODE_ISOLATED_VM_DIR};
  CLI::App app{"codemode-bench: time named workloads through the real worker, with baselines."};
  app.add_option("--spawn", options.spawns, "Spawn modes: fork_server, exec (default: both)")
      ->delimiter(',');
  app.add_option("--isolation", options.isolations,
                 "Isolation profiles: process, isolated (default: both)")
      ->delimiter(',');
  app.add_option("--engine", options.engines,
                 "Engine profiles: interpreter, jit (default: interpreter); with both, jit rows "
                 "show their speed-up over the interpreter")
      ->delimiter(',');
  app.add_option("--workloads", options.workloads, "Workload names (default: all)")->delimiter(',');
  app.add_option("--baselines", options.baselines,
                 "Baselines: floor, quickjs, isolated_vm, quickjs_inprocess (default: all); "
                 "--no-baselines for none")
      ->delimiter(',');
  bool no_baselines = false;
  app.add_flag("--no-baselines", no_baselines, "Run no baseline");
  app.add_option("--iterations", options.measure.iterations,
                 "Executions per timed pass (default: each workload's own)");
  app.add_option("--memory-iterations", options.measure.memory_iterations,
                 "Executions in each memory pass");
  app.add_option("--json", options.json_path, "Also write the report as JSON to this file");
  app.add_option("--worker", options.worker_path, "The codemode-worker binary");
  app.add_option("--cli", options.cli_path,
                 "The codemode binary the MCP workloads start as `codemode mcp` over stdio");
  app.add_option("--node", options.node_path, "Node.js for the QuickJS and isolated-vm baselines");
  app.add_option("--quickjs-dir", options.quickjs_dir,
                 "Directory of the QuickJS runners and their node_modules");
  app.add_option("--isolated-vm-dir", options.isolated_vm_dir,
                 "Directory of the isolated-vm runner and its node_modules");
  app.add_option("--floor-program", options.floor_program, "The do-nothing program of the floor");
  app.add_option("--docker-image", options.docker.image,
                 "Also run the Docker adapter with this image id (scripts/docker-image)");
  app.add_option("--docker-provenance", options.docker.provenance, "The image's SPDX digest");
  app.add_option("--docker-host", options.docker.host, "The daemon's socket, unix:///...");
  app.add_option("--docker-seccomp", options.docker.seccomp,
                 "builtin (default) or daemon_default (engines before Docker 23.0)");
  bool pool_calls = false;
  app.add_flag("--pool-calls", pool_calls,
               "Hand every tool call to the call pool, even the bench's non_blocking tools "
               "(CodeModeOptions.run_non_blocking_tools_inline false): the call path before "
               "inline calls, for a before/after");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? codemode::perf::kExitPassed : codemode::perf::kExitError;
  }
  if (no_baselines) options.baselines.clear();
  options.inline_calls = !pool_calls;
  return codemode::perf::run_bench(options);
}
