#include "mcp/code_tool/code_tool.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <set>
#include <utility>

#include "codemode/budget.h"
#include "codemode/rules.h"

#include "core/crypto/random_hex.h"
#include "mcp/catalog/mcp_codes.h"
#include "mcp/catalog/tool_results.h"
#include "mcp/code_tool/code_result.h"
#include "mcp/code_tool/content_handles.h"
#include "mcp/code_tool/execution_failure.h"
#include "mcp/code_tool/invocation.h"
#include "mcp/transport/json_rpc.h"

namespace codemode::mcp {
namespace {

constexpr std::size_t kMaxDescriptionBytes = 16u << 10;

ProgramOptions program_options(const McpPolicy& policy) {
  ProgramOptions options{.console_log_bytes = policy.console_logs ? policy.console_log_bytes : 0,
                         .final_result_bytes = policy.final_result_bytes,
                         .quota_classes = {},
                         .profile = policy.program_profile};
  for (const QuotaClass& quota : policy.quota_classes) options.quota_classes.push_back(quota.name);
  return options;
}

}  // namespace

struct CodeTool::Shared {
  McpPolicy policy;
  std::vector<Tool> tools;
  std::set<std::string, std::less<>> downstream;  // the ids of downstream servers' tools
  std::vector<CodeMethod> methods;
  std::optional<ProgramTemplate> program;  // set by create; the same for every call
  Permissions grants;
  std::string description;
  std::unique_ptr<CodeMode> mode;
  std::shared_ptr<ServerCapacity> capacity;
  EventLog log;
  std::atomic<std::uint64_t> next_execution = 1;
  InvocationRegistry invocations;
};

namespace {

// One tool call of a program: its quota units reserved, queued for a server-wide slot, a per-call
// budget of the tool's declared cost, then a downstream tool's content blocks kept as handles
// (content_handles.h) and the result's bytes charged before the worker sees anything
// (invocation_budget.h).
ToolOutcome broker_call(CodeTool::Shared& shared, const Tool& tool, const Json& input,
                        const BrokerContext& context);

}  // namespace

Result<std::unique_ptr<CodeTool>> CodeTool::create(const ToolCatalog& catalog, McpPolicy policy,
                                                   std::shared_ptr<SandboxAdapter> adapter,
                                                   std::shared_ptr<ServerCapacity> capacity,
                                                   EventLog log) {
  auto shared = std::make_shared<Shared>();
  shared->policy = std::move(policy);
  shared->capacity = std::move(capacity);
  shared->log = std::move(log);
  shared->tools = catalog.tools();
  for (const Tool& tool : shared->tools) {
    const CatalogEntry* entry = catalog.find(tool.id());
    if (entry && entry->origin == ToolOrigin::kDownstream) shared->downstream.insert(tool.id());
  }
  if (shared->tools.size() > kMaxProgramTools) {
    return Error::invalid_config("mcp_config",
                                 "Code mode serves at most 128 tools; the config declares more.");
  }
  Result<std::vector<CodeMethod>> methods = code_methods(shared->tools);
  if (!methods.ok()) return std::move(methods).error();
  shared->methods = std::move(*methods);
  shared->program.emplace(shared->methods, program_options(shared->policy));
  for (const Tool& tool : shared->tools) {
    for (std::string& grant : required_grants(tool))
      shared->grants.allow.push_back(std::move(grant));
  }
  Result<std::string> description = describe_code_tool(
      shared->methods, shared->tools, kMaxDescriptionBytes,
      {.console_logs = shared->policy.console_logs,
       .content_handles = !shared->downstream.empty() && shared->policy.content_blocks > 0,
       .profile = shared->policy.program_profile});
  if (!description.ok()) return std::move(description).error();
  shared->description = std::move(*description);
  Shared* raw = shared.get();  // the CodeMode is owned by *raw, so the broker never outlives it
  Result<std::unique_ptr<CodeMode>> mode = CodeMode::create(
      {.adapter = std::move(adapter),
       .invoke_tool =
           [raw](const Tool& tool, const Json& input, const BrokerContext& context) {
             return broker_call(*raw, tool, input, context);
           },
       // By default a program cannot hide a call that may have acted (docs/mcp.md): its result
       // is discarded and the client hears which call it was.
       .unknown_outcomes = shared->policy.unknown_outcomes});
  if (!mode.ok()) return std::move(mode).error();
  shared->mode = std::move(*mode);
  return std::unique_ptr<CodeTool>(new CodeTool(std::move(shared)));
}

CodeTool::~CodeTool() = default;

Json CodeTool::listing() const {
  return Json{{"name", "code"},
              {"description", shared_->description},
              {"inputSchema",
               {{"type", "object"},
                {"additionalProperties", false},
                {"required", {"code"}},
                {"properties",
                 {{"code",
                   {{"type", "string"},
                    // Characters, where the budget counts UTF-8 bytes: a hint, not the check.
                    {"maxLength", shared_->policy.source_bytes},
                    {"description",
                     shared_->policy.program_profile == ProgramProfile::kModel
                         ? "An async function body (or a function expression), in JavaScript "
                           "or TypeScript. Return one JSON value."
                         : "An async JavaScript function body (or a function expression). "
                           "Return one JSON value."}}}}}}}};
}

namespace {

// A call refused before dispatch: its receipt says it never started, so the executor counts it
// as known (a call without a receipt would be unknown and discard the program's result).
ToolOutcome not_started(Error error, const Tool& tool, const BrokerContext& context) {
  return ToolOutcome::failed(std::move(error),
                             ExecutionReceipt{.call_id = context.call_id,
                                              .tool_id = tool.id(),
                                              .execution = ExecutionState::kNotStarted});
}

// A successful outcome as the program will see it: a downstream tool's content blocks held as
// handles, then its bytes charged; refused whole (nothing held, nothing charged) otherwise.
ToolOutcome delivered(Invocation& invocation, bool downstream, ToolOutcome outcome) {
  if (downstream) {
    Result<Json> shown = invocation.contents.hold(std::move(*outcome.output));
    if (!shown.ok()) return ToolOutcome::failed(std::move(shown).error(), outcome.receipt);
    outcome.output = std::move(*shown);
  }
  if (Status charged = invocation.budget.charge_result(*outcome.output); !charged.ok()) {
    invocation.contents.release(*outcome.output);
    return ToolOutcome::failed(std::move(charged).error(), outcome.receipt);
  }
  return outcome;
}

ToolOutcome broker_call(CodeTool::Shared& shared, const Tool& tool, const Json& input,
                        const BrokerContext& context) {
  const std::shared_ptr<Invocation> invocation = shared.invocations.find(context.execution_id);
  if (!invocation) {
    return not_started(
        Error::tool_failed("invocation_unknown", "The call belongs to no running invocation."),
        tool, context);
  }
  if (Status units = invocation->budget.reserve_units(tool.id()); !units.ok()) {
    return not_started(std::move(units).error(), tool, context);
  }
  Result<std::unique_ptr<ServerCapacity::HostOperation>> slot =
      shared.capacity->wait_for_host_operation(context.stop_token);
  if (!slot.ok()) return not_started(std::move(slot).error(), tool, context);
  std::shared_ptr<Budget> budget =
      Budget::create({.max_cost_micros = tool.cost_micros(), .max_calls = 1}).value();
  // A downstream answer is bounded by the message cap alone here: its blocks leave it before
  // hostResultBytes and the worker's output cap measure what remains.
  const bool downstream = shared.downstream.contains(tool.id());
  BrokerContext widened = context;
  if (downstream) widened.max_output_bytes = std::max(context.max_output_bytes, kMaxMessageBytes);
  ToolOutcome outcome =
      standard_broker({.permissions = shared.grants, .budget = budget})(tool, input, widened);
  if (!outcome.ok()) return outcome;
  return delivered(*invocation, downstream, std::move(outcome));
}

// The program's limits under `policy`: its output is the envelope of code_prelude.h (the result,
// the logs, a thrown message), so it may take finalResultBytes + consoleLogBytes + the envelope's
// own bytes; finalResultBytes itself is checked on the result alone (code_result.h). The output
// cap also bounds each tool output that crosses into the worker. hostCalls below hostConcurrency
// lowers the concurrency to it.
CodeLimits program_limits(const McpPolicy& policy) {
  const std::int64_t logs = policy.console_logs ? policy.console_log_bytes : 0;
  return {.cpu_millis = policy.wall_time_millis,
          .wall_time_millis = policy.wall_time_millis,
          .memory_bytes = policy.heap_bytes,
          .scratch_bytes = 1,
          .max_input_bytes = 1024,
          .max_output_bytes =
              std::max(policy.host_result_bytes, policy.final_result_bytes + logs) + kEnvelopeBytes,
          .max_tool_input_bytes = policy.host_result_bytes,
          .max_tool_calls = policy.host_calls,
          // A program may not allow more calls at once than in all (program.h).
          .max_tool_concurrency = std::min(policy.host_concurrency, policy.host_calls)};
}

}  // namespace

Json CodeTool::call(const Json& arguments, std::stop_token stop) {
  const McpPolicy& policy = shared_->policy;
  if (!arguments.contains("code") || !arguments.at("code").is_string()) {
    return tool_error_result(codes::kInvalidArguments, "code must be a string");
  }
  // The text as sent is measured, before a fence or blank space is taken off: what the client
  // sent is what the budget bounds.
  const std::string& sent = arguments.at("code").get_ref<const std::string&>();
  if (static_cast<std::int64_t>(sent.size()) > policy.source_bytes) {
    return tool_error_result(rules::kSourceBytesLimit, "JavaScript source exceeds the byte budget");
  }
  const bool model = policy.program_profile == ProgramProfile::kModel;
  const CodeInput code = model ? unfence_code_input(sent) : normalize_code_input(sent);
  const std::shared_ptr<ServerCapacity::Slot> worker = shared_->capacity->try_start_worker();
  if (!worker) {
    return tool_error_result(codes::kServerWorkersLimit, "server worker capacity is exhausted");
  }
  Result<CodeProgram> program =
      define_code_program({.id = "mcp-code",
                           .version = "1",
                           .intent = "One invocation of the MCP code tool.",
                           .language = ProgramLanguage::kJavaScript,
                           .profile = policy.program_profile,
                           .source = shared_->program->source(code),
                           .input = Schema::any(),
                           .output = Schema::any(),
                           .input_schema_id = "any",
                           .output_schema_id = "any",
                           .tools = shared_->tools,
                           .limits = program_limits(policy)});
  if (!program.ok()) return tool_error_result(codes::kCodeRejected, program.error().message);
  const std::string number = std::to_string(shared_->next_execution++);
  const std::string execution = "mcp-code:" + number;
  // The handles' tag: random, so that it says nothing of other sessions' calls; the number alone
  // (unique for the server's life) where the kernel gives no randomness.
  const std::string tag = internal::random_hex(6);
  const auto invocation = std::make_shared<Invocation>(policy, tag.empty() ? number : tag);
  const InvocationRegistry::Registration registration =
      shared_->invocations.add(execution, invocation);
  const CodeExecutionOutcome outcome =
      shared_->mode->execute(*program, Json(nullptr),
                             {.run_id = "mcp",
                              .execution_id = execution,
                              .scope = {.principal_id = "mcp-client", .project_id = "mcp"},
                              .stop_token = stop});
  if (std::optional<Json> event =
          worker_diagnostics_event(execution, shared_->mode->adapter().id(), outcome)) {
    shared_->log(*event);
  }
  if (!outcome.ok()) return execution_failure(outcome, policy);
  return with_returned_content(code_result(*outcome.output, policy, outcome.logs),
                               invocation->contents);
}

}  // namespace codemode::mcp
