// define_durable_workflow's checks, and what a definition's identity covers.
#include <gtest/gtest.h>

#include "codemode/workflow.h"

#include "workflow/durable_fixture.h"

namespace codemode::testing {
namespace {

class WorkflowDefinitionTest : public ::testing::Test {
 protected:
  Tool write_ = external_write_tool("/dev/null");
  CodeProgram program_ = write_program(write_);
};

TEST_F(WorkflowDefinitionTest, RefusesAPhaseThatCouldMakeMoreCallsThanTheAuditHolds) {
  CodeProgramOptions options{.id = "many",
                             .version = "1",
                             .intent = "Too many calls.",
                             .source = "async () => ({value: 1})",
                             .input = value_object_schema(),
                             .output = value_object_schema(),
                             .input_schema_id = "value.v1",
                             .output_schema_id = "value.v1",
                             .tools = {write_},
                             .limits = durable_limits()};
  options.limits.max_tool_calls = 65;
  Result<DurableWorkflow> refused =
      define_durable_workflow(one_phase_options(define_code_program(options).value()));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kLimitExceeded);
  EXPECT_EQ(refused.error().message, "Durable phases support at most 64 auditable nested calls.");
  options.limits.max_tool_calls = 64;
  EXPECT_TRUE(
      define_durable_workflow(one_phase_options(define_code_program(options).value())).ok());
}

// A tool of `effects` under the namespaced id `id`, never called.
Tool tool_with(const std::string& id, ToolEffects effects) {
  return define_tool({.id = id,
                      .version = "1",
                      .description = "A nested tool.",
                      .input = value_object_schema(),
                      .output = value_object_schema(),
                      .effects = effects,
                      .cost_micros = 1,
                      .execute = [](const Json&, const ToolContext&,
                                    ToolResponder respond) { respond.refuse(); }})
      .value();
}

// The phase tool's effects are the strongest of all its program's nested tools (none < read <
// write < host), wherever in the list it is and however deep its namespace.
TEST_F(WorkflowDefinitionTest, APhaseHasTheStrongestEffectOfAllItsNestedTools) {
  const Tool none = tool_with("audit.log", ToolEffects::kNone);
  const Tool read = tool_with("catalog.items.price.read", ToolEffects::kRead);
  const Tool write = tool_with("crm/accounts.notes.append", ToolEffects::kWrite);
  const Tool host = tool_with("ops.deploy.hosts.restart", ToolEffects::kHost);
  const auto effects_of = [](std::vector<Tool> tools) {
    CodeProgramOptions options{.id = "several",
                               .version = "1",
                               .intent = "Several nested tools.",
                               .source = "async () => ({value: 1})",
                               .input = value_object_schema(),
                               .output = value_object_schema(),
                               .input_schema_id = "value.v1",
                               .output_schema_id = "value.v1",
                               .tools = std::move(tools),
                               .limits = durable_limits()};
    const DurableWorkflow workflow =
        define_durable_workflow(one_phase_options(define_code_program(options).value())).value();
    return workflow.phases().at(0).tool.effects();
  };
  EXPECT_EQ(effects_of({none, read, write, host}), ToolEffects::kHost);
  EXPECT_EQ(effects_of({host, write, read, none}), ToolEffects::kHost);
  EXPECT_EQ(effects_of({read, host, none, write}), ToolEffects::kHost);
  EXPECT_EQ(effects_of({write, none, read}), ToolEffects::kWrite);
  EXPECT_EQ(effects_of({none, write, read}), ToolEffects::kWrite);
  EXPECT_EQ(effects_of({read, none}), ToolEffects::kRead);
  EXPECT_EQ(effects_of({none, read}), ToolEffects::kRead);
  EXPECT_EQ(effects_of({none, tool_with("audit.metrics.count", ToolEffects::kNone)}),
            ToolEffects::kNone);
  EXPECT_EQ(effects_of({}), ToolEffects::kNone);
}

TEST_F(WorkflowDefinitionTest, RefusesMalformedPhasesAndBindings) {
  auto with = [&](auto change) {
    DurableWorkflowOptions options = one_phase_options(program_);
    change(options);
    return define_durable_workflow(std::move(options));
  };
  EXPECT_EQ(with([](auto& o) { o.phases.clear(); }).error().rule, "workflow_definition");
  EXPECT_EQ(
      with([&](auto& o) { o.phases.assign(129, {.id = "p", .program = program_}); }).error().rule,
      "workflow_definition");
  for (const char* id : {"__proto__", "constructor", "prototype", "1st", "a/b", "a:b", ""}) {
    EXPECT_EQ(with([&](auto& o) { o.phases[0].id = id; }).error().code, ErrorCode::kInvalidConfig)
        << id;
  }
  EXPECT_EQ(with([&](auto& o) { o.phases.push_back(o.phases[0]); }).error().code,
            ErrorCode::kConflict);
  EXPECT_EQ(with([](auto& o) { o.phases[0].depends_on = {"later"}; }).error().code,
            ErrorCode::kInvalidConfig);
  EXPECT_EQ(with([](auto& o) { o.phases[0].input = WorkflowBinding::phase_output("update"); })
                .error()
                .code,
            ErrorCode::kInvalidConfig);
  EXPECT_EQ(with([](auto& o) { o.result = WorkflowBinding::phase_output("nowhere"); }).error().code,
            ErrorCode::kInvalidConfig);
  EXPECT_EQ(with([](auto& o) { o.audit_scope.project_id.clear(); }).error().rule, "audit_scope");
  EXPECT_EQ(with([](auto& o) { o.audit_scope.principal_id = std::string(257, 'p'); }).error().rule,
            "audit_scope");
  EXPECT_EQ(with([](auto& o) { o.id = "not an id"; }).error().rule, "workflow_definition");
  EXPECT_EQ(with([](auto& o) { o.version = "  "; }).error().rule, "workflow_definition");
}

TEST_F(WorkflowDefinitionTest, TheDigestCoversTheProgramsTheScopeAndTheBindings) {
  const std::string base = define_durable_workflow(one_phase_options(program_)).value().digest();
  EXPECT_EQ(base, define_durable_workflow(one_phase_options(program_)).value().digest());
  const CodeProgram edited = write_program(
      write_,
      "async (input, tools) => { await tools.call('external.write', input); return input; }");
  EXPECT_NE(base, define_durable_workflow(one_phase_options(edited)).value().digest());
  EXPECT_NE(base, define_durable_workflow(one_phase_options(program_, mallory())).value().digest());
  DurableWorkflowOptions bound = one_phase_options(program_);
  bound.phases[0].input = WorkflowBinding::workflow_input({"value"});
  EXPECT_NE(base, define_durable_workflow(bound).value().digest());
}

TEST_F(WorkflowDefinitionTest, BindingsReadBackFromTheirJson) {
  const WorkflowBinding binding =
      WorkflowBinding::phase_output("price", {"items", std::size_t{2}, "cents"});
  EXPECT_EQ(binding.to_json(),
            Json::parse(R"({"kind":"phase","phaseId":"price","path":["items",2,"cents"]})"));
  EXPECT_EQ(WorkflowBinding::from_json(binding.to_json()).value(), binding);
  EXPECT_EQ(WorkflowBinding::from_json(Json::parse(R"({"kind":"input","path":[]})")).value(),
            WorkflowBinding());
  for (const char* bad :
       {R"({"kind":"input"})", R"({"kind":"input","path":[-1]})",
        R"({"kind":"input","path":[],"extra":1})", R"({"kind":"phase","path":[]})",
        R"({"kind":"other","path":[]})", R"([])"}) {
    EXPECT_EQ(WorkflowBinding::from_json(Json::parse(bad)).error().rule, "workflow_binding") << bad;
  }
}

}  // namespace
}  // namespace codemode::testing
