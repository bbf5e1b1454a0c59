#include "cli/run_subcommand.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "codemode/code_mode.h"
#include "codemode/command_tool.h"
#include "codemode/process_adapter.h"

#include "cli/cli_io.h"
#include "cli/cli_limits.h"
#include "cli/json_file.h"

namespace codemode::cli {
namespace {

// Input and tools files: the largest input a program may take, plus room for formatting.
constexpr std::size_t kMaxLimitsFileBytes = 64u << 10;

struct RunSetup {
  CodeProgram program;
  Json input;
};

Result<Json> load_input(const RunArguments& arguments) {
  if (arguments.input_json) {
    return parse_json_argument(*arguments.input_json, kMaxJsonFileBytes, "--input");
  }
  if (!arguments.input_file) return Json(nullptr);
  Result<std::string> text = read_file(*arguments.input_file, kMaxJsonFileBytes, "--input-file");
  if (!text.ok()) return std::move(text).error();
  return parse_json_argument(*text, kMaxJsonFileBytes, "--input-file");
}

Result<std::vector<Tool>> load_tools(const RunArguments& arguments) {
  if (!arguments.tools_path) return std::vector<Tool>();
  Result<JsonFile> file = read_json_file(*arguments.tools_path, "--tools");
  if (!file.ok()) return std::move(file).error();
  return load_command_tools(file->json, {.base_directory = file->directory});
}

Result<CodeLimits> load_limits(const RunArguments& arguments) {
  if (!arguments.limits_path) return default_limits();
  Result<std::string> text = read_file(*arguments.limits_path, kMaxLimitsFileBytes, "--limits");
  if (!text.ok()) return std::move(text).error();
  Result<Json> json = parse_json_argument(*text, kMaxLimitsFileBytes, "--limits");
  if (!json.ok()) return std::move(json).error();
  return apply_limit_overrides(default_limits(), *json);
}

// The file name without its extension, made an identifier: characters outside [A-Za-z0-9._-]
// become '-', and a name that does not start with a letter gets the prefix "program-".
std::string program_id(const std::string& path) {
  std::string id = std::filesystem::path(path).stem().string();
  for (char& c : id) {
    const bool allowed =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
    if (!allowed) c = '-';
  }
  if (id.empty() || !std::isalpha(static_cast<unsigned char>(id[0]))) id = "program-" + id;
  return id.substr(0, 128);
}

ProgramLanguage language_of(const RunArguments& arguments) {
  if (arguments.language) return *arguments.language;
  const std::string extension = std::filesystem::path(arguments.program_path).extension().string();
  return extension == ".ts" || extension == ".mts" ? ProgramLanguage::kTypeScript
                                                   : ProgramLanguage::kJavaScript;
}

Result<CodeProgram> define_program(const RunArguments& arguments, std::vector<Tool> tools,
                                   const CodeLimits& limits) {
  Result<std::string> source = read_file(arguments.program_path, kMaxSourceBytes, "PROGRAM");
  if (!source.ok()) return std::move(source).error();
  Result<CodeProgram> program = define_code_program({.id = program_id(arguments.program_path),
                                                     .version = "1",
                                                     .intent = "Run from the command line.",
                                                     .language = language_of(arguments),
                                                     .profile = arguments.profile,
                                                     .source = std::move(*source),
                                                     .input = Schema::any(),
                                                     .output = Schema::any(),
                                                     .input_schema_id = "any",
                                                     .output_schema_id = "any",
                                                     .tools = std::move(tools),
                                                     .limits = limits});
  if (!program.ok()) return usage_error("PROGRAM: " + program.error().message);
  return program;
}

Result<RunSetup> prepare(const RunArguments& arguments) {
  Result<Json> input = load_input(arguments);
  if (!input.ok()) return std::move(input).error();
  Result<std::vector<Tool>> tools = load_tools(arguments);
  if (!tools.ok()) return std::move(tools).error();
  Result<CodeLimits> limits = load_limits(arguments);
  if (!limits.ok()) return std::move(limits).error();
  Result<CodeProgram> program = define_program(arguments, std::move(*tools), *limits);
  if (!program.ok()) return std::move(program).error();
  return RunSetup{std::move(*program), std::move(*input)};
}

// Every loaded tool may be called: its tool:, capability and effect: grants.
Permissions grants_for(const CodeProgram& program) {
  Permissions permissions;
  for (const Tool& tool : program.tools()) {
    for (std::string& grant : required_grants(tool)) permissions.allow.push_back(std::move(grant));
  }
  return permissions;
}

// Enough money for every call to cost its tool's declared maximum, and exactly maxToolCalls
// calls. The sum saturates at 2^53-1, the most a Budget holds.
Result<std::shared_ptr<Budget>> budget_for(const CodeProgram& program) {
  const std::int64_t calls = program.limits().max_tool_calls;
  std::int64_t money = 0;
  for (const Tool& tool : program.tools()) {
    const bool overflows =
        tool.cost_micros() != 0 && tool.cost_micros() > (kMaxSafeInteger - money) / calls;
    money = overflows ? kMaxSafeInteger : money + tool.cost_micros() * calls;
  }
  return Budget::create({.max_cost_micros = money, .max_calls = calls});
}

// The sandbox of --sandbox FILE (the "sandbox" object of `codemode mcp`'s config, docs/mcp.md),
// or the process adapter of --spawn, --isolation and --engine.
Result<std::shared_ptr<SandboxAdapter>> make_adapter(const RunArguments& arguments) {
  if (!arguments.sandbox_path) {
    return make_process_adapter({.worker_path = arguments.worker_path.value_or(""),
                                 .spawn = arguments.spawn,
                                 .isolation = arguments.isolation,
                                 .engine = arguments.engine});
  }
  return load_sandbox_file(*arguments.sandbox_path, arguments.worker_path.value_or(""));
}

Result<std::unique_ptr<CodeMode>> make_code_mode(const RunArguments& arguments,
                                                 const CodeProgram& program) {
  Result<std::shared_ptr<Budget>> budget = budget_for(program);
  if (!budget.ok()) return std::move(budget).error();
  Result<std::shared_ptr<SandboxAdapter>> adapter = make_adapter(arguments);
  if (!adapter.ok()) return std::move(adapter).error();
  return CodeMode::create(
      {.adapter = std::move(*adapter),
       .invoke_tool = standard_broker({.permissions = grants_for(program), .budget = *budget})});
}

}  // namespace

CLI::App* add_run_subcommand(CLI::App& app, RunArguments& arguments) {
  CLI::App* run = app.add_subcommand(
      "run",
      "Run one JavaScript or TypeScript program, (input, tools) => output, in a fresh confined "
      "worker and print its outcome as one JSON line on stdout: status, output or error {code, "
      "rule, message}, programError {name, message, line, column, sourceLine}, logs, usage. Exit "
      "status: 0 succeeded, 1 any other outcome, 2 usage "
      "error (bad flags, unreadable file, invalid JSON, invalid limits; one JSON line on stderr).");
  run->add_option("PROGRAM", arguments.program_path,
                  "The program's source file (at most 1 MiB); its file name becomes the program "
                  "id.")
      ->required();
  CLI::Option* input = run->add_option("--input", arguments.input_json,
                                       "The program's input as JSON text (default: null).");
  run->add_option("--input-file", arguments.input_file, "Read the program's input JSON from FILE.")
      ->excludes(input);
  run->add_option("--tools", arguments.tools_path,
                  "TOOLS.json declaring command tools ({\"tools\":[...]}, see "
                  "include/codemode/command_tool.h); the program may call all of them.");
  run->add_option("--limits", arguments.limits_path,
                  "LIMITS.json: a JSON object overriding any of the default limits by name.");
  run->add_option("--worker", arguments.worker_path,
                  "The codemode-worker binary (default: " + default_worker_path() + ").");
  CLI::Option* sandbox = run->add_option(
      "--sandbox", arguments.sandbox_path,
      "SANDBOX.json choosing the sandbox as the \"sandbox\" member of `codemode mcp`'s config "
      "does (docs/mcp.md): {\"type\":\"process\", ...}, {\"type\":\"docker\", \"image\": ...} "
      "(a container per run; scripts/docker-image --sandbox writes one, docs/docker.md) or "
      "{\"type\":\"protocol\", \"launch\": [...], ...}, a worker your own command starts "
      "(bubblewrap, ssh). Instead of --spawn, --isolation and --engine.");
  run->add_option("--spawn", arguments.spawn,
                  "How the worker process is made: fork_server (default; forked from one "
                  "pre-initialised server, about a millisecond) or exec (executed per run: each "
                  "run gets its own address-space layout).")
      ->transform(CLI::CheckedTransformer(std::map<std::string, SpawnMode>{
          {"fork_server", SpawnMode::kForkServer}, {"exec", SpawnMode::kExec}}))
      ->excludes(sandbox);
  run->add_option("--isolation", arguments.isolation,
                  "The worker's OS confinement: process (default: seccomp, rlimits, no fds) or "
                  "isolated (also new user, pid, network, mount, IPC and UTS namespaces and an "
                  "empty root; UNSUPPORTED_PROFILE where the kernel refuses them).")
      ->transform(CLI::CheckedTransformer(std::map<std::string, IsolationProfile>{
          {"process", IsolationProfile::kProcess}, {"isolated", IsolationProfile::kIsolated}}))
      ->excludes(sandbox);
  run->add_option("--engine", arguments.engine,
                  "How JavaScript runs: interpreter (default: no JIT, and the system-call filter "
                  "forbids executable memory) or jit (Baseline and Ion JIT compilers, 15 to 33 "
                  "times faster on loops in the bench; WEAKER: executable memory is allowed, "
                  "never writable at the same time, and JIT bugs are most engine exploits; see "
                  "docs/security.md).")
      ->transform(CLI::CheckedTransformer(std::map<std::string, EngineProfile>{
          {"interpreter", EngineProfile::kInterpreter}, {"jit", EngineProfile::kJit}}))
      ->excludes(sandbox);
  run->add_option_function<std::string>(
         "--profile",
         [&arguments](const std::string& text) {
           arguments.profile =
               program_profile_from_string(text).value_or(ProgramProfile::kStandard);
         },
         "The program's world: standard (default: ECMAScript's globals and `tools`; a call past "
         "maxToolConcurrency is refused) or model (also console, timers, TextEncoder/TextDecoder, "
         "atob/btoa, URL, structuredClone and crypto, as programs written by language models "
         "expect; calls past maxToolConcurrency wait; console lines are printed as the outcome's "
         "\"logs\"). See docs/programs.md.")
      ->check(CLI::IsMember({"standard", "model"}));
  run->add_option_function<std::string>(
         "--language",
         [&arguments](const std::string& text) {
           arguments.language =
               text == "typescript" ? ProgramLanguage::kTypeScript : ProgramLanguage::kJavaScript;
         },
         "javascript or typescript (default: typescript for a .ts or .mts file). TypeScript runs "
         "with its types erased: lines and columns stay as written.")
      ->check(CLI::IsMember({"javascript", "typescript"}));
  run->footer("Default limits:\n" + describe_default_limits());
  return run;
}

int run_program(const RunArguments& arguments) {
  Result<RunSetup> setup = prepare(arguments);
  if (!setup.ok()) {
    print_usage_error(setup.error());
    return kExitUsageError;
  }
  Result<std::unique_ptr<CodeMode>> mode = make_code_mode(arguments, setup->program);
  if (!mode.ok()) {
    print_usage_error(mode.error());
    return kExitUsageError;
  }
  const CodeExecutionOutcome outcome =
      (*mode)->execute(setup->program, setup->input,
                       {.run_id = "cli",
                        .execution_id = "cli:" + program_id(arguments.program_path),
                        .scope = {.principal_id = "local", .project_id = "cli"}});
  print_json_line(to_json(outcome));
  return outcome.ok() ? kExitSucceeded : kExitFailed;
}

}  // namespace codemode::cli
