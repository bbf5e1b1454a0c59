// `codemode docker promote` and `codemode docker verify`: the host CI's side of the promoted
// Docker adapter (include/codemode/docker_promotion.h). promote signs a statement that an image
// had a clean scan, from the scanner's SARIF report and the CI's Ed25519 key, and prints the
// proof as one JSON line; verify checks a proof against an image and provenance now and prints
// its statement. Exit 0 on success, 1 when the promotion is refused (the error as one JSON line
// on stderr), 2 for a usage error.
#ifndef CODEMODE_CLI_DOCKER_SUBCOMMAND_H_
#define CODEMODE_CLI_DOCKER_SUBCOMMAND_H_

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace codemode::cli {

struct DockerArguments {
  // Both subcommands.
  std::string image;
  std::string provenance;
  // promote
  std::string sarif_path;
  std::string private_key_path;
  std::string builder_id;
  std::string scanner_id;
  std::string scanner_version;
  std::string completed_at;
  std::string issued_at;   // default: now
  std::string expires_at;  // default: issued_at + 24 h
  // verify
  std::string promotion_path;
  std::string public_key_path;
  std::int64_t max_scan_age_ms = 86'400'000;

  CLI::App* promote = nullptr;
  CLI::App* verify = nullptr;
};

// Adds the subcommand to `app`; parsing fills `arguments`, which must outlive `app`.
CLI::App* add_docker_subcommand(CLI::App& app, DockerArguments& arguments);

// Runs the parsed subcommand and returns the exit status.
int run_docker_command(const DockerArguments& arguments);

}  // namespace codemode::cli

#endif  // CODEMODE_CLI_DOCKER_SUBCOMMAND_H_
