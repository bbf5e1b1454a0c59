// The process adapter's options for tests: the worker binary given, and the spawn mode, isolation
// profile and engine profile taken from the environment, so scripts/test runs the same suite over
// every combination:
//   CODEMODE_TEST_SPAWN      fork_server (default) | exec
//   CODEMODE_TEST_ISOLATION  process (default) | isolated
//   CODEMODE_TEST_ENGINE     interpreter (default) | jit
// Any other value fails the test that asks (a typo must not silently test the default).
#ifndef CODEMODE_TESTS_SUPPORT_ADAPTER_OPTIONS_H_
#define CODEMODE_TESTS_SUPPORT_ADAPTER_OPTIONS_H_

#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "codemode/process_adapter.h"

namespace codemode::testing {

inline std::string_view environment_or(const char* name, std::string_view fallback) {
  const char* value = std::getenv(name);
  return value ? std::string_view(value) : fallback;
}

inline SpawnMode test_spawn_mode() {
  const std::string_view spawn = environment_or("CODEMODE_TEST_SPAWN", "fork_server");
  EXPECT_TRUE(spawn == "fork_server" || spawn == "exec") << "CODEMODE_TEST_SPAWN=" << spawn;
  return spawn == "exec" ? SpawnMode::kExec : SpawnMode::kForkServer;
}

inline IsolationProfile test_isolation() {
  const std::string_view isolation = environment_or("CODEMODE_TEST_ISOLATION", "process");
  EXPECT_TRUE(isolation == "process" || isolation == "isolated")
      << "CODEMODE_TEST_ISOLATION=" << isolation;
  return isolation == "isolated" ? IsolationProfile::kIsolated : IsolationProfile::kProcess;
}

inline EngineProfile test_engine() {
  const std::string_view engine = environment_or("CODEMODE_TEST_ENGINE", "interpreter");
  EXPECT_TRUE(engine == "interpreter" || engine == "jit") << "CODEMODE_TEST_ENGINE=" << engine;
  return engine == "jit" ? EngineProfile::kJit : EngineProfile::kInterpreter;
}

inline bool testing_jit() { return test_engine() == EngineProfile::kJit; }

// For a test that sets the isolation and engine profile itself and reads only the spawn mode from
// the environment: whether this run's combination is one where it runs. In the others it would
// run again unchanged, so it skips there (CODEMODE_SKIP_REPEATED_COMBINATION).
inline bool runs_for_its_spawn_mode() {
  return test_isolation() == IsolationProfile::kProcess &&
         test_engine() == EngineProfile::kInterpreter;
}
// The same for a test that sets all three itself: it runs in the default combination only.
inline bool runs_in_default_combination() {
  return runs_for_its_spawn_mode() && test_spawn_mode() == SpawnMode::kForkServer;
}

// Skips the current test where runs_for_its_spawn_mode() or runs_in_default_combination() says.
#define CODEMODE_SKIP_REPEATED_COMBINATION(runs_here)                                      \
  do {                                                                                     \
    if (!(runs_here)) {                                                                    \
      GTEST_SKIP() << "it fixes the profiles this combination varies; it runs in another"; \
    }                                                                                      \
  } while (false)

inline ProcessAdapterOptions adapter_options(std::string worker_path) {
  return {.worker_path = std::move(worker_path),
          .spawn = test_spawn_mode(),
          .isolation = test_isolation(),
          .engine = test_engine()};
}

// The same as `codemode run` flags, for tests that run the command line.
inline std::vector<std::string> adapter_flags() {
  return {"--spawn",     test_spawn_mode() == SpawnMode::kExec ? "exec" : "fork_server",
          "--isolation", test_isolation() == IsolationProfile::kIsolated ? "isolated" : "process",
          "--engine",    testing_jit() ? "jit" : "interpreter"};
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_ADAPTER_OPTIONS_H_
