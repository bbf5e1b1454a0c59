#include "perf/bench.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <optional>
#include <thread>

#include "codemode/docker_adapter.h"
#include "codemode/process_adapter.h"

#include "perf/codemode_subject.h"
#include "perf/floor_subject.h"
#include "perf/isolated_vm_subject.h"
#include "perf/mcp_subject.h"
#include "perf/quickjs_inprocess_subject.h"
#include "perf/quickjs_subject.h"
#include "perf/report.h"

namespace codemode::perf {
namespace {

Result<std::vector<Workload>> selected_workloads(const std::vector<std::string>& names) {
  std::vector<Workload> all = standard_workloads();
  if (names.empty()) return all;
  std::vector<Workload> chosen;
  for (const std::string& name : names) {
    auto it =
        std::find_if(all.begin(), all.end(), [&](const Workload& w) { return w.name == name; });
    if (it == all.end()) {
      return Error::invalid_config("unknown_workload", "A workload name is unknown.");
    }
    chosen.push_back(*it);
  }
  return chosen;
}

Json options_json(const BenchOptions& options) {
  return {{"spawn", options.spawns},
          {"isolation", options.isolations},
          {"engine", options.engines},
          {"workloads", options.workloads},
          {"baselines", options.baselines},
          {"iterations", options.measure.iterations},
          {"memoryIterations", options.measure.memory_iterations},
          {"floorProgram", options.floor_program},
          {"docker", options.docker.image.empty() ? Json()
                                                  : Json{{"image", options.docker.image},
                                                         {"seccomp", options.docker.seccomp}}},
          {"cpus", std::thread::hardware_concurrency()}};
}

void measure_all(Subject& subject, const std::vector<Workload>& workloads,
                 const MeasureOptions& options, Configuration& configuration) {
  // Execution ids must be new for each execution of a CodeMode; one counter for the whole run
  // keeps them unique across configurations too.
  static std::atomic<std::size_t> sequence{0};
  for (const Workload& workload : workloads) {
    if (!subject.supports(workload)) continue;
    std::fprintf(stderr, "codemode-bench: %s %s\n", configuration.label().c_str(),
                 workload.name.c_str());
    configuration.measurements.push_back(measure(subject, workload, options, sequence));
  }
}

// Runs `subject` if it could be made, or records why the configuration was skipped.
template <typename T>
Configuration run_configuration(Configuration configuration, Result<std::unique_ptr<T>> subject,
                                const std::vector<Workload>& workloads,
                                const MeasureOptions& options) {
  if (!subject.ok()) {
    configuration.status = RunStatus::kSkipped;
    configuration.skip_reason = subject.error().message;
    return configuration;
  }
  measure_all(**subject, workloads, options, configuration);
  return configuration;
}

std::optional<SpawnMode> parse_spawn(const std::string& name) {
  if (name == "fork_server") return SpawnMode::kForkServer;
  if (name == "exec") return SpawnMode::kExec;
  return std::nullopt;
}

std::optional<IsolationProfile> parse_isolation(const std::string& name) {
  if (name == "process") return IsolationProfile::kProcess;
  if (name == "isolated") return IsolationProfile::kIsolated;
  return std::nullopt;
}

std::optional<EngineProfile> parse_engine(const std::string& name) {
  if (name == "interpreter") return EngineProfile::kInterpreter;
  if (name == "jit") return EngineProfile::kJit;
  return std::nullopt;
}

bool asks_for(const std::vector<Workload>& workloads, WorkloadKind kind) {
  return std::any_of(workloads.begin(), workloads.end(),
                     [kind](const Workload& w) { return w.kind == kind; });
}

// A `codemode mcp` server in `mode`; in code mode its sandbox is the configuration's, so the row
// stands beside the library's row of the same configuration.
Configuration run_mcp(const BenchOptions& options, const std::vector<Workload>& workloads,
                      const std::string& mode, Configuration configuration) {
  Json sandbox;
  if (mode == "code") {
    sandbox = {{"type", "process"},
               {"spawn", configuration.spawn},
               {"isolation", configuration.isolation},
               {"engine", configuration.engine}};
  }
  configuration.subject = "mcp_" + mode;
  return run_configuration(configuration,
                           McpSubject::create({.cli_path = options.cli_path,
                                               .worker_path = options.worker_path,
                                               .mode = mode,
                                               .sandbox = std::move(sandbox)}),
                           workloads, options.measure);
}

void run_codemode(const BenchOptions& options, const std::vector<Workload>& workloads,
                  BenchReport& report) {
  for (const std::string& spawn : options.spawns) {
    for (const std::string& isolation : options.isolations) {
      for (const std::string& engine : options.engines) {
        ProcessAdapterOptions adapter{.worker_path = options.worker_path,
                                      .spawn = *parse_spawn(spawn),
                                      .isolation = *parse_isolation(isolation),
                                      .engine = *parse_engine(engine)};
        const Configuration configuration{
            .subject = "codemode", .spawn = spawn, .isolation = isolation, .engine = engine};
        if (asks_for(workloads, WorkloadKind::kProgram)) {
          report.configurations.push_back(
              run_configuration(configuration,
                                CodeModeSubject::create(make_process_adapter(adapter), workloads,
                                                        options.inline_calls),
                                workloads, options.measure));
        }
        if (asks_for(workloads, WorkloadKind::kMcpCode)) {
          report.configurations.push_back(run_mcp(options, workloads, "code", configuration));
        }
      }
    }
  }
  if (asks_for(workloads, WorkloadKind::kMcpDirect)) {
    report.configurations.push_back(
        run_mcp(options, workloads, "direct", Configuration{.subject = "mcp_direct"}));
  }
  if (!options.docker.image.empty() && asks_for(workloads, WorkloadKind::kProgram)) {
    const DockerBenchOptions& docker = options.docker;
    Result<std::shared_ptr<SandboxAdapter>> adapter = make_docker_adapter(
        {.docker_path = docker.docker_path,
         .image = docker.image,
         .provenance = docker.provenance,
         .host = docker.host,
         .seccomp = docker.seccomp == "daemon_default" ? DockerSeccomp::kDaemonDefault
                                                       : DockerSeccomp::kBuiltin});
    Configuration configuration{.subject = "codemode",
                                .spawn = "docker",
                                .isolation = "container",
                                .engine = "interpreter"};
    report.configurations.push_back(
        adapter.ok()
            ? run_configuration(configuration,
                                CodeModeSubject::create(*adapter, workloads, options.inline_calls),
                                workloads, options.measure)
            : run_configuration(configuration,
                                Result<std::unique_ptr<CodeModeSubject>>(adapter.error()),
                                workloads, options.measure));
  }
}

void run_baselines(const BenchOptions& options, const std::vector<Workload>& workloads,
                   BenchReport& report) {
  for (const std::string& baseline : options.baselines) {
    if (baseline == "floor") {
      report.configurations.push_back(
          run_configuration(Configuration{.subject = "floor"},
                            Result<std::unique_ptr<FloorSubject>>(
                                std::make_unique<FloorSubject>(options.floor_program)),
                            workloads, options.measure));
    } else if (baseline == "quickjs") {
      report.configurations.push_back(
          run_configuration(Configuration{.subject = "quickjs"},
                            QuickJsSubject::create(options.node_path, options.quickjs_dir),
                            workloads, options.measure));
    } else if (baseline == "isolated_vm") {
      report.configurations.push_back(
          run_configuration(Configuration{.subject = "isolated_vm"},
                            make_isolated_vm_subject(options.node_path, options.isolated_vm_dir),
                            workloads, options.measure));
    } else if (baseline == "quickjs_inprocess") {
      report.configurations.push_back(
          run_configuration(Configuration{.subject = "quickjs_inprocess"},
                            make_quickjs_inprocess_subject(options.node_path, options.quickjs_dir),
                            workloads, options.measure));
    }
  }
}

bool write_json(const std::string& path, const BenchReport& report) {
  std::ofstream file(path);
  file << to_json(report).dump(2) << "\n";
  return static_cast<bool>(file);
}

bool valid_names(const BenchOptions& options) {
  for (const std::string& s : options.spawns) {
    if (!parse_spawn(s)) return false;
  }
  for (const std::string& i : options.isolations) {
    if (!parse_isolation(i)) return false;
  }
  for (const std::string& e : options.engines) {
    if (!parse_engine(e)) return false;
  }
  for (const std::string& b : options.baselines) {
    if (b != "floor" && b != "quickjs" && b != "isolated_vm" && b != "quickjs_inprocess") {
      return false;
    }
  }
  if (options.docker.seccomp != "builtin" && options.docker.seccomp != "daemon_default") {
    return false;
  }
  return true;
}

}  // namespace

int run_bench(const BenchOptions& options) {
  Result<std::vector<Workload>> workloads = selected_workloads(options.workloads);
  if (!workloads.ok() || !valid_names(options)) {
    std::fprintf(stderr,
                 "codemode-bench: unknown workload, spawn mode, profile, engine or baseline\n");
    return kExitError;
  }
  const auto start = std::chrono::steady_clock::now();
  BenchReport report{.options = options_json(options)};
  run_codemode(options, *workloads, report);
  run_baselines(options, *workloads, report);
  report.wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_table(report, stdout);
  if (!options.json_path.empty() && !write_json(options.json_path, report)) {
    std::fprintf(stderr, "codemode-bench: the JSON report could not be written\n");
    return kExitError;
  }
  return report.all_succeeded() ? kExitPassed : kExitFailed;
}

}  // namespace codemode::perf
