#include "perf/memory_sampler.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace codemode::perf {
namespace {

constexpr auto kInterval = std::chrono::microseconds(500);

void children_of(pid_t pid, std::vector<pid_t>& out) {
  std::error_code error;
  const std::filesystem::path tasks = "/proc/" + std::to_string(pid) + "/task";
  for (auto it = std::filesystem::directory_iterator(tasks, error);
       !error && it != std::filesystem::directory_iterator(); it.increment(error)) {
    std::ifstream children(it->path() / "children");
    pid_t child = 0;
    while (children >> child) {
      out.push_back(child);
      children_of(child, out);
    }
  }
}

// The number after `field` (e.g. "Private_Dirty:") in a /proc key-value file, in kB.
std::size_t read_kib_field(const std::string& path, const std::string& field) {
  std::ifstream file(path);
  std::string word;
  while (file >> word) {
    if (word != field) continue;
    std::size_t kib = 0;
    file >> kib;
    return kib;
  }
  return 0;
}

std::string command_name(const std::string& proc_dir) {
  std::ifstream file(proc_dir + "/comm");
  std::string name;
  std::getline(file, name);
  return name;
}

}  // namespace

std::vector<pid_t> descendant_processes() {
  std::vector<pid_t> out;
  children_of(getpid(), out);
  return out;
}

ProcessPeak read_process_memory(pid_t pid) {
  const std::string base = "/proc/" + std::to_string(pid);
  return {.private_dirty_kib = read_kib_field(base + "/smaps_rollup", "Private_Dirty:"),
          .peak_rss_kib = read_kib_field(base + "/status", "VmHWM:")};
}

MemorySampler::MemorySampler() : own_command_(command_name("/proc/self")) {
  for (pid_t pid : descendant_processes()) ignored_.insert(pid);
  thread_ = std::jthread([this](std::stop_token stop) {
    while (!stop.stop_requested()) {
      sample_once();
      std::this_thread::sleep_for(kInterval);
    }
  });
}

MemorySampler::~MemorySampler() = default;

void MemorySampler::sample_once() {
  for (pid_t pid : descendant_processes()) {
    if (ignored_.contains(pid)) continue;
    // Between fork and exec a child is still a copy of the bench (with vfork, the same memory);
    // its figures would be the bench's, so it is read only once it runs its own program.
    if (command_name("/proc/" + std::to_string(pid)) == own_command_) continue;
    const ProcessPeak now = read_process_memory(pid);
    std::lock_guard lock(mu_);
    ProcessPeak& peak = peaks_[pid];
    peak.private_dirty_kib = std::max(peak.private_dirty_kib, now.private_dirty_kib);
    peak.peak_rss_kib = std::max(peak.peak_rss_kib, now.peak_rss_kib);
  }
}

std::vector<ProcessPeak> MemorySampler::take() {
  thread_.request_stop();
  if (thread_.joinable()) thread_.join();
  std::vector<ProcessPeak> out;
  for (const auto& [pid, peak] : peaks_) {
    if (peak.private_dirty_kib > 0 || peak.peak_rss_kib > 0) out.push_back(peak);
  }
  return out;
}

}  // namespace codemode::perf
