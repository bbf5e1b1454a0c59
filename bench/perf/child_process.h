// run_child starts a program with posix_spawn (fork+exec), writes its stdin, reads its stdout to
// the end and reaps it: what the per-process baselines pay per execution. spawn_child starts one
// and keeps both pipes open, for a runner that lives across executions (persistent_runner.h).
// The child's stderr goes to /dev/null.
#ifndef CODEMODE_BENCH_PERF_CHILD_PROCESS_H_
#define CODEMODE_BENCH_PERF_CHILD_PROCESS_H_

#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

#include "codemode/error.h"

namespace codemode::perf {

// A started child and this process's ends of its stdin and stdout pipes (O_CLOEXEC); the caller
// closes both and reaps the child with reap_child.
struct SpawnedChild {
  pid_t pid = -1;
  int stdin_fd = -1;
  int stdout_fd = -1;
};

struct ChildRun {
  int wait_status = 0;  // as waitpid reports it
  std::string output;   // everything the child wrote on stdout
};

// REQUIRES: argv is nonempty and argv[0] is a path. The child gets this process's environment.
// Fails (rule "child_process") when the pipes or the spawn fail; a child that runs and fails is a
// ChildRun with its wait status.
Result<ChildRun> run_child(const std::vector<std::string>& argv, std::string_view stdin_text);

// REQUIRES: as run_child. Fails (rule "child_process") when the pipes or the spawn fail.
Result<SpawnedChild> spawn_child(const std::vector<std::string>& argv);

// Waits for `pid` to exit; its wait status.
int reap_child(pid_t pid);

// Writes all of `text` to `fd`; false if the reader has gone (EPIPE: SIGPIPE must be ignored).
bool write_all(int fd, std::string_view text);

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_CHILD_PROCESS_H_
