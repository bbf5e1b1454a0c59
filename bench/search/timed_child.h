// run_timed starts one program with posix_spawnp, waits for it with wait4 and reports its wall time
// (spawn to reap, measured here) and its CPU time (user + system, from the kernel's accounting of
// the child). No shell stands between: the program is the child. stdin and stderr are /dev/null;
// stdout is /dev/null when discarded (the timed runs), or a pipe read to the end when captured
// (the untimed run that counts lines).
#ifndef CODEMODE_BENCH_REPOSITORY_TIMED_CHILD_H_
#define CODEMODE_BENCH_REPOSITORY_TIMED_CHILD_H_

#include <cstddef>
#include <string>
#include <vector>

#include "codemode/error.h"

namespace codemode::search_bench {

enum class ChildOutput { kDiscard, kCapture };

struct ChildTiming {
  int exit_code = -1;  // -1 when a signal ended it
  double wall_ms = 0;
  double cpu_ms = 0;
  std::string output;     // captured only
  std::size_t lines = 0;  // newlines in output, captured only
};

// REQUIRES: argv is nonempty; argv[0] is a program name looked up on PATH, or a path.
// `environment` is the child's whole environment ("NAME=value"). Fails (rule "child_process") when
// the spawn itself fails; a program that runs and fails is a ChildTiming with its exit code.
Result<ChildTiming> run_timed(const std::vector<std::string>& argv,
                              const std::vector<std::string>& environment, ChildOutput output);

// `script` run untimed through /bin/sh -c with `arguments` as $1, $2, ...: for set-up only (an
// export piped into tar), never for a measurement. Fails when it does not exit 0.
Status run_setup_shell(const std::string& script, const std::vector<std::string>& arguments,
                       const std::vector<std::string>& environment);

}  // namespace codemode::search_bench

#endif  // CODEMODE_BENCH_REPOSITORY_TIMED_CHILD_H_
