// CodeMode::execute: the lifecycle of one execution, as the steps of the data flow in
// docs/architecture.md. Each step is a named function; the first failing step decides the outcome.
#include "codemode/code_mode.h"

#include <chrono>
#include <utility>

#include "core/json/json_text.h"
#include "core/text/identifiers.h"
#include "core/text/js_whitespace.h"
#include "core/text/utf16.h"
#include "core/time/deadline_timer.h"
#include "executor/call_pool.h"
#include "executor/execution_abort.h"
#include "executor/execution_limits.h"
#include "executor/execution_registry.h"
#include "executor/outcome_messages.h"
#include "executor/tool_bridge.h"

namespace codemode {

struct CodeMode::Impl {
  explicit Impl(CodeModeOptions options) : config(std::move(options)) {}
  CodeExecutionOutcome execute(const CodeProgram& program, const Json& input,
                               const ExecuteOptions& options);

  const CodeModeOptions config;
  internal::ExecutionRegistry registry;
  // Last, so destroyed first: its threads are joined while the broker they may call still lives.
  internal::CallPool call_pool;
};

namespace {

using internal::ExecutionAbort;
using internal::ExecutionBridge;

CodeExecutionOutcome failure(Error error, CodeExecutionUsage usage) {
  CodeExecutionOutcome outcome;
  outcome.status = status_of(error.code);
  outcome.error = std::move(error);
  outcome.usage = usage;
  return outcome;
}

bool is_bounded_text(const std::string& text) {
  return !internal::is_js_blank(text) && internal::is_valid_utf8(text) &&
         internal::utf16_length(text) <= 256;
}

Status check_execute_options(const ExecuteOptions& options) {
  auto invalid = [](std::string message) {
    return Error::invalid_config("execute_options", std::move(message));
  };
  if (!is_bounded_text(options.run_id)) {
    return invalid("execute options need runId to be a nonempty string of at most 256 characters.");
  }
  if (!is_bounded_text(options.execution_id)) {
    return invalid(
        "execute options need executionId to be a nonempty string of at most 256 characters.");
  }
  if (!is_bounded_text(options.scope.principal_id) || !is_bounded_text(options.scope.project_id)) {
    return invalid(
        "execute options need scope to be exactly { principalId, projectId }, each a nonempty "
        "string of at most 256 characters.");
  }
  return {};
}

bool adapter_is_available(SandboxAdapter& adapter) noexcept {
  try {
    return adapter.is_available();
  } catch (...) {
    return false;  // an adapter that cannot tell is not available; its details are withheld
  }
}

SandboxResult run_adapter(SandboxAdapter& adapter, const SandboxRequest& request,
                          ToolBridge& bridge, std::stop_token stop) noexcept {
  try {
    return adapter.execute(request, bridge, std::move(stop));
  } catch (...) {
    return SandboxResult::failure(SandboxFailureReason::kSandboxError);
  }
}

// One execution, after its options, id, input and adapter were accepted.
class ExecutionRun {
 public:
  ExecutionRun(const CodeModeOptions& config, internal::CallPool& pool, const CodeProgram& program,
               const ExecuteOptions& options)
      : adapter_(*config.adapter),
        unknown_outcomes_(config.unknown_outcomes),
        program_(program),
        options_(options),
        limits_(program),
        on_cancel_(options.stop_token, [this] { abort_.abort(ErrorCode::kCancelled); }),
        wall_timer_(internal::DeadlineTimer::schedule(
            internal::DeadlineTimer::Clock::now() +
                std::chrono::milliseconds(program.limits().wall_time_millis),
            [this] { abort_.abort(ErrorCode::kTimeout); })),
        bridge_(program, options, config.invoke_tool, abort_, pool,
                config.run_non_blocking_tools_inline) {}

  ~ExecutionRun() {
    wall_timer_.cancel();
    abort_.stop();  // whatever still watches this execution's token stops now
  }

  CodeExecutionOutcome run(const Json& input) {
    if (Status status = program_.input_schema().validate(input); !status.ok()) {
      return failure(internal::invalid_input_schema_error(status.error().message), bridge_.usage());
    }
    SandboxResult result = SandboxResult::failure(SandboxFailureReason::kSandboxError);
    if (!abort_.code()) {
      const SandboxRequest request{options_.execution_id, program_, input};
      result = run_adapter(adapter_, request, bridge_, abort_.token());
    }
    bridge_.close(abort_.code().value_or(ErrorCode::kConflict));
    bridge_.wait_for_admitted_calls();
    return conclude(std::move(result));
  }

 private:
  CodeExecutionOutcome conclude(SandboxResult result) const {
    std::optional<ProgramLogs> logs = result.logs();
    const WorkerDiagnostics diagnostics = result.diagnostics();
    CodeExecutionOutcome outcome = decide(std::move(result));
    outcome.logs = std::move(logs);
    outcome.diagnostics = diagnostics;
    outcome.usage = bridge_.usage();
    outcome.evidence = bridge_.evidence();
    return outcome;
  }

  // Precedence: an unknown tool outcome (unless left to the program), then the abort, then the
  // adapter's result.
  CodeExecutionOutcome decide(SandboxResult result) const {
    const CodeExecutionUsage usage = bridge_.usage();
    if (usage.unknown_calls > 0 && unknown_outcomes_ == UnknownOutcomes::kEndExecution) {
      return failure(internal::unknown_outcome_error(), usage);
    }
    if (std::optional<ErrorCode> aborted = abort_.code()) {
      return failure(*aborted == ErrorCode::kCancelled ? internal::cancelled_error()
                                                       : internal::wall_timeout_error(),
                     usage);
    }
    if (!result.succeeded()) return adapter_failure(result, usage);
    return checked_output(*std::move(result).output(), usage);
  }

  CodeExecutionOutcome adapter_failure(const SandboxResult& result,
                                       CodeExecutionUsage usage) const {
    CodeExecutionOutcome outcome = failure(internal::sandbox_failure_error(result), usage);
    if (result.program_error()) {
      outcome.program_error = internal::cap_program_error(*result.program_error());
    }
    return outcome;
  }

  CodeExecutionOutcome checked_output(Json output, CodeExecutionUsage usage) const {
    if (Status status = limits_.check_result(output); !status.ok()) {
      return failure(std::move(status).error(), usage);
    }
    if (Status status = program_.output_schema().validate(output); !status.ok()) {
      return failure(internal::invalid_output_schema_error(status.error().message), usage);
    }
    CodeExecutionOutcome outcome;
    outcome.status = OutcomeStatus::kSucceeded;
    outcome.output = std::move(output);
    outcome.usage = usage;
    return outcome;
  }

  SandboxAdapter& adapter_;
  const UnknownOutcomes unknown_outcomes_;
  const CodeProgram& program_;
  const ExecuteOptions& options_;
  const internal::ExecutionLimits limits_;
  // Declaration order is destruction order in reverse: the bridge (which waits for calls) goes
  // first, then the timer and the cancel callback, then the abort they feed.
  ExecutionAbort abort_;
  std::stop_callback<std::function<void()>> on_cancel_;
  internal::TimerHandle wall_timer_;
  ExecutionBridge bridge_;
};

}  // namespace

CodeExecutionOutcome CodeMode::Impl::execute(const CodeProgram& program, const Json& input,
                                             const ExecuteOptions& options) {
  const CodeExecutionUsage early{.maximum_cost_micros = program.maximum_cost_micros()};
  if (Status status = check_execute_options(options); !status.ok()) {
    return failure(std::move(status).error(), early);
  }
  auto reservation = registry.reserve(options.execution_id);
  if (!reservation.ok()) return failure(std::move(reservation).error(), early);
  // Snapshot first: the caller's object may change while the adapter is consulted.
  // NOLINTNEXTLINE(performance-unnecessary-copy-initialization): a snapshot
  const Json snapshot = input;
  const internal::ExecutionLimits limits(program);
  if (Status status = limits.check_input(snapshot); !status.ok()) {
    return failure(std::move(status).error(), early);
  }
  SandboxAdapter& adapter = *config.adapter;
  if (!adapter_is_available(adapter)) {
    return failure(internal::adapter_unavailable_error(adapter.id()), early);
  }
  ExecutionRun run(config, call_pool, program, options);
  return run.run(snapshot);
}

namespace {

Status check_code_mode_options(const CodeModeOptions& options) {
  if (!options.adapter) {
    return Error::invalid_config("code_mode_options", "CodeModeOptions need an adapter.");
  }
  if (!options.invoke_tool) {
    return Error::invalid_config("code_mode_options",
                                 "invokeTool must be a function that brokers each tool call.");
  }
  if (options.unknown_outcomes != UnknownOutcomes::kEndExecution &&
      options.unknown_outcomes != UnknownOutcomes::kLeaveToProgram) {
    return Error::invalid_config("code_mode_options",
                                 "unknownOutcomes must be end_execution or leave_to_program.");
  }
  const std::string id = options.adapter->id();
  if (!internal::is_identifier(id)) {
    return Error::invalid_config(
        "code_mode_options",
        "The sandbox adapter id must start with a letter and contain at most 128 "
        "letters, digits, \".\", \"_\", \"/\" or \"-\".");
  }
  if (options.adapter->qualification() != AdapterQualification::kProduction &&
      !options.allow_test_adapter) {
    return Error::unsupported_profile(
        "test_adapter", "Sandbox adapter \"" + id +
                            "\" is qualified for tests only. Use a production adapter, or pass "
                            "allowTestAdapter: true to accept its isolation.");
  }
  return {};
}

}  // namespace

Result<std::unique_ptr<CodeMode>> CodeMode::create(CodeModeOptions options) {
  try {
    if (Status status = check_code_mode_options(options); !status.ok()) {
      return std::move(status).error();
    }
    auto impl = std::make_unique<Impl>(std::move(options));
    return std::unique_ptr<CodeMode>(new CodeMode(std::move(impl)));
  } catch (...) {
    return Error::invalid_config("code_mode_options",
                                 "The Code Mode options could not be accepted.");
  }
}

CodeMode::CodeMode(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CodeMode::~CodeMode() = default;

const SandboxAdapter& CodeMode::adapter() const { return *impl_->config.adapter; }

CodeExecutionOutcome CodeMode::execute(const CodeProgram& program, const Json& input,
                                       const ExecuteOptions& options) noexcept {
  try {
    return impl_->execute(program, input, options);
  } catch (...) {
    // Only an allocation failure gets here; nothing of it may reach the caller but the fact.
    CodeExecutionOutcome outcome;
    outcome.error = Error::tool_failed(
        "internal_error", "codemode failed internally; the execution's details are withheld.");
    outcome.usage.maximum_cost_micros = program.maximum_cost_micros();
    return outcome;
  }
}

}  // namespace codemode
