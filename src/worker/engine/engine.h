// The JavaScript engine behind one narrow interface: start the engine, run the program (compile,
// call, drain jobs), settle tool calls, stop it from another thread. Only
// src/worker/engine/*.cc include JSAPI headers; everything else in the worker is
// engine-agnostic, so the engine can be swapped without touching the protocol, limits or
// confinement.
//
// Lifecycle (one program per process; the process _exits afterwards and never tears the engine
// down):
//   create -> warm_up -> [fork server: prepare_profile(kModel), collect_garbage, fork]
//          -> start_engine_helper_threads -> prepare_profile -> [confinement] -> set_memory_limit
//          -> run -> settle_tool_call, run_due_timers ...
// run picks the global of the program's profile (codemode/program.h).
//
// Thread-safety: every method but request_stop must be called on the thread that called create
// (the engine thread). request_stop may be called from any thread.
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "codemode/error.h"
#include "codemode/json.h"
#include "codemode/process_adapter.h"
#include "codemode/program.h"

#include "protocol/completion.h"

namespace codemode::worker {

// Why the engine stopped the program uncatchably. The first reason wins.
enum class StopReason : int {
  kNone = 0,
  kCpuLimit,     // the watchdog saw the CPU budget spent
  kMemoryLimit,  // the engine reported out-of-memory (the OOM callback fired)
  kHostFailure,  // the worker itself failed (a frame could not be written, ...)
};

// One call of tools.call as the guest made it, reduced to plain data before any decision.
struct GuestToolCall {
  std::optional<std::string> tool_id;     // nullopt: not a string, or longer than kMaxToolIdUnits
  std::optional<std::string> input_json;  // nullopt: longer than the host's input cap
};

// Longest tool id the engine copies out of the guest, in UTF-16 code units.
inline constexpr std::size_t kMaxToolIdUnits = 1024;

// The host's decision on one GuestToolCall.
struct ToolCallAdmission {
  // Nonzero: the call went out; its answer comes later through Engine::settle_tool_call.
  std::uint64_t call_id = 0;
  // Otherwise the answer to resolve at once: guest-visible JSON text {status, error:{code, rule,
  // message}}.
  std::string local_answer;
};

// The worker side of tools.call, called by the engine on the engine thread.
class ToolCallHost {
 public:
  virtual ~ToolCallHost() = default;
  // Longest input JSON text worth copying out of the guest, in UTF-16 code units.
  virtual std::size_t max_input_units() const = 0;
  // Decides on one call. An Error ends the execution (sandbox_error).
  virtual Result<ToolCallAdmission> submit(const GuestToolCall& call) = 0;
  // The program has ended (its result is being written): every later call is refused locally.
  virtual void close() = 0;
};

struct EngineOptions {
  // kInterpreter: the JIT backend disabled process-wide. kJit: Baseline and Ion on
  // (engine_runtime.h); the worker's filter must then allow executable memory.
  EngineProfile profile = EngineProfile::kInterpreter;
  // Native stack the engine may use on this thread (JS_SetNativeStackQuota); deeper recursion
  // throws a catchable InternalError. REQUIRES: well below the thread's real stack size.
  std::size_t native_stack_quota = 0;
  // A self-hosted stencil written earlier by write_self_hosted_cache, or empty to parse the
  // self-hosted code (slower, same behaviour). Must stay alive for the life of the process.
  std::span<const std::uint8_t> self_hosted_cache;
  // Called, on whichever engine thread is collecting garbage, when the engine needs memory it
  // cannot do without (a new chunk in the middle of a garbage collection). The engine cannot
  // recover from that; the function must end the process and never return.
  void (*on_fatal_out_of_memory)() = nullptr;
};

// What run needs to know about the program.
struct ProgramRun {
  std::string_view source;      // one function expression (checked by run)
  std::string_view input_json;  // the program input, already bounded plain JSON
  std::uint64_t max_output_bytes = 0;
  ProgramProfile profile = ProgramProfile::kStandard;  // which prepared global runs it
  ProgramLanguage language = ProgramLanguage::kJavaScript;
};

class Engine {
 public:
  virtual ~Engine() = default;

  // Starts the engine process-wide and creates the context, the program's global and the tools
  // object on the calling thread. Starts no thread: the engine's helper threads are ours, started
  // by start_engine_helper_threads (engine_helper_threads.h). Call once per process.
  static Result<std::unique_ptr<Engine>> create(const EngineOptions& options);

  // Runs the code paths that read time-zone and locale data from files (Date, Intl), so nothing
  // opens a file once the system-call filter is on. REQUIRES: before confinement.
  virtual Status warm_up() = 0;

  // Makes the global of `profile` ready if it is not yet (the standard one always is): the model
  // profile's costs milliseconds of compiling, so an exec'd worker makes it only when its
  // program needs it, and a fork server once for all its children.
  virtual Status prepare_profile(ProgramProfile profile) = 0;

  // Runs a full, non-incremental garbage collection to its end, so that none is in flight when a
  // fork server forks (a child must not inherit a half-done collection).
  virtual void collect_garbage() = 0;
  // Caps the engine's garbage-collected heap at `program_bytes` above what it uses now.
  virtual void set_memory_limit(std::uint64_t program_bytes) = 0;
  // Lowers (or restores) the native stack the program's JavaScript may use, from the quota the
  // context was made with. REQUIRES: on the engine thread, at most that quota.
  virtual void set_stack_quota(std::size_t bytes) = 0;

  // Checks the shape of the program, compiles and calls it with (input, tools), and runs jobs.
  // Returns the completion, or nullopt while the program waits on tool calls.
  virtual std::optional<Completion> run(const ProgramRun& program, ToolCallHost& tools) = 0;

  // Settles tool call `call_id` with the guest-visible JSON text `answer_json` and runs jobs.
  // Errors (rule worker_protocol_error) for an unknown or already settled call.
  virtual Result<std::optional<Completion>> settle_tool_call(std::uint64_t call_id,
                                                             std::string_view answer_json) = 0;

  // The earliest time a timer of the program (model profile) is due, or nullopt when none is
  // pending. The worker waits for the parent's next frame no longer than that.
  virtual std::optional<std::chrono::steady_clock::time_point> next_timer_due() const = 0;
  // Fires the timers due now, in due order, each followed by the jobs it queued. Returns the
  // completion, or nullopt while the program still waits.
  virtual std::optional<Completion> run_due_timers() = 0;

  // Stops the program uncatchably at its next interrupt check. Safe from any thread.
  virtual void request_stop(StopReason reason) = 0;
};

// Starts the engine and writes its self-hosted stencil, framed with this binary's build id, to
// `path`; used at build time (codemode-worker --write-self-hosted-cache PATH).
Status write_self_hosted_cache(const std::string& path);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_H_
