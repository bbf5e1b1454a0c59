// PersistentRunner: one long-lived child process (a Node.js runner, persistent_runner.mjs) that
// runs many executions, spoken to by newline-delimited JSON over its stdin and stdout. Each
// request gets an id; a reader thread hands each answer line to the caller waiting for its id, so
// several threads may have requests in flight at once and the child may answer them in any order.
// It is how the in-process baselines (isolated_vm, quickjs_inprocess) keep one server process for
// the whole bench run instead of starting one per execution.
//
// SIGPIPE must be ignored (codemode-bench's main does): a runner that died fails the write.
//
// Thread-safety: call() is thread-safe.
#ifndef CODEMODE_BENCH_PERF_PERSISTENT_RUNNER_H_
#define CODEMODE_BENCH_PERF_PERSISTENT_RUNNER_H_

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

#include "codemode/error.h"
#include "codemode/json.h"

namespace codemode::perf {

class PersistentRunner {
 public:
  // Starts argv (REQUIRES: argv[0] is a path) and waits for its {"id": 0, "status": "ready"} line.
  // Fails with rule "baseline_unavailable" when it cannot be started or exits before it is ready
  // (e.g. its npm packages do not load).
  static Result<std::unique_ptr<PersistentRunner>> start(const std::vector<std::string>& argv);

  PersistentRunner(const PersistentRunner&) = delete;
  PersistentRunner& operator=(const PersistentRunner&) = delete;
  // Closes the child's stdin (the runner exits when its answers are out), then reaps it.
  ~PersistentRunner();

  // Sends `request` (an object; its "id" is set here) and returns the answer with that id. Fails
  // (rule "child_process") when the runner has exited or cannot be written to.
  Result<Json> call(Json request);

 private:
  PersistentRunner(pid_t pid, int to_child, int from_child);
  void read_answers();  // the reader thread: until EOF on from_child_
  void deliver(const std::string& line);
  Result<Json> wait_for(std::uint64_t id);

  pid_t pid_;
  int to_child_;
  int from_child_;
  std::mutex write_mu_;  // one request line at a time on the pipe

  std::mutex mu_;
  std::condition_variable answered_;
  std::uint64_t next_id_ = 1;              // 0 is the ready line
  std::map<std::uint64_t, Json> answers_;  // arrived, not yet taken
  bool exited_ = false;                    // EOF: no more answers will come

  std::jthread reader_;  // last: it uses the members above
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_PERSISTENT_RUNNER_H_
