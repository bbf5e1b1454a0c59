#include "worker/parked_main_thread.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>

#include <unistd.h>

#include "confine/capabilities.h"

namespace codemode::worker {
namespace {

struct Handoff {
  std::mutex mutex;
  std::condition_variable changed;
  bool requested = false;
  std::optional<Status> answer;
};

Handoff& handoff() {
  static Handoff state;
  return state;
}

// The process whose main thread is parked. A fork-server child copies this memory but not the
// thread, and sees a different pid.
std::atomic<pid_t> parked_in_process{0};

}  // namespace

void claim_main_thread_for_parking() { parked_in_process = getpid(); }

void park_main_thread_until_capabilities_dropped() {
  Handoff& state = handoff();
  std::unique_lock lock(state.mutex);
  state.changed.wait(lock, [&state] { return state.requested; });
  state.answer = confine::drop_capabilities();
  state.changed.notify_all();
}

Status drop_parked_main_thread_capabilities() {
  if (parked_in_process.load() != getpid()) return {};
  Handoff& state = handoff();
  std::unique_lock lock(state.mutex);
  state.requested = true;
  state.changed.notify_all();
  state.changed.wait(lock, [&state] { return state.answer.has_value(); });
  return *state.answer;
}

}  // namespace codemode::worker
