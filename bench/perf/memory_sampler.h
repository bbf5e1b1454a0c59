// MemorySampler watches the processes started for executions while it lives and keeps, for each,
// the most private memory and the peak RSS it saw. A background thread walks this process's
// descendants (/proc/<pid>/task/<tid>/children, so a fork server's children count too) about
// every half millisecond and reads
//   Private_Dirty  from /proc/<pid>/smaps_rollup: the pages this process alone wrote, i.e. what one
//                  more execution costs the machine (shared library text and a fork server's
//                  untouched pages are not in it)
//   VmHWM          from /proc/<pid>/status: the peak resident set the kernel recorded.
// Processes that exist when the sampler starts (a fork server, an earlier worker) are ignored. An
// execution shorter than the interval may be missed or seen only once; `processes` says how many
// were seen. A child still named like the bench (between fork and exec) is not read. The bench root
// can read a non-dumpable worker's files; another user may see nothing.
//
// Thread-safety: construct, then take() once from the same thread.
#ifndef CODEMODE_BENCH_PERF_MEMORY_SAMPLER_H_
#define CODEMODE_BENCH_PERF_MEMORY_SAMPLER_H_

#include <cstddef>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

namespace codemode::perf {

struct ProcessPeak {
  std::size_t private_dirty_kib = 0;
  std::size_t peak_rss_kib = 0;
};

// Every process this process descends to now (children, their children, ...).
std::vector<pid_t> descendant_processes();

// Private_Dirty and VmHWM of `pid` now; zeros when it is gone or unreadable.
ProcessPeak read_process_memory(pid_t pid);

class MemorySampler {
 public:
  MemorySampler();
  MemorySampler(const MemorySampler&) = delete;
  MemorySampler& operator=(const MemorySampler&) = delete;
  ~MemorySampler();  // stops and joins the thread

  // Stops sampling and returns one peak per process seen with nonzero memory.
  std::vector<ProcessPeak> take();

 private:
  void sample_once();

  std::string own_command_;  // this process's /proc/self/comm
  std::set<pid_t> ignored_;
  std::mutex mu_;
  std::map<pid_t, ProcessPeak> peaks_;
  std::jthread thread_;  // last: it reads the members above
};

}  // namespace codemode::perf

#endif  // CODEMODE_BENCH_PERF_MEMORY_SAMPLER_H_
