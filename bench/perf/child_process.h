// run_child starts a program with posix_spawn (fork+exec), writes its stdin, reads its stdout to
// the end and reaps it: what the baselines pay per execution. Its stderr goes to /dev/null.
#ifndef CODEMODE_BENCH_PERF_CHILD_PROCESS_H_
#define CODEMODE_BENCH_PERF_CHILD_PROCESS_H_

#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"

namespace codemode::perf {

struct ChildRun {
  int wait_status = 0;  // as waitpid reports it
  std::string output;   // everything the child wrote on stdout
};

// REQUIRES: argv is nonempty and argv[0] is a path. The child gets this process's environment.
// Fails (rule "child_process") when the pipes or the spawn fail; a child that runs and fails is a
// ChildRun with its wait status.
Result<ChildRun> run_child(const std::vector<std::string>& argv, std::string_view stdin_text);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_CHILD_PROCESS_H_
