#include "worker/worker.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <signal.h>
#include <unistd.h>

#include "confine/capabilities.h"
#include "confine/confine_error.h"
#include "confine/confinement.h"
#include "confine/namespaces.h"
#include "confine/rlimits.h"
#include "protocol/cpu_backstop.h"
#include "protocol/frame_codec.h"
#include "protocol/frame_format.h"
#include "protocol/worker_end.h"
#include "worker/engine/engine.h"
#include "worker/engine/engine_helper_threads.h"
#include "worker/fd_io.h"
#include "worker/frame_channel.h"
#include "worker/parked_main_thread.h"
#include "worker/sanitizer_runtime.h"
#include "worker/self_hosted_cache.h"
#include "worker/test_hooks.h"
#include "worker/tool_calls.h"
#include "worker/watchdog.h"
#include "worker/worker_error.h"

namespace codemode::worker {
namespace {

constexpr int kParentInFd = 0;
constexpr int kParentOutFd = 1;

// `measured.sanitizer_reserved` is 0 in a release build; in a sanitizer build it lifts the limit
// above the shadow memory the ASan runtime reserved, leaving the program the same budget.
confine::ConfinementPlan confinement_plan(const WorkerLimits& limits, const PreparedSizes& measured,
                                          WorkerProfile profile) {
  confine::ConfinementPlan plan;
  plan.keep_fds = {0, 1, 2};
  const std::uint64_t largest = std::max(limits.max_output_bytes, limits.max_tool_input_bytes);
  plan.data_limit_bytes = limits.memory_bytes + kInterpreterBaseBytes +
                          kHostCopiesOfLargestValue * largest + measured.sanitizer_reserved;
  plan.address_space_limit_bytes =
      measured.mapped_address_space + plan.data_limit_bytes + kAddressSpaceHeadroomBytes;
  plan.cpu_limit_seconds = internal::cpu_backstop_seconds(limits.cpu_millis);
  plan.isolated = profile.isolation == IsolationProfile::kIsolated;
  plan.engine = profile.engine;
  return plan;
}

// RLIMIT_CPU's SIGXCPU is not a forced signal, and the init of a pid namespace ignores such
// signals while their action is the default: the isolated worker (pid 1) would run on to the hard
// limit's SIGKILL a second later. So it ends itself on SIGXCPU, with exit status kExitCpuBackstop
// for a human reader: the parent believes the CPU limit only from the CPU time wait4 reports
// (worker_process.h), never from a status any exit can claim. The handler never returns, since
// returning would resume the code that used up the CPU: it needs only _exit (exit_group), which the
// filter allows. (rt_sigreturn is allowed too, seccomp_policy.cc, but this handler never uses it.)
void end_on_cpu_backstop(int) { _exit(kExitCpuBackstop); }

Status catch_cpu_backstop() {
  struct sigaction action {};
  action.sa_handler = end_on_cpu_backstop;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGXCPU, &action, nullptr) != 0) {
    return worker_error("worker_signals", "The worker could not catch the CPU backstop.");
  }
  return {};
}

// The result frame for an engine that ran out of memory where it cannot recover. Encoded before
// confinement, so writing it needs no allocation; process-wide because the engine's hook takes no
// user data.
std::string& fatal_out_of_memory_frame() {
  static std::string frame;
  return frame;
}

// The engine is about to crash for lack of memory inside a garbage collection (the RLIMIT_DATA cap
// was reached). Only the engine thread writes frames, and it is inside that collection, so no
// other frame is half written.
void report_fatal_out_of_memory() {
  _exit(write_all(kParentOutFd, fatal_out_of_memory_frame()) ? kExitCompleted : kExitSandboxError);
}

}  // namespace

Worker::Worker(WorkerProfile profile)
    : profile_(profile),
      channel_(kParentInFd, kParentOutFd),
      answer_spin_([this](std::chrono::nanoseconds spent) { watchdog_->credit(spent); }) {}

Status Worker::prepare_and_isolate(bool every_program_profile) {
  if (Status prepared = prepare(every_program_profile); !prepared.ok()) return prepared;
  if (profile_.isolation != IsolationProfile::kIsolated) return {};
  if (Status caught = catch_cpu_backstop(); !caught.ok()) return caught;
  return confine::enter_empty_root();
}

void Worker::settle_before_fork() { engine_->collect_garbage(); }

void Worker::live(const Status& prepared) {
  Result<Completion> completion = Completion::failure(SandboxFailureReason::kSandboxError);
  try {
    completion = run_steps(prepared);
  } catch (const std::bad_alloc&) {
    // Once confined, only RLIMIT_DATA makes the worker's own allocations fail: the program used
    // the memory. Before, it is the worker's failure.
    completion = Completion::failure(confined_ ? SandboxFailureReason::kMemoryLimit
                                               : SandboxFailureReason::kSandboxError);
  }
  _exit(report(completion.ok() ? *completion
                               : Completion::failure(SandboxFailureReason::kSandboxError)));
}

Result<Completion> Worker::run_steps(const Status& prepared) {
  if (!prepared.ok()) return prepared.error();
  // Before the worker's own threads: capset changes only the calling thread's capabilities, and
  // every thread started next inherits the empty sets. The parked main thread drops its own.
  if (Status dropped = confine::drop_capabilities(); !dropped.ok()) return dropped.error();
  if (Status dropped = drop_parked_main_thread_capabilities(); !dropped.ok()) {
    return dropped.error();
  }
  if (Status started = start_threads(); !started.ok()) return std::move(started).error();
  Result<StartRequest> start = receive_start();
  if (!start.ok()) return std::move(start).error();
  // Before confinement and the memory limit: the profile's global is the worker's, not the
  // program's, to pay for (a no-op in a fork server's child, which has both).
  if (Status ready = engine_->prepare_profile(start->profile); !ready.ok()) {
    return std::move(ready).error();
  }
  if (Status confined = confine(start->limits); !confined.ok()) return std::move(confined).error();
  return execute(std::move(*start));
}

Status Worker::prepare(bool every_program_profile) {
  Result<std::string> oom_frame = internal::encode_frame(
      result_message(Completion::failure(SandboxFailureReason::kMemoryLimit)),
      internal::kFrameEnvelopeBytes);
  if (!oom_frame.ok()) return std::move(oom_frame).error();
  fatal_out_of_memory_frame() = std::move(*oom_frame);
  self_hosted_cache_ = read_self_hosted_cache(default_self_hosted_cache_path());
  Result<std::unique_ptr<Engine>> engine =
      Engine::create({.profile = profile_.engine,
                      .native_stack_quota = kNativeStackQuotaBytes,
                      .self_hosted_cache = self_hosted_cache_,
                      .on_fatal_out_of_memory = report_fatal_out_of_memory});
  if (!engine.ok()) return std::move(engine).error();
  engine_ = std::move(*engine);
  if (Status warm = engine_->warm_up(); !warm.ok()) return warm;
  if (every_program_profile) {
    if (Status ready = engine_->prepare_profile(ProgramProfile::kModel); !ready.ok()) return ready;
  }
  Result<confine::SeccompProgram> filter = confine::compile_worker_seccomp_program(profile_.engine);
  if (!filter.ok()) return std::move(filter).error();
  seccomp_program_ = std::move(*filter);
  // These read /proc, which the isolated profile's empty root removes next.
  const std::optional<std::uint64_t> mapped = confine::mapped_address_space_bytes();
  if (!mapped) return confine::confinement_failed("rlimits", "rlimit_as");
  measured_.mapped_address_space = *mapped;
  measured_.sanitizer_reserved = sanitizer_reserved_data_bytes();
  prepare_sanitizers_for_confinement();
  return {};
}

Status Worker::start_threads() {
  if (Status helpers = start_engine_helper_threads(); !helpers.ok()) return helpers;
  Result<std::unique_ptr<Watchdog>> watchdog = Watchdog::start_for_calling_thread(
      [engine = engine_.get()] { engine->request_stop(StopReason::kCpuLimit); });
  if (!watchdog.ok()) return std::move(watchdog).error();
  watchdog_ = std::move(*watchdog);
  return {};
}

Result<StartRequest> Worker::receive_start() {
  Result<Json> frame = channel_.read(internal::start_frame_cap());
  if (!frame.ok()) return std::move(frame).error();
  Result<StartRequest> start = parse_start(*frame);
  if (!start.ok()) return start;
  channel_.set_write_cap(internal::worker_frame_cap(start->limits.max_output_bytes,
                                                    start->limits.max_tool_input_bytes));
  return start;
}

Status Worker::confine(const WorkerLimits& limits) {
  // Last before untrusted code: every thread runs (started together in start_threads, their
  // start-up overlapping the wait for the start frame) and the warm-ups ran (the filter forbids
  // creating threads and opening files).
  wait_for_engine_helper_threads();
  watchdog_->wait_until_running();
  observe_before_confinement();
  confine::ConfinementPlan plan = confinement_plan(limits, measured_, profile_);
  plan.seccomp_program = seccomp_program_ ? &*seccomp_program_ : nullptr;
  if (Status confined = confine::confine_worker(plan); !confined.ok()) return confined;
  confined_ = true;
  const std::span<const std::string_view> layers =
      internal::confinement_layers(profile_.isolation, profile_.engine);
  return channel_.write(confined_message(std::vector<std::string>(layers.begin(), layers.end())));
}

Result<Completion> Worker::execute(StartRequest start) {
  const WorkerLimits limits = start.limits;
  engine_->set_memory_limit(limits.memory_bytes);
  engine_->set_stack_quota(std::min<std::uint64_t>(limits.stack_bytes, kNativeStackQuotaBytes));
  ToolCalls tools(channel_, limits, start.profile);
  watchdog_->arm(std::chrono::milliseconds(limits.cpu_millis),
                 std::chrono::milliseconds(limits.wall_time_millis));
  std::optional<Completion> completion = engine_->run({.source = start.source,
                                                       .input_json = start.input_json,
                                                       .max_output_bytes = limits.max_output_bytes,
                                                       .profile = start.profile,
                                                       .language = start.language},
                                                      tools);
  std::string().swap(start.input_json);  // the engine has its own copy; RLIMIT_DATA counts this
  channel_.spin_before_reads(&answer_spin_);
  const std::size_t answer_cap = internal::tool_result_frame_cap(limits.max_output_bytes);
  while (!completion) {
    // The program waits for a tool's answer, a timer, or both: the frame, or the first timer due.
    Result<std::optional<Json>> frame = channel_.read_until(
        answer_cap,
        engine_->next_timer_due().value_or(std::chrono::steady_clock::time_point::max()));
    if (!frame.ok()) return std::move(frame).error();
    if (!frame->has_value()) {
      completion = engine_->run_due_timers();
      continue;
    }
    Result<ToolAnswer> answer = parse_tool_result(**frame, limits);
    if (!answer.ok()) return std::move(answer).error();
    if (Status sent = tools.answered(); !sent.ok()) return std::move(sent).error();
    Result<std::optional<Completion>> next =
        engine_->settle_tool_call(answer->call_id, answer->guest_json);
    if (!next.ok()) return std::move(next).error();
    completion = std::move(*next);
  }
  return std::move(*completion);
}

int Worker::report(const Completion& completion) {
  const bool written = channel_.write(result_message(completion)).ok();
  const bool worker_failed =
      !completion.succeeded() && completion.reason == SandboxFailureReason::kSandboxError;
  return written && !worker_failed ? kExitCompleted : kExitSandboxError;
}

void run_worker(WorkerProfile profile) {
  // The Worker is never destroyed: the process ends here, with the engine still alive.
  auto* worker = new Worker(profile);
  worker->live(worker->prepare_and_isolate());
}

}  // namespace codemode::worker
