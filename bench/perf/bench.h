// codemode-bench's run: the codemode configurations asked for (spawn mode x isolation profile x
// engine profile, and the Docker adapter when an image is given), then the baselines, each over the
// workloads asked for; then the table, and the JSON if asked. A configuration whose adapter is
// unavailable (the isolated profile where the kernel refuses namespaces) and a baseline that is not
// installed are reported as skipped, not failed. With the MCP workloads asked, each process
// configuration is followed by a `codemode mcp --mode code` server in the same sandbox
// (mcp_subject.h), and the codemode configurations by one `--mode direct` server.
#ifndef CODEMODE_BENCH_PERF_BENCH_H_
#define CODEMODE_BENCH_PERF_BENCH_H_

#include <string>
#include <vector>

#include "perf/measurement.h"

namespace codemode::perf {

inline constexpr int kExitPassed = 0;
inline constexpr int kExitFailed = 1;  // an execution did not return its expected output
inline constexpr int kExitError = 2;   // the bench could not run

// The Docker adapter's configuration ("codemode docker/container"), run when image is set.
struct DockerBenchOptions {
  std::string image;                // sha256:...
  std::string provenance;           // sha256:...
  std::string host;                 // empty: the CLI's default daemon
  std::string seccomp = "builtin";  // or "daemon_default" (engines before Docker 23.0)
  std::string docker_path = "/usr/bin/docker";
};

struct BenchOptions {
  std::vector<std::string> spawns{"fork_server", "exec"};
  std::vector<std::string> isolations{"process", "isolated"};
  // "interpreter" (the default profile) and/or "jit" (EngineProfile::kJit, opt-in and weaker);
  // with both, each jit row is also compared with the interpreter row of the same configuration.
  std::vector<std::string> engines{"interpreter"};
  std::vector<std::string> workloads;  // names; empty: every workload
  // "floor", "quickjs" (a Node.js process per execution), "isolated_vm" and "quickjs_inprocess"
  // (one persistent Node.js process running each execution in a fresh isolate or QuickJS runtime).
  std::vector<std::string> baselines{"floor", "quickjs", "isolated_vm", "quickjs_inprocess"};
  MeasureOptions measure;
  std::string worker_path;  // empty: the build's codemode-worker
  std::string cli_path;     // the `codemode` binary the MCP workloads start as a server
  std::string node_path = "/usr/bin/node";
  std::string quickjs_dir;      // holds runner.mjs, inprocess_runner.mjs and node_modules/
  std::string isolated_vm_dir;  // holds runner.mjs and node_modules/
  std::string floor_program = "/bin/true";
  std::string json_path;  // empty: no JSON file
  DockerBenchOptions docker;
  // CodeModeOptions.run_non_blocking_tools_inline for every codemode configuration.
  bool inline_calls = true;
};

int run_bench(const BenchOptions& options);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_BENCH_H_
