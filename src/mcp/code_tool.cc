#include "mcp/code_tool.h"

#include <utility>

#include "codemode/budget.h"
#include "codemode/process_adapter.h"

#include "mcp/tool_results.h"

namespace codemode::mcp {
namespace {

constexpr std::size_t kMaxDescriptionBytes = 16u << 10;
constexpr auto kQueuePoll = std::chrono::milliseconds(20);

}  // namespace

struct CodeTool::Shared {
  McpPolicy policy;
  std::vector<Tool> tools;
  std::vector<CodeMethod> methods;
  Permissions grants;
  std::string description;
  std::unique_ptr<CodeMode> mode;
  std::counting_semaphore<64> host_operations{0};
  std::atomic<std::int64_t> workers = 0;
  std::atomic<std::uint64_t> next_execution = 1;
};

namespace {

// One tool call of a program: queued for a server-wide slot, a per-call budget of the tool's
// declared cost, then the per-call result byte cap before the worker sees anything.
ToolOutcome broker_call(CodeTool::Shared& shared, const Tool& tool, const Json& input,
                        const BrokerContext& context);

}  // namespace

Result<std::unique_ptr<CodeTool>> CodeTool::create(const ToolCatalog& catalog, McpPolicy policy,
                                                   std::string worker_path) {
  auto shared = std::make_shared<Shared>();
  shared->policy = std::move(policy);
  shared->tools = catalog.tools();
  if (shared->tools.size() > kMaxProgramTools) {
    return Error{ErrorCode::kInvalidConfig, "mcp_config",
                 "Code mode serves at most 128 tools; the config declares more."};
  }
  Result<std::vector<CodeMethod>> methods = code_methods(shared->tools);
  if (!methods.ok()) return std::move(methods).error();
  shared->methods = std::move(*methods);
  for (const Tool& tool : shared->tools) {
    for (std::string& grant : required_grants(tool))
      shared->grants.allow.push_back(std::move(grant));
  }
  Result<std::string> description =
      describe_code_tool(shared->methods, shared->tools, kMaxDescriptionBytes);
  if (!description.ok()) return std::move(description).error();
  shared->description = std::move(*description);
  shared->host_operations.release(shared->policy.server_host_operations);
  Shared* raw = shared.get();  // the CodeMode is owned by *raw, so the broker never outlives it
  Result<std::unique_ptr<CodeMode>> mode = create_code_mode(
      {.adapter = make_process_adapter({.worker_path = std::move(worker_path)}),
       .invoke_tool = [raw](const Tool& tool, const Json& input, const BrokerContext& context) {
         return broker_call(*raw, tool, input, context);
       }});
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
                    {"description",
                     "An async JavaScript function body (or a function expression). Return one "
                     "JSON value."}}}}}}}};
}

namespace {

ToolOutcome broker_call(CodeTool::Shared& shared, const Tool& tool, const Json& input,
                        const BrokerContext& context) {
  while (!shared.host_operations.try_acquire_for(kQueuePoll)) {
    if (context.stop_token.stop_requested()) {
      return ToolOutcome::failed(
          Error{ErrorCode::kCancelled, "cancelled", "The call was cancelled."});
    }
  }
  struct Release {
    std::counting_semaphore<64>& semaphore;
    ~Release() { semaphore.release(); }
  } release{shared.host_operations};
  std::shared_ptr<Budget> budget =
      Budget::create({.max_cost_micros = tool.cost_micros(), .max_calls = 1}).value();
  ToolOutcome outcome =
      standard_broker({.permissions = shared.grants, .budget = budget})(tool, input, context);
  if (!outcome.ok()) return outcome;
  Result<std::size_t> bytes = check_json(*outcome.output, {.max_bytes = 64u << 20});
  if (!bytes.ok() || static_cast<std::int64_t>(*bytes) > shared.policy.host_result_bytes) {
    return ToolOutcome::failed(Error{ErrorCode::kLimitExceeded, "host_result_bytes_limit",
                                     "host result exceeds the per-call byte budget"},
                               outcome.receipt);
  }
  return outcome;
}

// A worker slot of the server's; released on destruction.
class WorkerSlot {
 public:
  WorkerSlot(std::atomic<std::int64_t>& workers, std::int64_t cap) : workers_(workers) {
    held_ = workers_.fetch_add(1) < cap;
    if (!held_) workers_.fetch_sub(1);
  }
  ~WorkerSlot() {
    if (held_) workers_.fetch_sub(1);
  }
  bool held() const { return held_; }

 private:
  std::atomic<std::int64_t>& workers_;
  bool held_ = false;
};

std::string code_of(const Error& error) {
  if (error.rule == "wall_time_limit" || error.rule == "cpu_limit") return "deadline_exceeded";
  if (error.rule == "program_error") return "code_rejected";
  return error.rule;
}

Json failure(const CodeExecutionOutcome& outcome) {
  const Error& error = *outcome.error;
  // What the program threw is the model's own text (never host data): returned as is.
  if (error.rule == "program_error" && outcome.program_error) {
    return tool_error_result("code_rejected", outcome.program_error->message);
  }
  return tool_error_result(code_of(error), error.message);
}

}  // namespace

Json CodeTool::call(const Json& arguments, std::stop_token stop) {
  const McpPolicy& policy = shared_->policy;
  if (!arguments.contains("code") || !arguments.at("code").is_string()) {
    return tool_error_result("invalid_arguments", "code must be a string");
  }
  const CodeInput code = normalize_code_input(arguments.at("code").get<std::string>());
  if (static_cast<std::int64_t>(code.source.size()) > policy.source_bytes) {
    return tool_error_result("source_bytes_limit", "JavaScript source exceeds the byte budget");
  }
  WorkerSlot slot(shared_->workers, policy.server_workers);
  if (!slot.held()) {
    return tool_error_result("server_workers_limit", "server worker capacity is exhausted");
  }
  const std::int64_t output_bytes =
      std::max(policy.host_result_bytes, policy.final_result_bytes) + 64;
  Result<CodeProgram> program =
      define_code_program({.id = "mcp-code",
                           .version = "1",
                           .intent = "One invocation of the MCP code tool.",
                           .language = ProgramLanguage::kJavaScript,
                           .source = wrap_program(code, shared_->methods),
                           .input = Schema::any(),
                           .output = Schema::any(),
                           .input_schema_id = "any",
                           .output_schema_id = "any",
                           .tools = shared_->tools,
                           .limits = {.cpu_millis = policy.wall_time_millis,
                                      .wall_time_millis = policy.wall_time_millis,
                                      .memory_bytes = policy.heap_bytes,
                                      .scratch_bytes = 1,
                                      .max_input_bytes = 1024,
                                      .max_output_bytes = output_bytes,
                                      .max_tool_input_bytes = policy.host_result_bytes,
                                      .max_tool_calls = policy.host_calls,
                                      .max_tool_concurrency = policy.host_concurrency}});
  if (!program.ok()) return tool_error_result("code_rejected", program.error().message);
  const std::string execution = "mcp-code:" + std::to_string(shared_->next_execution++);
  const CodeExecutionOutcome outcome =
      shared_->mode->execute(*program, Json(nullptr),
                             {.run_id = "mcp",
                              .execution_id = execution,
                              .scope = {.principal_id = "mcp-client", .project_id = "mcp"},
                              .stop_token = stop});
  if (!outcome.ok()) return failure(outcome);
  const Json& output = *outcome.output;
  const Json result =
      output.is_object() && output.contains("result") ? output : Json{{"result", nullptr}};
  Result<std::size_t> bytes = check_json(result.at("result"), {.max_bytes = 64u << 20});
  if (!bytes.ok() || static_cast<std::int64_t>(*bytes) > policy.final_result_bytes) {
    return tool_error_result("final_result_bytes_limit",
                             "final JSON is " + std::to_string(bytes.ok() ? *bytes : 0) +
                                 " bytes and exceeds the " +
                                 std::to_string(policy.final_result_bytes) +
                                 "-byte limit; return fewer fields or items");
  }
  return Json{{"content", Json::array({{{"type", "text"}, {"text", json_text(result)}}})},
              {"structuredContent", result},
              {"isError", false}};
}

}  // namespace codemode::mcp
