// The codemode command: one binary, one subcommand per job.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"codemode: run small JavaScript programs in a sandbox that can only call the tools "
               "its host allowed."};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("codemode 0.1.0"));
  CLI11_PARSE(app, argc, argv);
  return 0;
}
