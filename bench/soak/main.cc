// codemode-soak: thousands of mixed executions through the real process adapter, then what the
// parent still holds. A measurement tool, run by scripts/soak; docs/soak.md says what it checks.
#include <string>

#include <CLI/CLI.hpp>

#include "soak/soak.h"

namespace {

// Where the build put the workers (bench/soak/CMakeLists.txt), as the tests find them.
codemode::soak::WorkerPaths built_workers() {
  return {CODEMODE_WORKER_BINARY, CODEMODE_WORKER_TESTHOOKS_BINARY};
}

}  // namespace

int main(int argc, char** argv) {
  codemode::soak::SoakOptions options{.workers = built_workers()};
  CLI::App app{
      "codemode-soak: run a seeded mix of executions through the real process adapter "
      "and report outcomes, throughput and leaks (RSS, fds, processes, temp files)."};
  app.add_option("--executions", options.executions, "Executions to run")
      ->check(CLI::Range(std::size_t{1}, std::size_t{10'000'000}));
  app.add_option("--concurrency", options.concurrency, "Executions at once")
      ->check(CLI::Range(1, 64));
  app.add_option("--seed", options.seed, "Seed of the deterministic mix");
  app.add_option("--json", options.json_path, "Also write the report as JSON to this file");
  app.add_option("--worker", options.workers.standard, "The codemode-worker binary");
  app.add_option("--testhooks-worker", options.workers.test_hooks,
                 "The codemode-worker-testhooks binary (for the crash kind)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? codemode::soak::kExitPassed : codemode::soak::kExitError;
  }
  return codemode::soak::run_soak(options);
}
