// The durable-workflow fixture (docs/workflows.md, "Tests" and the worked numbers): a one-phase
// workflow whose program calls a write tool that costs 3, under limits {cpu 100, wall 2000, calls
// 2, conc 1}, so the phase reserves 3 x 2 = 6. Shared by the runtime tests and the crash runtime
// they kill.
#ifndef CODEMODE_TESTS_WORKFLOW_DURABLE_FIXTURE_H_
#define CODEMODE_TESTS_WORKFLOW_DURABLE_FIXTURE_H_

#include <atomic>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "codemode/code_mode.h"
#include "codemode/process_adapter.h"
#include "codemode/workflow.h"
#include "codemode/workflow_runtime.h"

#include "support/adapter_options.h"
#include "support/process_support.h"

namespace codemode::testing {

inline Scope alice() { return Scope{.principal_id = "alice", .project_id = "demo"}; }
inline Scope mallory() { return Scope{.principal_id = "mallory", .project_id = "demo"}; }

inline CodeLimits durable_limits() {
  return CodeLimits{.cpu_millis = 100,
                    .wall_time_millis = 2000,
                    .memory_bytes = 32 * 1024 * 1024,
                    .scratch_bytes = 1024,
                    .max_input_bytes = 1024,
                    .max_output_bytes = 1024,
                    .max_tool_input_bytes = 1024,
                    .max_tool_calls = 2,
                    .max_tool_concurrency = 1};
}

inline Schema value_object_schema() {
  return Schema::compile(Json::parse(R"({"type":"object","properties":{"value":{"type":"number"}},
                                         "required":["value"],"additionalProperties":false})"))
      .value();
}

// external.write: appends one line to `effects_file` (the effect, made durable before it answers)
// and answers {value}; cost 3, effects write. `after_effect` runs once the effect is on disk;
// `binding` is what an approval binds of it (ToolBinding).
inline Tool external_write_tool(std::string effects_file,
                                std::function<void()> after_effect = nullptr,
                                ToolBinding binding = {}) {
  return define_tool({.id = "external.write",
                      .version = "1",
                      .description = "Writes a value somewhere outside.",
                      .input = value_object_schema(),
                      .output = value_object_schema(),
                      .effects = ToolEffects::kWrite,
                      .cost_micros = 3,
                      .execute =
                          [effects_file, after_effect](const Json& input, const ToolContext&,
                                                       ToolResponder respond) {
                            int fd = ::open(effects_file.c_str(),
                                            O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
                            std::string line = input.dump() + "\n";
                            bool written = fd >= 0 &&
                                           ::write(fd, line.data(), line.size()) ==
                                               static_cast<ssize_t>(line.size()) &&
                                           ::fsync(fd) == 0;
                            if (fd >= 0) ::close(fd);
                            if (after_effect) after_effect();
                            if (written) {
                              respond.succeed(input);
                            } else {
                              respond.fail();
                            }
                          },
                      .binding = std::move(binding)})
      .value();
}

// How many effects external.write made, across every process.
inline int effects_made(const std::string& effects_file) {
  std::ifstream file(effects_file);
  int lines = 0;
  for (std::string line; std::getline(file, line);) ++lines;
  return lines;
}

// The phase program: one write, then {value}. `source` replaces it.
inline CodeProgram write_program(const Tool& write, std::string source = {}) {
  if (source.empty()) {
    source =
        "async (input, tools) => { const r = await tools.call('external.write', input); "
        "return { value: r.output.value }; }";
  }
  return define_code_program({.id = "external.update",
                              .version = "1",
                              .intent = "Write the value outside and return it.",
                              .language = ProgramLanguage::kJavaScript,
                              .source = std::move(source),
                              .input = value_object_schema(),
                              .output = value_object_schema(),
                              .input_schema_id = "value.v1",
                              .output_schema_id = "value.v1",
                              .tools = {write},
                              .limits = durable_limits()})
      .value();
}

inline DurableWorkflowOptions one_phase_options(const CodeProgram& program,
                                                Scope audit_scope = alice()) {
  return DurableWorkflowOptions{.id = "external.workflow",
                                .version = "1",
                                .input = value_object_schema(),
                                .output = value_object_schema(),
                                .audit_scope = std::move(audit_scope),
                                .phases = {{.id = "update", .program = program}},
                                .result = WorkflowBinding::phase_output("update")};
}

// The runtime's grants for `workflow`: every phase tool's, and the nested tools' (the nested
// broker has its own).
inline Permissions grants_for(const DurableWorkflow& workflow) {
  Permissions permissions;
  for (const DurableWorkflow::Phase& phase : workflow.phases()) {
    for (const std::string& grant : required_grants(phase.tool)) {
      permissions.allow.push_back(grant);
    }
  }
  return permissions;
}

// A verify hook that knows one approver, "reviewer" of project demo, by the credential
// "reviewer-token"; "viewer-token" is a person who may not approve.
inline VerifyPerson reviewer_hook() {
  return [](std::string_view credential) -> Result<Person> {
    if (credential == "reviewer-token") {
      return Person{.id = "reviewer", .project_id = "demo", .can_approve = true};
    }
    if (credential == "viewer-token") {
      return Person{.id = "viewer", .project_id = "demo", .can_approve = false};
    }
    return Error::permission_denied("credential", "Unknown credential.");
  };
}

// Counts executions of the adapter it wraps (instrumentation around the real process adapter).
class CountingAdapter final : public SandboxAdapter {
 public:
  explicit CountingAdapter(std::shared_ptr<SandboxAdapter> inner) : inner_(std::move(inner)) {}
  std::string id() const override { return inner_->id(); }
  std::string version() const override { return inner_->version(); }
  AdapterQualification qualification() const override { return inner_->qualification(); }
  bool is_available() override { return inner_->is_available(); }
  SandboxResult execute(const SandboxRequest& request, ToolBridge& tools,
                        std::stop_token stop) override {
    ++executions;
    return inner_->execute(request, tools, std::move(stop));
  }
  std::atomic<int> executions{0};

 private:
  std::shared_ptr<SandboxAdapter> inner_;
};

// A CodeMode over the real worker whose nested broker has the nested grants and a budget of
// `calls` writes: cost 3 x calls, at most `calls` calls (one write by default).
inline std::shared_ptr<CodeMode> nested_code_mode(std::shared_ptr<SandboxAdapter> adapter,
                                                  const Tool& write, std::int64_t calls = 1) {
  Permissions nested;
  nested.allow = required_grants(write);
  return std::shared_ptr<CodeMode>(
      CodeMode::create(
          {.adapter = std::move(adapter),
           .invoke_tool = standard_broker(
               {.permissions = nested,
                .budget =
                    Budget::create({.max_cost_micros = 3 * calls, .max_calls = calls}).value()})})
          .value());
}

// nested_code_mode over the real worker, through the process adapter the tests' environment names.
inline std::shared_ptr<CodeMode> worker_code_mode(const Tool& write, std::int64_t calls = 1) {
  return nested_code_mode(make_process_adapter(adapter_options(*worker_binary())), write, calls);
}

inline WorkflowRuntimeOptions runtime_options(std::shared_ptr<WorkflowStore> store,
                                              std::shared_ptr<CodeMode> mode,
                                              const DurableWorkflow& workflow,
                                              Scope scope = alice()) {
  return WorkflowRuntimeOptions{.store = std::move(store),
                                .code_mode = std::move(mode),
                                .scope = std::move(scope),
                                .permissions = grants_for(workflow),
                                .max_cost_micros = 6,
                                // Long enough that a phase killed mid-way is still the dead
                                // runtime's however slow the machine; the crash tests recover
                                // with a clock an hour ahead.
                                .lease = std::chrono::minutes(1),
                                .verify_person = reviewer_hook(),
                                .approvers = {"reviewer"},
                                .workflows = {workflow}};
}

}  // namespace codemode::testing

#endif  // CODEMODE_TESTS_WORKFLOW_DURABLE_FIXTURE_H_
