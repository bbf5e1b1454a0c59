#include "perf/codemode_subject.h"

#include <cstdint>
#include <limits>
#include <utility>

namespace codemode::perf {
namespace {

Result<CodeProgram> define_program(const Workload& workload, const BenchTools& tools) {
  return define_code_program({.id = "bench." + workload.name,
                              .version = "1",
                              .intent = workload.description,
                              .source = workload.source,
                              .input = Schema::any(),
                              .output = Schema::any(),
                              .input_schema_id = "bench.any",
                              .output_schema_id = "bench.any",
                              .tools = all_tools(tools),
                              .limits = workload.limits});
}

// One budget for every execution of the run, large enough never to refuse: the bench measures the
// broker's bookkeeping, not a budget running out.
Result<ToolBroker> make_broker(const BenchTools& tools) {
  constexpr std::int64_t kUnbounded = (std::int64_t{1} << 53) - 1;
  Result<std::shared_ptr<Budget>> budget =
      Budget::create({.max_cost_micros = kUnbounded, .max_calls = kUnbounded});
  if (!budget.ok()) return budget.error();
  return standard_broker(
      {.permissions = bench_permissions(tools), .budget = std::move(budget).value()});
}

}  // namespace

std::string to_string(SpawnMode spawn) {
  return spawn == SpawnMode::kForkServer ? "fork_server" : "exec";
}

std::string to_string(IsolationProfile isolation) {
  return isolation == IsolationProfile::kIsolated ? "isolated" : "process";
}

Result<std::unique_ptr<CodeModeSubject>> CodeModeSubject::create(
    std::shared_ptr<SandboxAdapter> adapter, const std::vector<Workload>& workloads,
    bool inline_calls) {
  if (!adapter->is_available()) {
    return Error::unsupported_profile(
        "adapter_unavailable",
        "The " + adapter->id() + " adapter is not available on this host for this profile.");
  }
  Result<BenchTools> tools = make_bench_tools();
  if (!tools.ok()) return tools.error();
  Result<ToolBroker> broker = make_broker(*tools);
  if (!broker.ok()) return broker.error();
  std::unique_ptr<CodeModeSubject> subject(new CodeModeSubject());
  for (const Workload& workload : workloads) {
    if (!subject->supports(workload)) continue;
    Result<CodeProgram> program = define_program(workload, *tools);
    if (!program.ok()) return program.error();
    subject->programs_.emplace(workload.name, std::move(program).value());
  }
  Result<std::unique_ptr<CodeMode>> mode =
      CodeMode::create({.adapter = std::move(adapter),
                        .invoke_tool = subject->timeline_.wrap(*broker),
                        .run_non_blocking_tools_inline = inline_calls});
  if (!mode.ok()) return mode.error();
  subject->mode_ = std::move(mode).value();
  return subject;
}

ExecutionResult CodeModeSubject::run(const Workload& workload, std::size_t sequence) {
  const std::string id = "bench-" + std::to_string(sequence);
  CodeExecutionOutcome outcome =
      mode_->execute(programs_.at(workload.name), workload.input,
                     {.run_id = "bench",
                      .execution_id = id,
                      .scope = {.principal_id = "bench", .project_id = "bench"}});
  std::optional<double> span = timeline_.take_span_micros(id);
  if (!outcome.ok()) {
    return {.succeeded = false, .failure = to_json(outcome).dump().substr(0, 300)};
  }
  ExecutionResult result = judge_output(workload, *outcome.output);
  result.call_span_micros = span;
  return result;
}

}  // namespace codemode::perf
