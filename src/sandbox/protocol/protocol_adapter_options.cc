#include "sandbox/protocol/protocol_adapter_options.h"

#include <algorithm>

#include "core/text/identifiers.h"

namespace codemode::internal {
namespace {

Error option_error(std::string message) {
  return Error::invalid_config("protocol_adapter_options", std::move(message));
}

bool is_environment_name(std::string_view name) {
  if (name.empty() || name.size() > 128) return false;
  const auto letter = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  if (!letter(name[0]) && name[0] != '_') return false;
  return std::all_of(name.begin(), name.end(),
                     [&](char c) { return letter(c) || digit(c) || c == '_'; });
}

Status check_command(const std::vector<std::string>& argv, std::string_view field) {
  const std::string name(field);
  if (argv.empty() || argv.size() > kMaxCommandArguments) {
    return option_error(name + " must hold 1 to 256 arguments.");
  }
  for (const std::string& argument : argv) {
    if (argument.size() > kMaxArgumentBytes || argument.find('\0') != std::string::npos) {
      return option_error(name + "'s arguments must be at most 4096 bytes, without NUL.");
    }
  }
  if (argv[0].empty() || argv[0][0] != '/') {
    return option_error(name + "[0] must be an absolute path: there is no PATH lookup.");
  }
  return {};
}

}  // namespace

Status check_protocol_adapter_options(const ProtocolAdapterOptions& options) {
  if (!is_identifier(options.id)) {
    return option_error(
        "id must start with a letter and hold at most 128 letters, digits, \".\", \"_\", \"/\" "
        "or \"-\".");
  }
  if (options.version.empty() || options.version.size() > 128) {
    return option_error("version must be 1 to 128 characters.");
  }
  if (Status launch = check_command(options.launch, "launch"); !launch.ok()) return launch;
  if (!options.terminate.empty()) {
    if (Status terminate = check_command(options.terminate, "terminate"); !terminate.ok()) {
      return terminate;
    }
  }
  if (options.environment.size() > kMaxEnvironmentEntries) {
    return option_error("environment must hold at most 256 entries.");
  }
  for (const std::string& entry : options.environment) {
    const std::size_t equals = entry.find('=');
    if (equals == std::string::npos || !is_environment_name(entry.substr(0, equals)) ||
        entry.size() > kMaxArgumentBytes || entry.find('\0') != std::string::npos) {
      return option_error(
          "environment entries must be NAME=value, NAME a letter or _ then letters, digits or _, "
          "at most 4096 bytes without NUL.");
    }
  }
  if (options.stack_bytes < kMinEngineStackBytes || options.stack_bytes > kMaxEngineStackBytes) {
    return option_error("stack_bytes must be 64 KiB to 6 MiB.");
  }
  return {};
}

std::vector<std::string> with_sandbox_name(std::vector<std::string> argv,
                                           std::string_view sandbox_name) {
  for (std::string& argument : argv) {
    for (std::size_t at = argument.find(kSandboxPlaceholder); at != std::string::npos;
         at = argument.find(kSandboxPlaceholder, at + sandbox_name.size())) {
      argument.replace(at, kSandboxPlaceholder.size(), sandbox_name);
    }
  }
  return argv;
}

}  // namespace codemode::internal
