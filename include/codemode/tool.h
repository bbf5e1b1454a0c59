// Tool is a host capability a program may call: an id, schemas for its input and output, the
// effects it may have, the most one call may cost, a timeout, optional guards, and the function
// that does the work. Programs never call a tool directly: every call goes through a broker
// (invoke_tool in broker.h), which applies the schemas, guards, permissions and budget.
//
//   auto price = define_tool({
//       .id = "catalog.price", .version = "1", .description = "Price of one product in cents.",
//       .input = Schema::compile(R"({"type":"object","properties":{"sku":{"type":"string"}},
//                                    "required":["sku"]})"_json).value(),
//       .output = Schema::any(),
//       .effects = ToolEffects::kRead,
//       .execute = [](const Json& in, const ToolContext&, ToolResponder respond) {
//         respond.succeed({{"cents", in["sku"].get<std::string>().size() * 100}});
//       }});
//
// Ownership and thread-safety: a Tool is an immutable, reference-counted handle; copies share one
// definition. Its execute function may be called from several threads at once. The broker makes
// one ToolResponder per call and hands it to execute; it may be answered from any thread.
#ifndef CODEMODE_TOOL_H_
#define CODEMODE_TOOL_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "codemode/error.h"
#include "codemode/export.h"
#include "codemode/json.h"
#include "codemode/outcome.h"
#include "codemode/schema.h"

namespace codemode {

// Ordered from weakest to strongest. A call needs the grant "effect:<name>" unless kNone.
enum class ToolEffects : int { kNone = 1, kRead, kWrite, kHost };
CODEMODE_EXPORT std::string_view to_string(ToolEffects effects);  // "none", "read", ...
CODEMODE_EXPORT std::optional<ToolEffects> tool_effects_from_string(std::string_view text);

// Handed to execute and to guards for one call.
struct ToolContext {
  std::string run_id;
  std::string call_id;
  Scope scope;
  // Fires when the call times out or its caller cancels. execute must honour it: stop work, answer
  // (or not) and return promptly. A std::stop_callback registered on it may run on codemode's
  // shared timer thread, so it must be short and must not block.
  std::stop_token stop_token;
};

namespace internal {
struct ToolResponderAccess;
}

// The one-shot answer to a call. Only the broker makes one, for the call it runs; a tool receives
// it in execute. Copyable; every copy answers the same call; the first answer wins and later ones
// are ignored, so answering from any thread, late or twice, is safe. A moved-from responder
// answers nothing.
// If every copy is destroyed without an answer, the call ends as if execute had thrown: "failed"
// for a kNone tool, "unknown" (it may have had its effect) for any other. An answer given before
// execute throws stands.
class CODEMODE_EXPORT ToolResponder {
 public:
  // The call succeeded with `output` (checked against the tool's output schema by the broker).
  void succeed(Json output) const;
  // The call ran and failed without effect worth reconciling; charged the declared cost.
  void fail() const;
  // The same, with the tool's own words for its caller: a program sees them as error.message in
  // place of the fixed "The tool call failed." (ToolOutcome::tool_message). codemode does not
  // redact them, so pass only what every caller may read. Cut to kMaxToolMessageBytes on a
  // character boundary; empty or not valid UTF-8 is the same as fail().
  void fail(std::string_view tool_message) const;
  static constexpr std::size_t kMaxToolMessageBytes = 1024;
  // The same, under the tool's own name for the failure: `rule` becomes the error's rule in place
  // of "tool_failed", which a program sees as error.code and a direct-mode MCP client as `code`
  // ("unknown_snapshot", "path_refused"). A rule matches ^[a-z][a-z0-9_]{0,63}$ and is none of
  // codemode's own: not "tool_*", "worker_*", "max_*", "budget_*", "downstream_*", "*_limit",
  // or one of the rules the broker and the code tool report (is_tool_failure_rule); any other
  // rule is the same as fail(text).
  void fail_as(std::string_view rule, std::string_view tool_message) const;
  // The call was refused before any effect; execution "not_started", nothing charged.
  void refuse() const;

 private:
  friend struct internal::ToolResponderAccess;
  struct State;
  explicit ToolResponder(std::shared_ptr<State> state);

  std::shared_ptr<State> state_;
};

// Does the tool's work. Called on the broker's thread. It may answer before returning (a blocking
// tool) or return at once and answer later from another thread (an asynchronous tool). An
// exception thrown from it is caught by the broker and treated as described on ToolResponder.
using ToolExecuteFn =
    std::function<void(const Json& input, const ToolContext& context, ToolResponder respond)>;

enum class GuardVerdict : int { kAllow = 1, kBlock };
// A guard can only allow or block. A guard that throws leaves the call GUARD_UNAVAILABLE.
using ToolGuard = std::function<GuardVerdict(const Json& value, const ToolContext& context)>;

struct ToolGuards {
  ToolGuard input{};   // sees the validated input, before the budget is reserved; optional
  ToolGuard output{};  // sees the validated output, before it is returned; optional
};

// What a call runs beyond the tool's definition, so that an approval can bind it
// (workflow_runtime.h): a phase approved with this tool runs only while its binding is what the
// person approved. `description` names what runs (a command tool: {"command": [its resolved
// argv]}); `files` lists the absolute paths of the files that decide what runs (a command tool:
// its executable and every argument that names a file), which an approval binds by content, read
// when the request is issued and again when the phase is claimed. Both empty for a tool whose work
// is the host's own code: the host's binary is not bound.
struct ToolBinding {
  Json description = Json::object();
  std::vector<std::string> files{};
};

struct ToolOptions {
  // ^[A-Za-z][A-Za-z0-9._/-]{0,127}$
  std::string id;
  // Nonempty after trimming, at most 128 characters.
  std::string version;
  // Nonempty after trimming, at most 4,096 characters.
  std::string description;
  Schema input;
  Schema output;
  ToolEffects effects = ToolEffects::kNone;
  // Extra grants a caller needs; at most 128, unique, each 1..256 characters.
  std::vector<std::string> capabilities{};
  // The most one call may cost, in micros; 0 .. 2^53-1. Reserved from the budget before execute.
  std::int64_t cost_micros = 0;
  // 1 ms .. 2,147,483,647 ms. Past it the call ends TIMEOUT.
  std::chrono::milliseconds timeout{30'000};
  ToolGuards guards{};
  ToolExecuteFn execute{};  // required
  // The tool answers before execute returns and never waits: no I/O, no sleep, no lock held
  // across a wait, in execute or its guards. A program's call to it may then run on the thread
  // that read the call (for the process, protocol and Docker adapters: the thread that called
  // CodeMode::execute) instead of being handed to another, one thread wake-up less per call
  // (docs/performance.md), unless CodeModeOptions.run_non_blocking_tools_inline is false. A tool
  // that says so and then waits delays its execution's other calls (never another execution's),
  // and the wall deadline or a cancellation ending the worker, until it returns. Not part of the
  // manifest.
  bool non_blocking = false;
  // Not part of the manifest either: what an approval binds beyond it (above). At most 1,024
  // files, each an absolute path; the description at most 64 KiB of JSON.
  ToolBinding binding{};
};

namespace internal {
struct ToolAccess;
}

class CODEMODE_EXPORT Tool {
 public:
  const std::string& id() const;
  const std::string& version() const;
  const std::string& description() const;
  const Schema& input_schema() const;
  const Schema& output_schema() const;
  ToolEffects effects() const;
  const std::vector<std::string>& capabilities() const;
  std::int64_t cost_micros() const;
  std::chrono::milliseconds timeout() const;
  bool non_blocking() const;
  const ToolBinding& binding() const;

  // {id, version, description, effects, capabilities, costMicros, inputJsonSchema}: the part of the
  // tool a program's manifest (and so its digest) records. Guards, timeout and execute are not in
  // it.
  const Json& manifest() const;

 private:
  friend struct internal::ToolAccess;
  friend CODEMODE_EXPORT Result<Tool> define_tool(ToolOptions options);
  struct Definition;
  explicit Tool(std::shared_ptr<const Definition> definition);
  std::shared_ptr<const Definition> definition_;
};

// Whether `rule` may name a tool's own failure (ToolResponder::fail_as).
CODEMODE_EXPORT bool is_tool_failure_rule(std::string_view rule);

// Validates `options` and returns the tool. INVALID_CONFIG naming the field otherwise
// (rule "tool_definition").
CODEMODE_EXPORT Result<Tool> define_tool(ToolOptions options);

}  // namespace codemode

#endif  // CODEMODE_TOOL_H_
