// The program's world: its global object (standard ECMAScript only, plus `tools`), the one bridge
// native behind tools.call, the prelude that builds `tools`, and a separate trusted global whose
// Reflect.parse checks the program's shape before it is compiled.
#ifndef CODEMODE_WORKER_ENGINE_ENGINE_GUEST_H_
#define CODEMODE_WORKER_ENGINE_ENGINE_GUEST_H_

#include <cstddef>
#include <cstdint>

#include <jsapi.h>

#include "worker/console_buffer.h"
#include "worker/engine/engine.h"
#include "worker/engine/engine_model_code.h"
#include "worker/timer_queue.h"

namespace codemode::worker {

// The promises of tool calls waiting for their toolResult, by call id (1, 2, 3, ...).
class PendingCalls {
 public:
  explicit PendingCalls(JSContext* cx) : promises_(cx) {}

  // Keeps `promise` until the answer to `call_id` arrives. False on out-of-memory.
  bool add(std::uint64_t call_id, JS::HandleObject promise);
  // The promise of `call_id` if it is still waiting (and forgets it); nullptr otherwise.
  JSObject* take(std::uint64_t call_id);
  std::size_t outstanding() const { return outstanding_; }

 private:
  JS::PersistentRootedObjectVector promises_;  // [call_id - 1]; null once settled
  std::size_t outstanding_ = 0;
};

// The per-execution host state the natives reach through reserved slot 0 of the program's global.
struct GuestHost {
  ToolCallHost* tools = nullptr;  // null until the program runs
  PendingCalls* pending = nullptr;
  ConsoleBuffer* console = nullptr;  // the model profile's console.log lines
  TimerQueue* timers = nullptr;      // the model profile's setTimeout and setInterval
  ModelCode* model_code = nullptr;   // the code tool's model code (engine_model_code.h)
  // Called when the host itself fails inside a native (a frame could not be written).
  void (*fail)(JSContext* cx) = nullptr;
};

// The host state of the current global; nullptr outside a program global.
GuestHost* guest_host(JSContext* cx);

// A program's global: standard classes without InternalError, escape and unescape; no shared
// memory, streams, WeakRef or toSource; the bridge native; `host` in reserved slot 0; the
// ECMAScript library the engine predates (scripts/standard_library.js). In a compartment of its
// own, or in `same_compartment_as`'s when given.
// REQUIRES: `host` outlives the global.
JSObject* create_program_global(JSContext* cx, GuestHost* host,
                                JS::HandleObject same_compartment_as = nullptr);

// In `global` (entered): adds the model profile's globals (scripts/timers.js,
// scripts/model_globals.js) over natives that reach `host`. Returns the function the engine calls
// with each due timer's id, or nullptr on failure.
JSObject* install_model_globals(JSContext* cx, JS::HandleObject global);

// Runs the prelude in `global` (entered): it captures the bridge and the JSON and Object functions
// it uses, deletes the bridge global, and returns the frozen `tools` object.
JSObject* create_tools_object(JSContext* cx, JS::HandleObject global);

// A global the program never sees, with Reflect.parse, in the program global's compartment.
JSObject* create_trusted_global(JSContext* cx, JS::HandleObject program_global);

// In the trusted global (entered): the function (source) => boolean that says whether `source`
// parses as exactly one expression statement that is an arrow or non-generator function.
JSObject* create_shape_check(JSContext* cx);

// In the trusted global (entered): reads the time-zone and locale data once, before confinement.
bool run_warm_ups(JSContext* cx);

}  // namespace codemode::worker

#endif  // CODEMODE_WORKER_ENGINE_ENGINE_GUEST_H_
