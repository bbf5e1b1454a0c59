// SpiderMonkey 102 behind the Engine interface. JSAPI conventions used throughout: a call that
// returns false with an exception pending failed catchably (the program's error); false with none
// pending is an uncatchable stop (the interrupt callback after the watchdog fired, or
// out-of-memory made terminal by the OOM callback).
#include "worker/engine/engine.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <new>
#include <span>
#include <utility>
#include <variant>
#include <vector>

#include <js/CallAndConstruct.h>
#include <js/CompilationAndEvaluation.h>
#include <js/GCAPI.h>
#include <js/Interrupt.h>
#include <js/JSON.h>
#include <js/MemoryCallbacks.h>
#include <js/Promise.h>
#include <js/SourceText.h>
#include <js/friend/ErrorMessages.h>

#include "protocol/frame_format.h"
#include "protocol/output_fault.h"
#include "protocol/worker_end.h"
#include "worker/engine/engine_errors.h"
#include "worker/engine/engine_guest.h"
#include "worker/engine/engine_job_queue.h"
#include "worker/engine/engine_model_code.h"
#include "worker/engine/engine_result.h"
#include "worker/engine/engine_runtime.h"
#include "worker/engine/engine_strings.h"
#include "worker/program_location.h"
#include "worker/reference_hints.h"
#include "worker/typescript/type_eraser.h"
#include "worker/worker_error.h"

namespace codemode::worker {
namespace {

// The JIT profile's guard against collecting instead of failing (on_major_gc_end): this many
// full collections in a row that each leave the heap within 1/kNearCapFraction of the cap make
// the program's out-of-memory terminal, as a failed allocation would.
constexpr int kFullCollectionsNearCap = 8;
constexpr std::uint32_t kNearCapFraction = 8;

// The program's source as the engine names it (in stacks and error locations).
constexpr std::string_view kProgramFilename = "program.js";

constexpr std::string_view kNotAFunction =
    "The program source must be a function expression, such as (input, tools) => output.";

Completion program_error(std::optional<ProgramError> error) {
  return Completion::failure(SandboxFailureReason::kProgramError, std::move(error));
}

Completion not_a_function() {
  return program_error(ProgramError{"TypeError", std::string(kNotAFunction)});
}

// What JSON.stringify threw about the result, when the engine threw it (a program's toJSON that
// throws is output_not_json, whatever it throws).
OutputFault output_fault_of(const ThrownError& thrown) {
  switch (thrown.error_number) {
    case JSMSG_JSON_CYCLIC_VALUE:
      return OutputFault::kCycle;
    case JSMSG_BIGINT_NOT_SERIALIZABLE:
      return OutputFault::kBigInt;
    default:
      return OutputFault::kNotJson;
  }
}

class SpiderMonkeyEngine final : public Engine {
 public:
  SpiderMonkeyEngine(JSContext* cx, EngineProfile profile);
  // Never destroyed: the worker _exits after its one program (tearing SpiderMonkey down with its
  // helper threads alive aborts, and buys nothing in a single-use process).
  ~SpiderMonkeyEngine() override = default;

  Status create_globals();
  Status prepare_profile(ProgramProfile profile) override;
  Status warm_up() override;
  void collect_garbage() override;
  void set_memory_limit(std::uint64_t program_bytes) override;
  void set_stack_quota(std::size_t bytes) override;
  std::optional<Completion> run(const ProgramRun& program, ToolCallHost& tools) override;
  Result<std::optional<Completion>> settle_tool_call(std::uint64_t call_id,
                                                     std::string_view answer_json) override;
  std::optional<std::chrono::steady_clock::time_point> next_timer_due() const override {
    return timers_.next_due();
  }
  std::optional<Completion> run_due_timers() override;
  void request_stop(StopReason reason) override;

 private:
  static bool on_interrupt(JSContext* cx);
  static void on_out_of_memory(JSContext* cx, void* engine);
  static void on_host_failure(JSContext* cx);
  static void on_major_gc_end(JSContext* cx, JSGCStatus status, JS::GCReason, void* engine);

  // One program profile's prepared global, with its `tools` and (model profile) the function
  // that fires a due timer.
  struct World {
    explicit World(JSContext* cx) : global(cx), tools(cx), fire_timer(cx) {}
    JS::PersistentRootedObject global;
    JS::PersistentRootedObject tools;
    JS::PersistentRootedObject fire_timer;
  };

  std::optional<Completion> start(const ProgramRun& program);
  // The model profile's console lines join every completion.
  std::optional<Completion> with_logs(std::optional<Completion> completion) const;
  bool check_shape(std::string_view wrapped_source, bool& is_function_expression);
  bool compile(std::string_view wrapped_source, JS::MutableHandleValue function);
  // Compiles without running; false with the compiler's error pending.
  bool compiles(std::string_view wrapped_source);
  bool call(JS::HandleValue function, std::string_view input_json);
  std::optional<Completion> drain_and_settle();
  Completion fulfilled(JS::HandleValue value);
  Completion stringified(StringifyStatus status, const std::string& json);
  // The completion after a JSAPI call returned false.
  Completion failed();
  // The completion after compiling the program's text threw (a SyntaxError, located).
  Completion failed_to_compile();
  ThrownError describe(JS::HandleValue value);
  ThrownError describe_pending();
  // `error` as the program sees it reported: in the model profile, a ReferenceError for a name
  // another runtime has says what to use instead (reference_hints.h).
  Completion thrown(ProgramError error) const;
  Completion stopped();

  JSContext* const cx_;
  std::atomic<StopReason> stop_{StopReason::kNone};
  EngineJobQueue jobs_;
  PendingCalls pending_;
  ConsoleBuffer console_{internal::kMaxConsoleBytes};
  TimerQueue timers_;
  GuestHost host_;
  std::uint64_t max_output_bytes_ = 0;
  ProgramProfile profile_ = ProgramProfile::kStandard;
  int full_collections_near_cap_ = 0;  // engine thread only (GC callbacks run there)
  World standard_;
  World model_;
  World* world_ = &standard_;        // the running program's
  std::vector<CompiledText> texts_;  // the program's own texts, for error locations
  ModelCode model_code_;             // the code tool's model code (model profile)
  JS::PersistentRootedObject trusted_global_;
  JS::PersistentRootedObject shape_check_;
  JS::PersistentRootedObject result_;
};

SpiderMonkeyEngine::SpiderMonkeyEngine(JSContext* cx, EngineProfile profile)
    : cx_(cx),
      jobs_(cx, stop_),
      pending_(cx),
      standard_(cx),
      model_(cx),
      model_code_(cx),
      trusted_global_(cx),
      shape_check_(cx),
      result_(cx) {
  host_.pending = &pending_;
  host_.model_code = &model_code_;
  host_.console = &console_;
  host_.timers = &timers_;
  host_.fail = on_host_failure;
  JS_SetContextPrivate(cx, this);
  JS::SetJobQueue(cx, &jobs_);
  JS_AddInterruptCallback(cx, on_interrupt);
  JS::SetOutOfMemoryCallback(cx, on_out_of_memory, this);
  if (profile == EngineProfile::kJit) JS_SetGCCallback(cx, on_major_gc_end, this);
}

bool SpiderMonkeyEngine::on_interrupt(JSContext* cx) {
  // The engine also interrupts for its own reasons (GC); only our stop ends the program.
  auto* engine = static_cast<SpiderMonkeyEngine*>(JS_GetContextPrivate(cx));
  return engine->stop_.load() == StopReason::kNone;
}

void SpiderMonkeyEngine::on_out_of_memory(JSContext*, void* engine) {
  // Out-of-memory is catchable in SpiderMonkey; the program must not survive it.
  static_cast<SpiderMonkeyEngine*>(engine)->request_stop(StopReason::kMemoryLimit);
}

// JIT profile only. Compiled code allocates long-lived objects straight into the tenured heap
// (pretenuring), and near JSGC_MAX_BYTES SpiderMonkey 102 then runs a full, non-incremental
// collection (reason ALLOC_TRIGGER) for about every new 4 KiB arena: each frees nothing, and a
// program that keeps its objects alive spent its whole cpuMillis collecting (measured: 1,500
// collections to climb the last 6 MiB of a 64 MiB cap) instead of failing an allocation. The
// interpreter reaches the cap in bulk, through nursery collections, and fails at once. So a run of
// full collections that each leave the heap near the cap counts as the out-of-memory it is.
void SpiderMonkeyEngine::on_major_gc_end(JSContext* cx, JSGCStatus status, JS::GCReason,
                                         void* engine) {
  if (status != JSGC_END) return;
  auto* self = static_cast<SpiderMonkeyEngine*>(engine);
  const std::uint32_t cap = JS_GetGCParameter(cx, JSGC_MAX_BYTES);
  const bool near_cap = JS_GetGCParameter(cx, JSGC_BYTES) >= cap - cap / kNearCapFraction;
  self->full_collections_near_cap_ = near_cap ? self->full_collections_near_cap_ + 1 : 0;
  if (self->full_collections_near_cap_ >= kFullCollectionsNearCap) {
    self->request_stop(StopReason::kMemoryLimit);
  }
}

void SpiderMonkeyEngine::on_host_failure(JSContext* cx) {
  static_cast<SpiderMonkeyEngine*>(JS_GetContextPrivate(cx))
      ->request_stop(StopReason::kHostFailure);
}

void SpiderMonkeyEngine::request_stop(StopReason reason) {
  StopReason none = StopReason::kNone;
  stop_.compare_exchange_strong(none, reason);
  JS_RequestInterruptCallback(cx_);  // safe from any thread
}

Status SpiderMonkeyEngine::create_globals() {
  standard_.global = create_program_global(cx_, &host_);
  if (!standard_.global) {
    return worker_error("worker_engine", "The program's global could not be created.");
  }
  trusted_global_ = create_trusted_global(cx_, standard_.global);
  if (!trusted_global_) return worker_error("worker_engine", "The trusted global failed.");
  {
    JSAutoRealm realm(cx_, standard_.global);
    standard_.tools = create_tools_object(cx_, standard_.global);
  }
  JSAutoRealm realm(cx_, trusted_global_);
  shape_check_ = create_shape_check(cx_);
  if (!standard_.tools || !shape_check_)
    return worker_error("worker_engine", "The prelude failed.");
  return {};
}

Status SpiderMonkeyEngine::prepare_profile(ProgramProfile profile) {
  if (profile != ProgramProfile::kModel || model_.global) return {};
  const auto failed = [] {
    return worker_error("worker_engine", "The model profile's global could not be created.");
  };
  model_.global = create_program_global(cx_, &host_, standard_.global);
  if (!model_.global) return failed();
  {
    JSAutoRealm realm(cx_, model_.global);
    model_.fire_timer = install_model_globals(cx_, model_.global);
    model_.tools = create_tools_object(cx_, model_.global);
    if (!model_.fire_timer || !model_.tools ||
        !define_model_code_compiler(cx_, model_.global, &model_code_)) {
      JS_ClearPendingException(cx_);
      return failed();
    }
  }
  JSAutoRealm realm(cx_, trusted_global_);
  model_code_.classify = create_model_code_classifier(cx_);
  if (!model_code_.classify) {
    JS_ClearPendingException(cx_);
    return failed();
  }
  return {};
}

Status SpiderMonkeyEngine::warm_up() {
  JSAutoRealm realm(cx_, trusted_global_);
  if (!run_warm_ups(cx_)) {
    JS_ClearPendingException(cx_);
    return worker_error("worker_engine", "The time-zone and locale warm-ups failed.");
  }
  return {};
}

void SpiderMonkeyEngine::collect_garbage() { JS_GC(cx_); }

void SpiderMonkeyEngine::set_memory_limit(std::uint64_t program_bytes) {
  const std::uint64_t used = JS_GetGCParameter(cx_, JSGC_BYTES);
  const std::uint64_t cap =
      std::min<std::uint64_t>(used + program_bytes, std::numeric_limits<uint32_t>::max());
  JS_SetGCParameter(cx_, JSGC_MAX_BYTES, static_cast<uint32_t>(cap));
}

void SpiderMonkeyEngine::set_stack_quota(std::size_t bytes) { JS_SetNativeStackQuota(cx_, bytes); }

std::optional<Completion> SpiderMonkeyEngine::with_logs(
    std::optional<Completion> completion) const {
  if (completion && profile_ == ProgramProfile::kModel) completion->logs = console_.logs();
  return completion;
}

std::optional<Completion> SpiderMonkeyEngine::run(const ProgramRun& program, ToolCallHost& tools) {
  profile_ = program.profile;
  world_ = program.profile == ProgramProfile::kModel ? &model_ : &standard_;
  host_.tools = &tools;
  max_output_bytes_ = program.max_output_bytes;
  return with_logs(start(program));
}

std::optional<Completion> SpiderMonkeyEngine::start(const ProgramRun& program) {
  // In the program's realm throughout: errors from the shape check (trusted realm, same
  // compartment) are described from here.
  JSAutoRealm realm(cx_, world_->global);
  // "\n)" so that a final // comment cannot swallow the closing parenthesis.
  // TypeScript is erased, never compiled: what runs keeps every line and column of the source.
  std::string javascript;
  if (program.language == ProgramLanguage::kTypeScript) {
    std::variant<std::string, ErasureRefusal> erased = erase_types(program.source);
    if (const ErasureRefusal* refusal = std::get_if<ErasureRefusal>(&erased)) {
      return program_error(ProgramError{
          .name = "SyntaxError",
          .message = refusal->message,
          .location = locate({.filename = std::string(kProgramFilename), .text = program.source},
                             refusal->line, refusal->column)});
    }
    javascript = std::move(std::get<std::string>(erased));
  }
  const std::string wrapped =
      "(" + (javascript.empty() ? std::string(program.source) : javascript) + "\n)";
  bool is_function_expression = false;
  // The source inside "(" ... "\n)": lines as written, the first line one column to the right.
  texts_.push_back({.filename = std::string(kProgramFilename),
                    .text = program.source,
                    .line_offset = 0,
                    .first_line_columns = 1});
  if (!check_shape(wrapped, is_function_expression)) {
    // Reflect.parse's reports are not positioned as the compiler's are: the compiler, which only
    // compiles here (nothing runs), says where the syntax error is.
    if (stop_.load() != StopReason::kNone || !JS_IsExceptionPending(cx_)) return failed();
    JS_ClearPendingException(cx_);
    if (!compiles(wrapped)) return failed_to_compile();
    return not_a_function();
  }
  if (!is_function_expression) return not_a_function();
  JS::RootedValue function(cx_);
  if (!compile(wrapped, &function)) return failed_to_compile();
  if (!function.isObject() || !JS::IsCallable(&function.toObject())) return not_a_function();
  if (!call(function, program.input_json)) return failed();
  return drain_and_settle();
}

bool SpiderMonkeyEngine::check_shape(std::string_view wrapped_source,
                                     bool& is_function_expression) {
  JSAutoRealm realm(cx_, trusted_global_);
  JS::RootedValueArray<1> args(cx_);
  JS::RootedString source(cx_, new_string(cx_, wrapped_source));
  if (!source) return false;
  args[0].setString(source);
  JS::RootedValue verdict(cx_);
  if (!JS::Call(cx_, JS::UndefinedHandleValue, shape_check_, args, &verdict)) return false;
  is_function_expression = verdict.isTrue();
  return true;
}

bool SpiderMonkeyEngine::compiles(std::string_view wrapped_source) {
  JS::CompileOptions options(cx_);
  options.setFileAndLine(kProgramFilename.data(), 1).setForceStrictMode();
  JS::SourceText<mozilla::Utf8Unit> source;
  return source.init(cx_, wrapped_source.data(), wrapped_source.size(),
                     JS::SourceOwnership::Borrowed) &&
         JS::Compile(cx_, options, source) != nullptr;
}

bool SpiderMonkeyEngine::compile(std::string_view wrapped_source, JS::MutableHandleValue function) {
  JS::CompileOptions options(cx_);
  options.setFileAndLine(kProgramFilename.data(), 1).setForceStrictMode().setIsRunOnce(true);
  JS::SourceText<mozilla::Utf8Unit> source;
  return source.init(cx_, wrapped_source.data(), wrapped_source.size(),
                     JS::SourceOwnership::Borrowed) &&
         JS::Evaluate(cx_, options, source, function);
}

bool SpiderMonkeyEngine::call(JS::HandleValue function, std::string_view input_json) {
  JS::RootedValueArray<2> args(cx_);
  JS::RootedString input_text(cx_, new_string(cx_, input_json));
  if (!input_text || !JS_ParseJSON(cx_, input_text, args[0])) return false;
  args[1].setObject(*world_->tools);
  JS::RootedValue returned(cx_);
  if (!JS::Call(cx_, JS::UndefinedHandleValue, function, args, &returned)) return false;
  // What `await` would do with the returned value (PromiseResolve): a promise whose `constructor`
  // is the original Promise as is, anything else with a `then` followed by a queued job. Both
  // lookups may run the program's getters: still the program's turn, under its CPU budget.
  result_ = JS::CallOriginalPromiseResolve(cx_, returned);
  return result_ != nullptr;
}

Result<std::optional<Completion>> SpiderMonkeyEngine::settle_tool_call(
    std::uint64_t call_id, std::string_view answer_json) {
  JSAutoRealm realm(cx_, world_->global);
  JS::RootedObject promise(cx_, pending_.take(call_id));
  if (!promise) return protocol_error("A toolResult frame answers no outstanding tool call.");
  JS::RootedString answer(cx_, new_string(cx_, answer_json));
  if (!answer) return with_logs(failed());
  JS::RootedValue value(cx_, JS::StringValue(answer));
  if (!JS::ResolvePromise(cx_, promise, value)) return with_logs(failed());
  return with_logs(drain_and_settle());
}

std::optional<Completion> SpiderMonkeyEngine::run_due_timers() {
  JSAutoRealm realm(cx_, world_->global);
  const TimerQueue::Clock::time_point now = TimerQueue::Clock::now();
  while (std::optional<std::uint64_t> id = timers_.take_due(now)) {
    JS::RootedValueArray<1> args(cx_);
    args[0].setNumber(static_cast<double>(*id));
    JS::RootedValue fire(cx_, JS::ObjectValue(*world_->fire_timer));
    JS::RootedValue ignored(cx_);
    if (!JS::Call(cx_, JS::UndefinedHandleValue, fire, args, &ignored)) return with_logs(failed());
    if (std::optional<Completion> done = drain_and_settle()) return with_logs(std::move(done));
  }
  return std::nullopt;
}

std::optional<Completion> SpiderMonkeyEngine::drain_and_settle() {
  // The result is decided the moment the program's promise settles: the jobs still queued then
  // are dropped, never run, so none can spend the CPU budget (or memory) of a result already
  // decided, nor change the value before it is serialised. Tool calls from then on (from the
  // result's toJSON) are refused in the sandbox, so the host never runs a tool whose answer
  // nobody can read.
  const auto pending = [this] { return JS::GetPromiseState(result_) == JS::PromiseState::Pending; };
  if (!jobs_.drain(cx_, pending) || stop_.load() != StopReason::kNone) return stopped();
  if (!pending()) host_.tools->close();
  JS::RootedValue value(cx_, JS::GetPromiseResult(result_));
  switch (JS::GetPromiseState(result_)) {
    case JS::PromiseState::Fulfilled:
      return fulfilled(value);
    case JS::PromiseState::Rejected:
      return thrown(describe(value).error);
    case JS::PromiseState::Pending:
      break;
  }
  // Nothing left to run, no tool answer and no timer to wait for: the promise can never settle.
  if (pending_.outstanding() == 0 && timers_.empty()) return program_error(std::nullopt);
  return std::nullopt;
}

Completion SpiderMonkeyEngine::fulfilled(JS::HandleValue value) {
  host_.tools->close();  // tools.call from a toJSON below gets LIMIT_EXCEEDED, not the parent
  if (value.isUndefined()) return Completion::invalid_output(OutputFault::kNotJson);
  std::string json;
  const StringifyStatus status = stringify_result(cx_, value, max_output_bytes_, json);
  if (status == StringifyStatus::kFailed) {
    if (stop_.load() != StopReason::kNone || !JS_IsExceptionPending(cx_)) return failed();
    ThrownError error = describe_pending();
    // Too deep to serialise is the program's error (as a crash would be); a cycle, a BigInt or a
    // throwing toJSON make the result not JSON.
    if (error.over_recursion) return thrown(std::move(error.error));
    return Completion::invalid_output(output_fault_of(error));
  }
  JS_ClearPendingException(cx_);
  return stringified(status, json);
}

Completion SpiderMonkeyEngine::stringified(StringifyStatus status, const std::string& json) {
  switch (status) {
    case StringifyStatus::kOutOfMemory:
      return Completion::failure(SandboxFailureReason::kMemoryLimit);
    case StringifyStatus::kTooLong:
      return Completion::invalid_output(OutputFault::kMaxOutputBytes);
    case StringifyStatus::kLoneSurrogate:
      return Completion::invalid_output(OutputFault::kLoneSurrogate);
    case StringifyStatus::kWritten:
      break;
    default:
      return Completion::invalid_output(OutputFault::kNotJson);
  }
  Result<Json> output = parse_json(json, program_json_limits(max_output_bytes_));
  if (!output.ok()) return Completion::invalid_output(internal::output_fault_of(output.error()));
  return Completion::success(std::move(*output));
}

Completion SpiderMonkeyEngine::failed() {
  if (stop_.load() != StopReason::kNone) return stopped();
  if (!JS_IsExceptionPending(cx_)) return Completion::failure(SandboxFailureReason::kSandboxError);
  return thrown(describe_pending().error);
}

ThrownError SpiderMonkeyEngine::describe(JS::HandleValue value) {
  // Once the model's code compiled, locations are in it alone (the wrapper is the host's text).
  const bool model = model_code_.compiled.has_value();
  ThrownError error = model ? describe_thrown(cx_, value, std::span(&*model_code_.compiled, 1))
                            : describe_thrown(cx_, value, texts_);
  if (value.isObject() && model_code_.syntax_error &&
      &value.toObject() == model_code_.syntax_error.get()) {
    error.error.location = model_code_.syntax_location;
  }
  return error;
}

ThrownError SpiderMonkeyEngine::describe_pending() {
  JS::RootedValue exception(cx_);
  if (!JS_GetPendingException(cx_, &exception)) exception.setUndefined();
  JS_ClearPendingException(cx_);
  return describe(exception);
}

Completion SpiderMonkeyEngine::failed_to_compile() {
  if (stop_.load() != StopReason::kNone) return stopped();
  if (!JS_IsExceptionPending(cx_)) return Completion::failure(SandboxFailureReason::kSandboxError);
  return thrown(describe_compile_error(cx_, texts_.front()).error);
}

Completion SpiderMonkeyEngine::thrown(ProgramError error) const {
  if (profile_ == ProgramProfile::kModel && error.name == "ReferenceError") {
    error.message = with_reference_hint(error.message);
  }
  return program_error(std::move(error));
}

Completion SpiderMonkeyEngine::stopped() {
  JS_ClearPendingException(cx_);
  switch (stop_.load()) {
    case StopReason::kCpuLimit:
      return Completion::failure(SandboxFailureReason::kCpuLimit);
    case StopReason::kMemoryLimit:
      return Completion::failure(SandboxFailureReason::kMemoryLimit);
    default:
      return Completion::failure(SandboxFailureReason::kSandboxError);
  }
}

}  // namespace

Result<std::unique_ptr<Engine>> Engine::create(const EngineOptions& options) {
  if (Status started = start_engine_process(options.profile, options.on_fatal_out_of_memory);
      !started.ok()) {
    return std::move(started).error();
  }
  JSContext* cx = new_engine_context(options.native_stack_quota, options.profile);
  if (!cx) return worker_error("worker_engine", "The JavaScript context could not be created.");
  // Installs the job queue.
  auto engine = std::make_unique<SpiderMonkeyEngine>(cx, options.profile);
  if (Status ready = init_self_hosted_code(cx, options.self_hosted_cache); !ready.ok()) {
    return std::move(ready).error();
  }
  if (Status ready = engine->create_globals(); !ready.ok()) return std::move(ready).error();
  return std::unique_ptr<Engine>(std::move(engine));
}

}  // namespace codemode::worker
