#include "cli/workflow/workflow_host.h"

#include <utility>

#include "codemode/broker.h"

#include "cli/json_file.h"
#include "cli/workflow/workflow_approver.h"

namespace codemode::cli {
namespace {

// Every grant the phases need, and every grant their nested tools need.
Permissions phase_grants(const DurableWorkflow& workflow) {
  Permissions permissions;
  for (const DurableWorkflow::Phase& phase : workflow.phases()) {
    for (std::string& grant : required_grants(phase.tool)) {
      permissions.allow.push_back(std::move(grant));
    }
  }
  return permissions;
}

Permissions nested_grants(const DurableWorkflow& workflow) {
  Permissions permissions;
  for (const DurableWorkflow::Phase& phase : workflow.phases()) {
    for (const Tool& tool : phase.program.tools()) {
      for (std::string& grant : required_grants(tool)) {
        permissions.allow.push_back(std::move(grant));
      }
    }
  }
  return permissions;
}

// The nested broker: invoke_tool with the nested grants. The money a phase may spend is bounded
// by its reservation in the run's durable ledger and its calls by maxToolCalls, so each call
// gets a budget of exactly its own declared cost.
ToolBroker nested_broker(Permissions permissions) {
  return [permissions = std::move(permissions)](const Tool& tool, const Json& input,
                                                const BrokerContext& context) {
    Result<std::shared_ptr<Budget>> budget =
        Budget::create({.max_cost_micros = tool.cost_micros(), .max_calls = 1});
    if (!budget.ok()) return ToolOutcome::failed(budget.error());
    return invoke_tool(tool, input,
                       {.run_id = context.run_id,
                        .call_id = context.call_id,
                        .scope = context.scope,
                        .stop_token = context.stop_token,
                        .permissions = permissions,
                        .budget = std::move(*budget),
                        .max_input_bytes = context.max_tool_input_bytes,
                        .max_output_bytes = context.max_output_bytes});
  };
}

}  // namespace

Result<std::unique_ptr<WorkflowRuntime>> make_workflow_runtime(const WorkflowFile& file,
                                                               const WorkflowHostOptions& options) {
  Result<std::shared_ptr<WorkflowStore>> store = open_workflow_store(options.store_url);
  if (!store.ok()) return std::move(store).error();
  Result<std::shared_ptr<SandboxAdapter>> adapter =
      options.sandbox_path
          ? load_sandbox_file(*options.sandbox_path, options.worker_path.value_or(""))
          : Result<std::shared_ptr<SandboxAdapter>>(make_process_adapter(
                {.worker_path = options.worker_path.value_or(""), .isolation = options.isolation}));
  if (!adapter.ok()) return std::move(adapter).error();
  Result<std::unique_ptr<CodeMode>> mode = CodeMode::create(
      {.adapter = std::move(*adapter), .invoke_tool = nested_broker(nested_grants(file.workflow))});
  if (!mode.ok()) return std::move(mode).error();
  return WorkflowRuntime::create(
      {.store = std::move(*store),
       .code_mode = std::shared_ptr<CodeMode>(std::move(*mode)),
       .scope = file.scope,
       .permissions = phase_grants(file.workflow),
       .max_cost_micros = file.max_cost_micros,
       .approval_ttl = file.approval_ttl,
       .verify_person = local_account_approver(file.approvers, file.scope.project_id),
       .approvers = file.approvers,
       .approver_keys = file.approver_keys,
       .workflows = {file.workflow}});
}

}  // namespace codemode::cli
