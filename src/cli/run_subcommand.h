// `codemode run PROGRAM.js`: runs one program in the process sandbox and prints its outcome
// (codemode::to_json) as one JSON line on stdout. Exit 0 when it succeeded, 1 for any other
// outcome, 2 for a usage error (printed as one JSON line on stderr).
#ifndef CODEMODE_CLI_RUN_SUBCOMMAND_H_
#define CODEMODE_CLI_RUN_SUBCOMMAND_H_

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "codemode/process_adapter.h"

namespace codemode::cli {

struct RunArguments {
  std::string program_path;
  std::optional<std::string> input_json;   // --input; the input is null without it and --input-file
  std::optional<std::string> input_file;   // --input-file
  std::optional<std::string> tools_path;   // --tools TOOLS.json (command_tool.h)
  std::optional<std::string> limits_path;  // --limits LIMITS.json (cli_limits.h)
  std::optional<std::string> worker_path;  // --worker; default: codemode::default_worker_path()
  std::optional<std::string> sandbox_path;   // --sandbox SANDBOX.json (codemode/sandbox_config.h)
  SpawnMode spawn = SpawnMode::kForkServer;  // --spawn fork_server|exec
  IsolationProfile isolation = IsolationProfile::kProcess;  // --isolation process|isolated
  EngineProfile engine = EngineProfile::kInterpreter;       // --engine interpreter|jit
  ProgramProfile profile = ProgramProfile::kStandard;       // --profile standard|model
  // --language javascript|typescript; by default typescript for a .ts or .mts file.
  std::optional<ProgramLanguage> language;
};

// Adds the subcommand to `app`; parsing fills `arguments`, which must outlive `app`.
CLI::App* add_run_subcommand(CLI::App& app, RunArguments& arguments);

// Runs the program as `arguments` say and returns the exit status.
int run_program(const RunArguments& arguments);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_RUN_SUBCOMMAND_H_
