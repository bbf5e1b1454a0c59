// Processes that a test's child started (a background job, a helper): each records itself as
// "<pid> <start time>" in a file of the test's own scratch directory, and the test checks exactly
// those processes, never the shared process table (tests run in parallel). The start time (field
// 22 of /proc/<pid>/stat) tells a recorded process from a later one that reuses its pid.
//
// A shell records its background job with kRecordLastJob; python with the fixture's own code.
#ifndef CODEMODE_TESTS_SUPPORT_DESCENDANTS_H_
#define CODEMODE_TESTS_SUPPORT_DESCENDANTS_H_

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "support/scratch_dir.h"

namespace codemode::testing {

// sh: appends "$! <its start time>" to the file named by $0.
inline constexpr char kRecordLastJob[] =
    "echo $! $(/usr/bin/cut -d' ' -f22 /proc/$!/stat) >> \"$0\"";

struct RecordedProcess {
  pid_t pid = 0;
  unsigned long long start_time = 0;
};

inline std::vector<RecordedProcess> recorded_processes(const std::string& path) {
  std::vector<RecordedProcess> processes;
  std::ifstream in(path);
  RecordedProcess process;
  while (in >> process.pid >> process.start_time) processes.push_back(process);
  return processes;
}

// Polls until `path` records at least `count` processes, at most `limit`.
inline std::vector<RecordedProcess> wait_for_recorded(const std::string& path, std::size_t count,
                                                      std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::vector<RecordedProcess> processes = recorded_processes(path);
  while (processes.size() < count && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    processes = recorded_processes(path);
  }
  return processes;
}

// Whether the recorded process still runs. A zombie (Z) or dead (X) one does not: a killed orphan
// stays a zombie until init (or the nearest subreaper) reaps it, which is not instant and which a
// container's init may never do.
inline bool still_running(const RecordedProcess& process) {
  std::ifstream stat("/proc/" + std::to_string(process.pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;  // gone
  const std::size_t close = line.rfind(')');    // the command name may hold spaces
  if (close == std::string::npos) return false;
  std::istringstream fields(line.substr(close + 2));
  std::vector<std::string> values;
  for (std::string value; fields >> value;) values.push_back(value);
  // After the name: state is field 3, start time field 22.
  if (values.size() < 20 || std::stoull(values[19]) != process.start_time) return false;
  return values[0] != "Z" && values[0] != "X";
}

// Polls until none of `processes` runs, at most `limit` (a SIGKILL is delivered asynchronously).
inline bool all_ended_within(const std::vector<RecordedProcess>& processes,
                             std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    bool any_running = false;
    for (const RecordedProcess& process : processes) any_running |= still_running(process);
    if (!any_running) return true;
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Kills what a failing test left running, so it does not stay for minutes. Through a pidfd taken
// before the identity check, so a reused pid is never signalled.
inline void kill_survivors(const std::vector<RecordedProcess>& processes) {
  for (const RecordedProcess& process : processes) {
    const long fd = syscall(SYS_pidfd_open, process.pid, 0);
    if (fd < 0) continue;
    if (still_running(process)) {
      syscall(SYS_pidfd_send_signal, static_cast<int>(fd), SIGKILL, nullptr, 0);
    }
    close(static_cast<int>(fd));
  }
}

// Checks that every recorded process ended within `limit`, and kills the survivors either way.
inline bool ended_or_killed(const std::vector<RecordedProcess>& processes,
                            std::chrono::milliseconds limit) {
  const bool ended = all_ended_within(processes, limit);
  kill_survivors(processes);
  return ended;
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_SUPPORT_DESCENDANTS_H_
