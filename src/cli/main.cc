// The codemode command: one binary, one file per subcommand.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/cli_io.h"
#include "cli/docker_subcommand.h"
#include "cli/mcp_subcommand.h"
#include "cli/run_subcommand.h"
#include "cli/version.h"
#include "cli/workflow/workflow_subcommand.h"

int main(int argc, char** argv) {
  CLI::App app{
      "codemode: run small JavaScript programs in a sandbox that can only call the tools "
      "its host allowed."};
  app.require_subcommand(1);
  app.set_version_flag("--version", codemode::cli::version_text);
  codemode::cli::RunArguments run_arguments;
  CLI::App* run = codemode::cli::add_run_subcommand(app, run_arguments);
  codemode::cli::McpArguments mcp_arguments;
  CLI::App* mcp = codemode::cli::add_mcp_subcommand(app, mcp_arguments);
  codemode::cli::WorkflowArguments workflow_arguments;
  CLI::App* workflow = codemode::cli::add_workflow_subcommand(app, workflow_arguments);
  codemode::cli::DockerArguments docker_arguments;
  CLI::App* docker = codemode::cli::add_docker_subcommand(app, docker_arguments);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; every other parse error is a usage error.
    return app.exit(error) == 0 ? codemode::cli::kExitSucceeded : codemode::cli::kExitUsageError;
  }
  if (run->parsed()) return codemode::cli::run_program(run_arguments);
  if (mcp->parsed()) return codemode::cli::run_mcp_server(mcp_arguments);
  if (workflow->parsed()) return codemode::cli::run_workflow_command(workflow_arguments);
  if (docker->parsed()) return codemode::cli::run_docker_command(docker_arguments);
  return codemode::cli::kExitUsageError;
}
