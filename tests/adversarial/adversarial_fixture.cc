#include "adversarial_fixture.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <stdexcept>

#include <dirent.h>
#include <unistd.h>

#include "codemode/budget.h"
#include "codemode/command_tool.h"
#include "codemode/process_adapter.h"

#include "support/adapter_options.h"
#include "support/process_support.h"
#include "tools/program/code_limit_fields.h"

namespace codemode::testing {
namespace {

using namespace std::chrono_literals;

Tool make_tool(std::string id, ToolEffects effects, ToolExecuteFn execute) {
  return define_tool({.id = std::move(id),
                      .version = "1",
                      .description = "A tool of the adversarial suite.",
                      .input = Schema::any(),
                      .output = Schema::any(),
                      .effects = effects,
                      .timeout = 4s,
                      .execute = std::move(execute)})
      .value();
}

// Waits `duration` or until the call is stopped; true when it waited the whole time.
bool sleep_unless_stopped(std::chrono::milliseconds duration, std::stop_token stop) {
  std::mutex mutex;
  std::condition_variable_any wake;
  std::unique_lock lock(mutex);
  return !wake.wait_for(lock, stop, duration, [] { return false; });
}

std::int64_t int_field(const Json& input, const char* name, std::int64_t most) {
  if (!input.is_object() || !input.contains(name) || !input[name].is_number_integer()) return 0;
  return std::clamp<std::int64_t>(input[name].get<std::int64_t>(), 0, most);
}

void answer_slowly(const Json& input, const ToolContext& context, ToolResponder respond) {
  const std::chrono::milliseconds duration{int_field(input, "ms", 10'000)};
  if (sleep_unless_stopped(duration, context.stop_token)) {
    respond.succeed({{"slept", duration.count()}});
  }
}

Json nested(std::int64_t depth) {
  Json value = Json::array();
  for (std::int64_t i = 1; i < depth; ++i) value = Json::array({std::move(value)});
  return value;
}

Tool leaky_command_tool() {
  const Json tools_json = {
      {"tools",
       {{{"id", "test.leaky_cmd"},
         {"version", "1"},
         {"description", "Fails, printing a secret."},
         {"effects", "read"},
         {"timeoutMs", 4000},
         {"command",
          {std::string(CODEMODE_SOURCE_DIR) + "/tests/adversarial/tools/leaky.sh",
           kSecretToken}}}}}};
  return load_command_tools(tools_json).value().front();
}

Permissions grants_for(const std::vector<Tool>& tools) {
  Permissions permissions;
  for (const Tool& tool : tools) permissions.allow.push_back("tool:" + tool.id());
  permissions.allow.insert(permissions.allow.end(), {"effect:read", "effect:write"});
  return permissions;
}

}  // namespace

std::vector<Tool> adversarial_tools() {
  static const std::vector<Tool> tools = {
      make_tool("test.echo", ToolEffects::kNone,
                [](const Json& input, const ToolContext&, ToolResponder respond) {
                  respond.succeed(input);
                }),
      make_tool("test.slow", ToolEffects::kNone, answer_slowly),
      make_tool("test.bytes", ToolEffects::kNone,
                [](const Json& input, const ToolContext&, ToolResponder respond) {
                  const auto size = static_cast<std::size_t>(int_field(input, "n", 64 << 20));
                  respond.succeed({{"text", std::string(size, 'x')}});
                }),
      make_tool("test.deep", ToolEffects::kNone,
                [](const Json& input, const ToolContext&, ToolResponder respond) {
                  respond.succeed(nested(int_field(input, "depth", 10'000)));
                }),
      make_tool("test.leaky", ToolEffects::kRead,
                [](const Json&, const ToolContext&, ToolResponder) {
                  throw std::runtime_error(std::string("GITHUB_TOKEN=") + kSecretToken + " at " +
                                           kSecretPath + "/cache.git");
                }),
      leaky_command_tool(),
      make_tool("test.never", ToolEffects::kWrite,
                [](const Json&, const ToolContext& context, ToolResponder) {
                  sleep_unless_stopped(1h, context.stop_token);
                }),
  };
  return tools;
}

Result<CodeLimits> adversarial_limits(const std::map<std::string, std::int64_t>& overrides) {
  CodeLimits limits{.cpu_millis = 1'000,
                    .wall_time_millis = 5'000,
                    .memory_bytes = 64 << 20,
                    .scratch_bytes = 1'024,
                    .max_input_bytes = 64 << 10,
                    .max_output_bytes = 64 << 10,
                    .max_tool_input_bytes = 16 << 10,
                    .max_tool_calls = 16,
                    .max_tool_concurrency = 4};
  for (const auto& [name, value] : overrides) {
    const auto* field =
        std::find_if(internal::kCodeLimitFields.begin(), internal::kCodeLimitFields.end(),
                     [&](const auto& f) { return f.name == name; });
    if (field == internal::kCodeLimitFields.end()) {
      return Error::invalid_config("limits", "unknown limit " + name);
    }
    limits.*(field->member) = value;
  }
  return limits;
}

Result<CodeProgram> adversarial_program(const std::string& source, const CodeLimits& limits) {
  return define_code_program({.id = "adversarial.case",
                              .version = "1",
                              .intent = "Try to get out of the sandbox.",
                              .source = source,
                              .input = Schema::any(),
                              .output = Schema::any(),
                              .input_schema_id = "any",
                              .output_schema_id = "any",
                              .tools = adversarial_tools(),
                              .limits = limits});
}

std::unique_ptr<CodeMode> adversarial_mode_with(std::shared_ptr<SandboxAdapter> adapter) {
  // The host's environment holds the secret too; the worker and command tools get none of it.
  setenv("CODEMODE_ADVERSARIAL_TOKEN", kSecretToken, 1);
  auto budget = Budget::create({.max_cost_micros = 0, .max_calls = 1'000'000}).value();
  return CodeMode::create({.adapter = std::move(adapter),
                           .invoke_tool = standard_broker(
                               {.permissions = grants_for(adversarial_tools()), .budget = budget})})
      .value();
}

CodeMode& adversarial_mode() {
  static CodeMode* const mode =
      adversarial_mode_with(make_process_adapter(adapter_options(CODEMODE_WORKER_BINARY)))
          .release();
  return *mode;
}

ExecuteOptions adversarial_execute_options() {
  static std::atomic<int> next{0};
  return ExecuteOptions{.run_id = "adversarial",
                        .execution_id = "adversarial-" + std::to_string(++next),
                        .scope = {.principal_id = "attacker", .project_id = "adversarial"}};
}

std::vector<int> child_processes() {
  std::vector<int> children;
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return children;
  while (const dirent* entry = readdir(proc)) {
    const int pid = std::atoi(entry->d_name);
    if (pid <= 0) continue;
    // A process may exit while it is read: getline then fails quietly, where an
    // istreambuf_iterator would throw.
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) continue;
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    const auto close = text.rfind(')');
    if (close == std::string::npos) continue;
    char state = 0;
    int ppid = 0;
    if (std::sscanf(text.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid() &&
        !is_fork_server(pid)) {
      children.push_back(pid);
    }
  }
  closedir(proc);
  return children;
}

}  // namespace codemode::testing
